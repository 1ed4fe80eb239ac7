/**
 * A technician reports a fault with a photo offline on a machine that an admin deletes before the report arrives.
 * The server refuses the report (the machine is gone); the sync panel says why in German and offers another
 * machine. Chosen, the report goes out again with its photo under the same id, and the server has both, once, on
 * the chosen machine. Tablet portrait, as on the shop floor.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from './support/test';
import { loginAs, TABLET_PORTRAIT } from './support/pages';
import { ApiClient, MachineListPage, MachinePage, solidPng, SyncStatus } from './support/machine-pages';

const TARGET = 'BAZ 02 Fräszentrum';

test('a report whose machine was deleted while it waited offline is given another machine in the sync panel, photo and all', async ({ page, context, request }, testInfo) => {
  test.setTimeout(300_000);
  await page.setViewportSize(TABLET_PORTRAIT);
  let admin = await ApiClient.login(request, 'admin');
  const feed = await admin.pullAll();
  const target = (feed.get('equipment') ?? []).find((row) => row.name === TARGET)!;
  // A machine of this test's own, in the target's area and of its type: the one the admin deletes.
  const doomedId = randomUUID();
  const doomed = `Prüfstand ${Date.now()}`;
  await admin.send('POST', 'equipments', { lang: 'de', equipmentnodeid: doomedId, name: doomed, constructiondate: Date.UTC(2020, 0, 1), isequipmentof: [target.areanodeid], equipmenttypenodeid: target.equipmenttypenodeid });

  await loginAs(page, 'technician');
  // The service worker has stored the app's screens: the machine's screen opens offline.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  const sync = new SyncStatus(page);
  await sync.waitUntilSynced();

  await context.setOffline(true);
  await new MachineListPage(page).open(doomed);
  const title = `Undichtigkeit am Prüfstand ${Date.now()}`;
  const photo = solidPng(32, [20, 120, 200]);
  const machine = new MachinePage(page);
  await machine.reportFault({ title, description: 'Ölfleck unter dem Aggregat.', photo: { name: 'oel.png', mimeType: 'image/png', buffer: photo } });
  await machine.notification(title).getByRole('link', { name: title }).click();
  const notificationId = new URL(page.url()).searchParams.get('nodeid')!;
  await sync.expectPending(1);

  // A fresh admin session each time: the e2e server's access tokens live only seconds.
  await (await ApiClient.login(request, 'admin')).send('DELETE', `equipments/${doomedId}`, {});
  await context.setOffline(false);
  // The report and its photo's attachment are refused (the photo's registration needs no machine and went through).
  await expect(sync.button()).toHaveAttribute('data-refused', '2', { timeout: 60_000 });
  await expect(sync.button().getByTestId('sync-headline')).toHaveText('2 Änderungen abgelehnt');
  // The report's own screen, still open, does not only say "not found": it says where the input is.
  await expect(page.getByTestId('notification-not-found')).toContainText('Ihre Eingaben sind nicht verloren');

  await sync.button().click();
  const panel = page.getByRole('dialog', { name: 'Synchronisierung' });
  // Named by its machine though the pull has taken the deleted machine off the device since.
  const report = panel.getByRole('listitem').filter({ hasText: `Meldung erfassen: ${doomed} – ${title}` }).filter({ hasNotText: 'Foto anhängen' });
  await expect(report).toContainText('vermutlich wurde er inzwischen gelöscht');
  // What the technician typed is shown with it, to copy before discarding.
  await expect(report.getByTestId('refused-content')).toContainText(`Titel: ${title}`);
  await expect(report.getByTestId('refused-content')).toContainText('Beschreibung: Ölfleck unter dem Aggregat.');
  // The photo was refused because its report was: it says so, and does not claim something was deleted.
  const attachmentItem = panel.getByRole('listitem').filter({ hasText: `Foto anhängen: ${title}` });
  await expect(attachmentItem).toContainText(`wurde nie angelegt: „Meldung erfassen: ${doomed} – ${title}“ wurde ebenfalls abgelehnt.`);
  await expect(attachmentItem).not.toContainText('vermutlich');
  // Sent again, both would meet the same deleted machine: neither is offered for sending, the way out is said.
  await expect(panel.getByRole('button', { name: /erneut senden/i })).toHaveCount(0);
  await expect(report.getByTestId('refused-cannot-retry')).toHaveText(/Erneut senden hilft hier nicht\. Ordnen Sie die Meldung einer anderen Maschine zu/);
  await expect(attachmentItem.getByTestId('refused-cannot-retry')).toContainText(`Die Änderung wird mit „Meldung erfassen: ${doomed} – ${title}“ gesendet, sobald Sie diese einer anderen Maschine zuordnen.`);
  await page.screenshot({ path: testInfo.outputPath('refused-panel-portrait.png') });
  // Every button of the panel is a tablet's touch target, at least 44 px high (they were 40).
  for (const box of await Promise.all((await panel.getByRole('button').filter({ hasNotText: /^$/ }).all()).map((button) => button.boundingBox()))) {
    expect(box!.height).toBeGreaterThanOrEqual(44);
  }
  // Only the report itself can be given another machine; its photo goes along with it.
  await expect(panel.getByTestId('reassign-open')).toHaveCount(1);
  await report.getByTestId('reassign-open').click();

  const dialog = page.getByRole('dialog', { name: 'Meldung einer anderen Maschine zuordnen' });
  await expect(dialog).toContainText('Dazu gehört 1 weitere abgelehnte Änderung');
  // Nothing chosen yet: the dialog asks for a machine instead of sending.
  await dialog.getByTestId('reassign-confirm').click();
  await expect(dialog).toContainText('Bitte wählen Sie eine Maschine.');
  await dialog.getByRole('textbox', { name: 'Maschine suchen (Name, Nummer, Bereich, Werk)' }).fill(doomed);
  // The deleted machine is not offered again.
  await expect(dialog.getByText('Keine Maschine gefunden.')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Maschine suchen (Name, Nummer, Bereich, Werk)' }).fill('BAZ 02');
  await dialog.getByRole('button', { name: new RegExp(TARGET) }).click();
  await expect(dialog.getByTestId('equipment-picker-chosen')).toContainText(TARGET);
  await page.screenshot({ path: testInfo.outputPath('reassign-dialog-portrait.png') });
  await dialog.getByTestId('reassign-confirm').click();
  await expect(dialog).toBeHidden();

  await sync.waitUntilSynced(60_000);
  await expect(panel.getByRole('heading', { name: /Vom Server abgelehnt/ })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('reassign-synced-portrait.png') });

  // The server has the report once, on the chosen machine, with its photo.
  admin = await ApiClient.login(request, 'admin');
  const stored = await admin.get<{ title: string; equipmentnodeid: string; counts: { hasattachment: number } }>(`notifications/${notificationId}?lang=de`);
  expect(stored).toMatchObject({ title, equipmentnodeid: target.nodeid, counts: { hasattachment: 1 } });
  const after = await admin.pullAll();
  expect((after.get('notifications') ?? []).filter((row) => row.title === title)).toHaveLength(1);
  const attachments = (after.get('attachments') ?? []).filter((row) => row.isattachmentof === notificationId);
  expect(attachments).toHaveLength(1);
  const attachment = await admin.get<{ url: string }>(`attachments/${String(attachments[0]!.nodeid)}`);
  expect((await admin.bytes(attachment.url)).body.equals(photo)).toBe(true);
});
