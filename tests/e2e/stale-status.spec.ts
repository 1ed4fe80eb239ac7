/**
 * Two people on one notification: a technician starts work on it while his tablet is offline, a colleague closes
 * it meanwhile. Back online, the first transition stands: the tablet's "In Bearbeitung" is refused, the sync panel
 * says why in German and offers the notification instead of sending the same refusal again. Tablet portrait.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from './support/test';
import { loginAs, TABLET_PORTRAIT } from './support/pages';
import { ApiClient, NotificationPage, SyncStatus } from './support/machine-pages';

test('a status change another device overtook is refused, explained, and opens its notification instead of "Erneut senden"', async ({ page, context, request }, testInfo) => {
  test.setTimeout(180_000);
  await page.setViewportSize(TABLET_PORTRAIT);
  const admin = await ApiClient.login(request, 'admin');
  const machine = ((await admin.pullAll()).get('equipment') ?? []).find((row) => row.name === 'BAZ 02 Fräszentrum')!;
  const nodeid = randomUUID();
  const title = `Kühlmittelpumpe pfeift ${Date.now()}`;
  await admin.send('POST', 'notifications', { lang: 'de', nodeid, type: 1, title, equipmentnodeid: machine.nodeid });

  await loginAs(page, 'technician');
  const sync = new SyncStatus(page);
  await sync.waitUntilSynced();
  await page.goto(`/notification-details?nodeid=${nodeid}`);
  const notification = new NotificationPage(page);
  await expect(notification.status()).toHaveValue('0');

  await context.setOffline(true);
  await notification.setStatus('In Bearbeitung');
  await sync.expectPending(1);
  // Meanwhile the colleague starts and finishes it (a fresh session: the e2e server's tokens live only seconds).
  const colleague = await ApiClient.login(request, 'admin');
  await colleague.send('PUT', `notifications/${nodeid}`, { lang: 'de', status: 1, previousStatus: 0, onlyStatusUpdate: true });
  await colleague.send('PUT', `notifications/${nodeid}`, { lang: 'de', status: 2, previousStatus: 1, onlyStatusUpdate: true });

  await context.setOffline(false);
  await expect(sync.button()).toHaveAttribute('data-refused', '1', { timeout: 60_000 });
  // The screen converges to the status the server has.
  await expect(notification.status()).toHaveValue('2', { timeout: 60_000 });

  await sync.button().click();
  const panel = page.getByRole('dialog', { name: 'Synchronisierung' });
  const item = panel.getByRole('listitem').filter({ hasText: title });
  await expect(item).toContainText('Der Status der Meldung wurde inzwischen auf einem anderen Gerät geändert.');
  await expect(item.getByRole('button', { name: 'Erneut senden' })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('stale-status-panel-portrait.png') });
  await item.getByRole('link', { name: 'Meldung öffnen' }).click();
  await expect(panel).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/notification-details\\?nodeid=${nodeid}`));
  await expect(notification.status()).toHaveValue('2');
});
