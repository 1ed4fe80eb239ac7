/**
 * The whole life of a fault, offline → online (issue #13): a technician without network logs a fault with a photo
 * from the machine, opens what the machine already knows and comes back to the draft, saves, sets it in progress,
 * documents the solution with a photo, books the effort and closes it — then reloads, still offline, and finds all
 * of it. Online it reaches the server exactly once (every write once, no refused change), and a second device sees
 * the closed notification with its solution and costs once.
 *
 * Each part has its own spec (notification-form, solutions, costs, notification-details); this one proves they work
 * together on one notification, in the order a technician at the machine goes through them.
 */
import { expect, test } from './support/test';
import { loginAs, TABLET_LANDSCAPE, TABLET_PORTRAIT } from './support/pages';
import { ApiClient, MachineListPage, SyncStatus, solidPng } from './support/machine-pages';
import { apiLogin, clientIdOf, serverLastMutationId, takeOfflineReady, waitForEmptyOutbox } from './support/offline';

const MACHINE = 'BAZ 01 Fräszentrum';
/** A FAQ of BAZ 01's equipment type (DMU 65 monoBLOCK) in the demo plant. */
const TYPE_FAQ = 'Maximales Werkstückgewicht auf dem Tisch?';

test('a fault from first report to closed, offline, then synced exactly once and seen on a second device', async ({ page, context, browser, request }) => {
  test.setTimeout(420_000);
  await page.setViewportSize(TABLET_LANDSCAPE);
  await loginAs(page, 'technician');
  await takeOfflineReady(page);
  await new SyncStatus(page).waitUntilSynced();

  await context.setOffline(true);
  // 1. Report the fault from the machine, with a photo; what the machine knows is offered while typing.
  await new MachineListPage(page).open(MACHINE);
  const machineId = new URL(page.url()).searchParams.get('nodeid')!;
  await page.getByTestId('machine-notification-form').click();
  const stamp = Date.now();
  const title = `Tisch meldet Überlast, Werkstückgewicht zu hoch ${stamp}`;
  await page.getByTestId('notification-type-select').selectOption('0');
  await page.getByTestId('notification-title-input').fill(title);
  await page.getByTestId('notification-errorcode-input').fill('E-77');
  await page.getByTestId('notification-file-input').setInputFiles([{ name: 'Tisch.png', mimeType: 'image/png', buffer: solidPng(48, [180, 40, 40]) }]);
  const suggestion = page.getByTestId('notification-suggestion').filter({ hasText: TYPE_FAQ });
  await expect(suggestion).toBeVisible();
  await suggestion.click();
  await expect(page.getByText(TYPE_FAQ).first()).toBeVisible();
  await page.goBack();
  await expect(page.getByTestId('notification-title-input')).toHaveValue(title);
  await expect(page.getByTestId('notification-chosen-file')).toHaveCount(1);
  await page.getByTestId('notification-form-save').click();
  await expect(page).toHaveURL(/\/notification-details\?nodeid=/);
  const notificationId = new URL(page.url()).searchParams.get('nodeid')!;
  const status = page.getByRole('combobox', { name: 'Status' });

  // 2. In progress.
  await status.selectOption('1');
  await expect(page.getByTestId('status-line')).toContainText('In Bearbeitung seit');

  // 3. The solution, with a photo.
  const solution = `Werkstück umgespannt, Palette geteilt ${stamp}`;
  await page.getByRole('tab', { name: 'Maßnahmen' }).click();
  await page.getByTestId('solution-add').click();
  await page.getByTestId('solution-title-input').fill(solution);
  await page.getByTestId('solution-description-input').fill('Last auf zwei Aufspannungen verteilt, Tisch ohne Meldung.');
  await page.getByTestId('solution-file-input').setInputFiles([{ name: 'Aufspannung.png', mimeType: 'image/png', buffer: solidPng(48, [40, 120, 60]) }]);
  await page.getByTestId('solution-form-save').click();
  await expect(page).toHaveURL(new RegExp(`/notification-details\\?nodeid=${notificationId}`));

  // 4. The effort: parts in German decimals.
  await page.getByRole('tab', { name: 'Aufwandserfassung' }).click();
  await page.getByRole('button', { name: 'Bearbeiten' }).click();
  await page.getByRole('textbox', { name: 'Ersatzteile – Ist' }).fill('250,5');
  await page.getByRole('button', { name: 'Kosten speichern' }).click();
  await expect(page.getByTestId('effort-row').filter({ hasText: 'Ersatzteile' }).getByTestId('effort-actualcost')).toHaveText('250,50');

  // 5. Closed: the processing time shows.
  await status.selectOption('2');
  await expect(page.getByTestId('status-line')).toContainText('Erledigt am');
  await expect(page.getByTestId('processing-time')).toBeVisible();

  // 6. Still offline after a reload: everything is on the device.
  await page.reload();
  await expect(page.getByTestId('notification-header')).toContainText('Tisch meldet Überlast', { timeout: 60_000 });
  await expect(page.getByRole('combobox', { name: 'Status' })).toHaveValue('2');
  await expect(page.getByText('Maßnahme hinterlegt')).toBeVisible();
  await page.getByRole('tab', { name: 'Maßnahmen' }).click();
  await expect(page.getByTestId('solution-item').filter({ hasText: solution })).toHaveCount(1);
  await page.setViewportSize(TABLET_PORTRAIT);
  await page.getByRole('tab', { name: 'Aufwandserfassung' }).click();
  await expect(page.getByTestId('effort-row').filter({ hasText: 'Ersatzteile' }).getByTestId('effort-actualcost')).toHaveText('250,50');
  await page.setViewportSize(TABLET_LANDSCAPE);

  // 7. Online: every write reaches the server once, none refused.
  await context.setOffline(false);
  const snapshot = await waitForEmptyOutbox(page, 120_000);
  expect(snapshot.deadLetters).toEqual([]);
  const session = await apiLogin(request, 'technician');
  // The notification with its photo (3: create, file, attachment), two status changes, the solution with its photo
  // (3), one cost.
  expect(await serverLastMutationId(request, 'technician', clientIdOf(snapshot, session.usernodeid))).toBe(9);
  const feed = await (await ApiClient.login(request, 'admin')).pullAll();
  const rows = (kind: string) => feed.get(kind) ?? [];
  const notifications = rows('notifications').filter((row) => row.nodeid === notificationId);
  expect(notifications).toMatchObject([{ title, errorcode: 'E-77', status: 2, equipmentnodeid: machineId }]);
  expect(Number(notifications[0]!.closed)).toBeGreaterThanOrEqual(Number(notifications[0]!.progressstarted));
  expect(rows('attachments').filter((row) => row.isattachmentof === notificationId)).toHaveLength(1);
  const workflows = rows('workflows').filter((row) => row.notificationnodeid === notificationId);
  expect(workflows).toMatchObject([{ title: solution }]);
  const steps = rows('workflowsteps').filter((row) => row.workflownodeid === workflows[0]!.nodeid);
  expect(steps).toHaveLength(1);
  expect(rows('attachments').filter((row) => row.isattachmentof === steps[0]!.nodeid)).toHaveLength(1);
  expect(rows('costs').filter((row) => row.notificationnodeid === notificationId)).toMatchObject([{ value: 250.5, specifier: 'actualcost' }]);

  // 8. A second device sees the closed notification, its solution and its costs, once.
  const other = await browser.newContext({ viewport: TABLET_PORTRAIT });
  const second = await other.newPage();
  await loginAs(second, 'admin');
  await new SyncStatus(second).waitUntilSynced(150_000);
  await second.goto(`/notification-details?nodeid=${notificationId}`);
  await expect(second.getByTestId('notification-header')).toContainText('Tisch meldet Überlast', { timeout: 60_000 });
  await expect(second.getByTestId('status-line')).toContainText('Erledigt am');
  await second.getByRole('tab', { name: 'Maßnahmen' }).click();
  await expect(second.getByTestId('solution-item').filter({ hasText: solution })).toHaveCount(1);
  await second.getByRole('tab', { name: 'Aufwandserfassung' }).click();
  await expect(second.getByTestId('effort-row').filter({ hasText: 'Ersatzteile' }).getByTestId('effort-actualcost')).toHaveText('250,50');
  await other.close();
});
