/**
 * A screen whose code cannot be loaded says why in German instead of the router's bare error: offline, before
 * the service worker has stored it (it then loads by itself once the device is back online); online, after an
 * update removed it (reload). The service worker is blocked here so the screen's request can be made to fail.
 */
import { expect, test } from './support/test';
import { loginAs, TABLET_PORTRAIT } from './support/pages';
import { MachineListPage, SyncStatus } from './support/machine-pages';

test.use({ serviceWorkers: 'block' });

const MACHINE = 'BAZ 02 Fräszentrum';
const MACHINE_SCREEN = /\/assets\/machine-overview-screen-[^/]+\.js$/;

test('offline before the screen was stored: it says so, keeps the data, and loads the screen once back online', async ({ page, context }, testInfo) => {
  await page.setViewportSize(TABLET_PORTRAIT);
  await loginAs(page, 'technician');
  await new SyncStatus(page).waitUntilSynced();
  await context.setOffline(true);
  await new MachineListPage(page).search().fill(MACHINE);
  await new MachineListPage(page).machineLink(MACHINE).first().click();

  const error = page.getByTestId('route-error');
  await expect(error).toHaveAttribute('data-kind', 'offline');
  await expect(error.getByRole('heading', { name: 'Diese Ansicht ist noch nicht offline verfügbar' })).toBeVisible();
  await expect(error).toContainText('Ihre Daten und nicht gesendeten Änderungen sind sicher auf dem Gerät.');
  await expect(page.getByText('Unexpected Application Error')).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('route-error-offline-portrait.png') });

  // Back online, the page loads the screen by itself.
  await context.setOffline(false);
  await expect(page.getByRole('heading', { name: MACHINE, level: 2 })).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/machine-overview\?nodeid=/);
});

test('online, the screen gone after an update: reload brings it', async ({ page }) => {
  await loginAs(page, 'technician');
  await new SyncStatus(page).waitUntilSynced();
  await page.route(MACHINE_SCREEN, (route) => route.abort());
  await new MachineListPage(page).search().fill(MACHINE);
  await new MachineListPage(page).machineLink(MACHINE).first().click();

  const error = page.getByTestId('route-error');
  await expect(error).toHaveAttribute('data-kind', 'updated');
  await expect(error.getByRole('heading', { name: 'Die App wurde aktualisiert' })).toBeVisible();
  await page.unroute(MACHINE_SCREEN);
  await error.getByRole('button', { name: 'Neu laden' }).click();
  await expect(page.getByRole('heading', { name: MACHINE, level: 2 })).toBeVisible({ timeout: 30_000 });
});
