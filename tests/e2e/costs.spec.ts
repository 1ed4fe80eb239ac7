/**
 * Effort and costs end to end (spec part 1 §2.2 Aufwandserfassung, §4.3, §5, §9): the technician opens a demo
 * notification without costs, goes offline, enters planned and actual costs with a German decimal comma (a
 * malformed value is refused with a field error), reloads offline — the values in German format and the total
 * with the hours at the machine's hourly rate are still there — and once online the costs reach the server
 * exactly once, where a second tablet sees them.
 */
import type { Page } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { ApiClient, SyncStatus } from './support/machine-pages';
import { loginAs, shotsDir, TABLET_LANDSCAPE, TABLET_PORTRAIT, tabletScreenshots } from './support/pages';
import { takeOfflineReady, waitForEmptyOutbox } from './support/offline';
import { expect, test, watchCsp, expectNoCspViolations } from './support/test';

const SHOTS = shotsDir('costs');

const screenshots = (page: Page, file: string) => tabletScreenshots(page, SHOTS, file);

const euro = (value: number) => `${new Intl.NumberFormat('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value)} €`;

/** A notification of the demo plant (not planned maintenance) without any cost, on a machine with an hourly rate. */
async function notificationWithoutCosts(api: ApiClient): Promise<{ nodeid: string; rate: number }> {
  const rows = await api.pullAll();
  const booked = new Set((rows.get('costs') ?? []).map((cost) => cost.notificationnodeid));
  const rates = new Map((rows.get('equipment') ?? []).filter((m) => typeof m.hourlyrate === 'number').map((m) => [m.nodeid, m.hourlyrate as number]));
  const found = (rows.get('notifications') ?? [])
    .filter((n) => n.type !== 6 && !booked.has(n.nodeid) && rates.has(n.equipmentnodeid))
    .sort((a, b) => String(a.nodeid).localeCompare(String(b.nodeid)))[0];
  if (!found) throw new Error('the demo plant has no notification without costs on a machine with an hourly rate');
  return { nodeid: String(found.nodeid), rate: rates.get(found.equipmentnodeid)! };
}

const input = (page: Page, type: string, column: 'Geplant' | 'Ist') => page.getByRole('textbox', { name: `${type} – ${column}` });
const row = (page: Page, type: string) => page.getByTestId('effort-row').filter({ hasText: type });

async function openEffortTab(page: Page) {
  await page.getByRole('tab', { name: 'Aufwandserfassung' }).click();
  await expect(page.getByTestId('effort-table')).toBeVisible();
}

test('offline: costs entered with a decimal comma survive a reload offline with their total, and reach the server once', async ({ page, context, browser, request }) => {
  test.setTimeout(300_000);
  await page.setViewportSize(TABLET_LANDSCAPE);
  const api = await ApiClient.login(request, 'technician');
  const { nodeid, rate } = await notificationWithoutCosts(api);

  await loginAs(page, 'technician');
  await takeOfflineReady(page);
  await new SyncStatus(page).waitUntilSynced();
  await page.goto(`/notification-details?nodeid=${nodeid}`);
  await expect(page.getByTestId('notification-header')).toBeVisible();
  await context.setOffline(true);

  await openEffortTab(page);
  // §5: the five inputs in the spec's order, each with its unit; nothing booked yet.
  await expect(page.getByTestId('effort-row')).toHaveText([/^Ersatzteile€/, /^Betriebsstoffe€/, /^Externe Dienstleister€/, /^Ausfallzeith/, /^Interne Personalstundenh/]);
  await expect(page.getByTestId('effort-total-actualcost')).toHaveText('0,00 €');
  await expect(page.getByTestId('effort-rate')).toHaveText(`Stundensatz der Maschine: ${euro(rate).replace(' €', '')} €/h`);

  await page.getByRole('button', { name: 'Bearbeiten' }).click();
  const save = page.getByRole('button', { name: 'Kosten speichern' });
  await expect(save).toBeDisabled();
  // §9 placeholders: 10 planned, 20 actual.
  await expect(input(page, 'Ersatzteile', 'Geplant')).toHaveAttribute('placeholder', '10');
  await expect(input(page, 'Ersatzteile', 'Ist')).toHaveAttribute('placeholder', '20');

  await input(page, 'Ersatzteile', 'Ist').fill('1.234,5');
  await input(page, 'Interne Personalstunden', 'Ist').fill('2,5');
  await input(page, 'Ersatzteile', 'Geplant').fill('1000');
  // A German "12.5" is no number here: a field error, and nothing can be saved.
  await input(page, 'Externe Dienstleister', 'Ist').fill('12.5');
  await expect(row(page, 'Externe Dienstleister').getByText('Bitte eine Zahl wie 1.234,50 eingeben.')).toBeVisible();
  await expect(save).toBeDisabled();
  await screenshots(page, 'effort-edit-invalid');
  await input(page, 'Externe Dienstleister', 'Ist').fill('');
  await expect(save).toBeEnabled();
  await save.click();

  const actualTotal = euro(1234.5 + 2.5 * rate);
  await expect(row(page, 'Ersatzteile').getByTestId('effort-actualcost')).toHaveText('1.234,50');
  await expect(row(page, 'Ersatzteile').getByTestId('effort-plannedcost')).toHaveText('1.000,00');
  await expect(row(page, 'Interne Personalstunden').getByTestId('effort-actualcost')).toHaveText('2,5');
  await expect(row(page, 'Externe Dienstleister').getByTestId('effort-actualcost')).toHaveText('—');
  await expect(page.getByTestId('effort-total-actualcost')).toHaveText(actualTotal);
  await expect(page.getByTestId('effort-total-plannedcost')).toHaveText('1.000,00 €');
  await expect(row(page, 'Ersatzteile').getByTestId('not-synced')).toBeVisible();
  await screenshots(page, 'effort-saved-offline');

  // Reload without network: everything comes from the device.
  await page.reload();
  await openEffortTab(page);
  await expect(row(page, 'Ersatzteile').getByTestId('effort-actualcost')).toHaveText('1.234,50');
  await expect(row(page, 'Interne Personalstunden').getByTestId('effort-actualcost')).toHaveText('2,5');
  await expect(page.getByTestId('effort-total-actualcost')).toHaveText(actualTotal);

  // An edit that changes nothing cannot be saved; cancel leaves the values alone.
  await page.getByRole('button', { name: 'Bearbeiten' }).click();
  await expect(input(page, 'Ersatzteile', 'Ist')).toHaveValue('1.234,50');
  await expect(page.getByRole('button', { name: 'Kosten speichern' })).toBeDisabled();
  await page.getByRole('button', { name: 'Abbrechen' }).click();

  await context.setOffline(false);
  await waitForEmptyOutbox(page, 90_000);
  await expect(row(page, 'Ersatzteile').getByTestId('not-synced')).toBeHidden({ timeout: 30_000 });
  // A fresh login: the e2e server's access tokens live only E2E_ACCESS_TOKEN_TTL seconds.
  const costs = ((await (await ApiClient.login(request, 'technician')).pullAll()).get('costs') ?? []).filter((cost) => cost.notificationnodeid === nodeid);
  expect(costs.map((cost) => [cost.specifier, cost.value]).sort()).toEqual(
    [
      ['actualcost', 1234.5],
      ['actualcost', 2.5],
      ['plannedcost', 1000],
    ].sort(),
  );

  // A second tablet, held upright, sees the costs after its sync.
  const other = await browser.newContext({ baseURL, locale: 'de-DE', timezoneId: 'Europe/Berlin', viewport: TABLET_PORTRAIT, hasTouch: true });
  const violations = await watchCsp(other);
  const second = await other.newPage();
  await loginAs(second, 'admin');
  await new SyncStatus(second).waitUntilSynced();
  await second.goto(`/notification-details?nodeid=${nodeid}`);
  await openEffortTab(second);
  await expect(row(second, 'Ersatzteile').getByTestId('effort-actualcost')).toHaveText('1.234,50');
  await expect(second.getByTestId('effort-total-actualcost')).toHaveText(actualTotal);
  await second.screenshot({ path: `${SHOTS}/effort-second-tablet-800x1280.png`, fullPage: true });
  expectNoCspViolations(violations);
  await other.close();
});

test('costs typed and not saved survive another tab of the notification and a reload offline; Abbrechen throws them away', async ({ page, context, request }) => {
  test.setTimeout(300_000);
  await page.setViewportSize(TABLET_PORTRAIT);
  const api = await ApiClient.login(request, 'technician');
  const { nodeid } = await notificationWithoutCosts(api);
  await loginAs(page, 'technician');
  await takeOfflineReady(page);
  await new SyncStatus(page).waitUntilSynced();
  await page.goto(`/notification-details?nodeid=${nodeid}`);
  await openEffortTab(page);
  await context.setOffline(true);

  await page.getByRole('button', { name: 'Bearbeiten' }).click();
  await input(page, 'Ausfallzeit', 'Ist').fill('3,5');
  await input(page, 'Ersatzteile', 'Ist').fill('48,90');
  // A look at the measures and back: the typed values are still there, in edit mode.
  await page.getByRole('tab', { name: 'Maßnahmen' }).click();
  await openEffortTab(page);
  await expect(input(page, 'Ausfallzeit', 'Ist')).toHaveValue('3,5');
  await expect(input(page, 'Ersatzteile', 'Ist')).toHaveValue('48,90');
  await expect(page.getByTestId('effort-draft-restored')).toContainText(/Nicht gespeicherte Eingaben vom \d{2}\.\d{2}\.\d{4} \d{2}:\d{2} wiederhergestellt\./);
  // And after a reload without network.
  await page.reload();
  await openEffortTab(page);
  await expect(input(page, 'Ausfallzeit', 'Ist')).toHaveValue('3,5');
  await screenshots(page, 'effort-draft-restored');
  await page.getByRole('button', { name: 'Kosten speichern' }).click();
  await expect(page.getByRole('button', { name: 'Kosten speichern' })).toHaveCount(0);
  await expect(row(page, 'Ersatzteile')).toContainText('48,90');
  await expect(row(page, 'Ausfallzeit')).toContainText('3,5');

  // Saved: edit mode opens from the saved values. Typed and cancelled: gone, also after another tab.
  await page.getByRole('button', { name: 'Bearbeiten' }).click();
  await expect(page.getByTestId('effort-draft-restored')).toHaveCount(0);
  await input(page, 'Ersatzteile', 'Ist').fill('99,00');
  await page.getByRole('button', { name: 'Abbrechen' }).click();
  await page.getByRole('tab', { name: 'Maßnahmen' }).click();
  await openEffortTab(page);
  await expect(page.getByRole('button', { name: 'Kosten speichern' })).toHaveCount(0);
  await expect(row(page, 'Ersatzteile')).toContainText('48,90');
  await context.setOffline(false);
  await new SyncStatus(page).waitUntilSynced();
  expect((await waitForEmptyOutbox(page)).deadLetters).toEqual([]);
});
