/**
 * The notification details screen end to end (spec part 1 §2.2, §4.1, §4.2, §6): header fields, '---' for a
 * missing error code, three attachment previews then "n weitere anzeigen", the tabs of a planned maintenance and
 * of a fault, the back link by origin, the remembered notification, a delete offline that returns to the origin
 * after 3 s and stays gone after a reload and for a second device, and the controls each profile may see.
 *
 * The fault under test is made over the API before the browser logs in (so the first sync brings it): a 60
 * character title, no error code, four pictures and a PDF, all reusing files of the demo plant.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { expect, test } from './support/test';
import { loginAs, navigateInApp, shotsDir, TABLET_LANDSCAPE, tabletScreenshots } from './support/pages';
import { ApiClient, MachineListPage, MachinePage, SyncStatus } from './support/machine-pages';
import { apiLogin, serverNotification, takeOfflineReady } from './support/offline';

const SHOTS = shotsDir('details');
const MACHINE = 'BAZ 02 Fräszentrum';
const LONG_TITLE = 'Kühlmittelpumpe läuft laut und fördert zu wenig am Spindelkopf';
type Row = Record<string, unknown>;

const screenshots = (page: Page, file: string) => tabletScreenshots(page, SHOTS, file);

const name = (value: unknown): string => (typeof value === 'string' ? value : ((value as Record<string, string> | null)?.de ?? ''));

interface Plant {
  machine: { nodeid: string; brand: string; model: string; place: string };
  planned: Row & { nodeid: string; task: Row };
  solved: Row & { nodeid: string };
  images: Row[];
  pdf: Row;
}

/** What the demo plant holds that the test needs, read as another client pulling everything. */
async function demoPlant(request: APIRequestContext): Promise<Plant> {
  const rows = await (await ApiClient.login(request, 'admin')).pullAll();
  const of = (kind: string) => rows.get(kind) ?? [];
  const byId = (kind: string, nodeid: unknown) => of(kind).find((row) => row.nodeid === nodeid);
  const machine = of('equipment').find((row) => name(row.name) === MACHINE)!;
  const type = byId('equipmenttypes', machine.equipmenttypenodeid)!;
  const place = byId('equipmentpools', machine.equipmentpoolnodeid) ?? byId('areas', machine.areanodeid)!;
  const repeating = (task: Row | undefined) => task !== undefined && task.triggertype === 'time' && task.repetitioninterval !== 'onetime';
  const planned = of('notifications')
    .filter((row) => row.type === 6 && repeating(byId('maintenancetasks', row.maintenancetasknodeid)))
    .sort((a, b) => Number(a.status) - Number(b.status) || Number(Boolean(b.dueuntil)) - Number(Boolean(a.dueuntil)))[0]!;
  const withWorkflow = new Set(of('workflows').map((row) => row.notificationnodeid));
  const solved = of('notifications').find((row) => withWorkflow.has(row.nodeid) && typeof row.errorcode === 'string' && row.errorcode !== '')!;
  const complete = of('files').filter((row) => row.status === 'complete');
  return {
    machine: { nodeid: String(machine.nodeid), brand: name(byId('brands', type.brandnodeid)!.name), model: String(type.model), place: name(place.name) },
    planned: { ...planned, nodeid: String(planned.nodeid), task: byId('maintenancetasks', planned.maintenancetasknodeid)! },
    solved: { ...solved, nodeid: String(solved.nodeid) },
    images: complete.filter((row) => String(row.mimetype).startsWith('image/')).slice(0, 4),
    pdf: complete.find((row) => row.mimetype === 'application/pdf')!,
  };
}

/** The fault under test, with four pictures and a document, straight on the server. */
async function faultWithAttachments(request: APIRequestContext, plant: Plant): Promise<string> {
  const session = await apiLogin(request, 'admin');
  const headers = { authorization: `Bearer ${session.accesstoken}` };
  const nodeid = randomUUID();
  const created = await request.post('/api/notifications', { headers, data: { lang: 'de', nodeid, type: 0, title: LONG_TITLE, description: 'Pumpe brummt, Druck am Spindelkopf schwankt.', equipmentnodeid: plant.machine.nodeid } });
  expect(created.status(), await created.text()).toBe(201);
  const files = [...plant.images.map((file, index) => ({ file, title: `Foto ${index + 1}` })), { file: plant.pdf, title: 'Prüfprotokoll Pumpe' }];
  for (const { file, title } of files) {
    const response = await request.post('/api/attachments', { headers, data: { lang: 'de', title, file: { fileid: file.fileid, fileversion: file.fileversion }, isattachmentof: nodeid } });
    expect(response.status(), await response.text()).toBe(201);
  }
  return nodeid;
}

const header = (page: Page) => page.getByTestId('notification-header');
const tabNames = (page: Page) => page.getByRole('tab').allInnerTexts();

test('header, attachments, tabs by type, back link by origin, remembered id; delete offline returns to the origin and stays gone', async ({ page, context, request, browser, baseURL }) => {
  test.setTimeout(420_000);
  const plant = await demoPlant(request);
  expect(plant.images).toHaveLength(4);
  const fault = await faultWithAttachments(request, plant);
  // A colleague's tablet that synced at the start (its first pull registers it with the server): a change it makes
  // later counts as made on it no earlier than that (the server's bound on a device's time).
  const colleague = await ApiClient.login(request, 'technician');
  const colleaguesTablet = randomUUID();
  await colleague.get('sync/pull?cursor=0&limit=1', { 'x-client-id': colleaguesTablet });
  const colleagueSyncedAt = Date.now();

  await page.setViewportSize(TABLET_LANDSCAPE);
  await loginAs(page, 'admin');
  const sync = new SyncStatus(page);
  await sync.waitUntilSynced();
  await takeOfflineReady(page);

  await test.step('a fault: header fields, --- for no error code, general safety hint, 3 previews then the rest, documents, tabs', async () => {
    await navigateInApp(page, `/notification-details?nodeid=${fault}`);
    await expect(header(page)).toBeVisible();
    const title = header(page).getByTestId('notification-title');
    await expect(title).toHaveText(`${[...LONG_TITLE].slice(0, 49).join('')}…`);
    await expect(title).toHaveAttribute('title', LONG_TITLE);
    // No hover on a tablet: a tap shows the rest.
    await page.getByTestId('notification-whole-title').click();
    await expect(title).toHaveText(LONG_TITLE);
    await expect(page.getByTestId('notification-whole-title')).toHaveCount(0);
    for (const text of [MACHINE, plant.machine.brand, plant.machine.model, plant.machine.place, 'Ungeplanter Stillstand (technischer Defekt)']) await expect(header(page)).toContainText(text);
    await expect(page.getByTestId('status-line')).toHaveText(/^Eröffnet am \d\d\.\d\d\.\d{4} \d\d:\d\d$/);
    await expect(page.getByTestId('has-measures')).toHaveCount(0);
    await expect(page.getByTestId('error-code')).toHaveText('---');
    await expect(page.getByTestId('safety-notice')).toContainText('Sicherheitshinweise');
    await expect(page.getByTestId('safety-notice')).toContainText('gegen Wiedereinschalten sichern');

    await expect(page.getByTestId('attachment')).toHaveCount(3);
    await expect(page.getByTestId('attachment-document')).toHaveCount(1);
    await expect(page.getByTestId('attachment-document')).toContainText('Prüfprotokoll Pumpe');
    await expect(page.getByRole('button', { name: '1 weitere anzeigen' })).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('img', { name: 'Foto 1' })).toBeVisible();
    await screenshots(page, 'fault-overview');
    await page.getByRole('button', { name: '1 weitere anzeigen' }).click();
    await expect(page.getByTestId('attachment')).toHaveCount(4);
    await expect(page.getByRole('button', { name: 'Weniger anzeigen' })).toHaveAttribute('aria-expanded', 'true');

    expect(await tabNames(page)).toEqual(['Übersicht', 'Aufwandserfassung', 'Maßnahmen']);
    await page.getByRole('tab', { name: 'Aufwandserfassung' }).click();
    await expect(page.getByTestId('effort-tab')).toHaveAttribute('data-notification', fault);
    await page.getByRole('tab', { name: 'Maßnahmen' }).click();
    await expect(page.getByTestId('measures-list')).toHaveAttribute('data-notification', fault);
  });

  await test.step('the change history shows what a write overwrote, with who and when', async () => {
    await (await ApiClient.login(request, 'technician')).send('PUT', `notifications/${fault}`, { lang: 'de', errorcode: 'E-4711' });
    await page.getByRole('tab', { name: 'Übersicht' }).click();
    // The history is the server's: read on demand, so the change shows without waiting for a pull.
    await page.getByTestId('notification-changes-load').click();
    const list = page.getByTestId('notification-changes-list');
    await expect(list.getByRole('listitem').first()).toContainText('Fehlercode: „leer“ → „E-4711“');
    await expect(list.getByRole('listitem').first()).toContainText(/^\d\d\.\d\d\.\d{4} \d\d:\d\d – /);

    // The colleague's tablet documented a change offline right after its sync and sends it a minute or more later:
    // both times show (the history names the device's time when the two are a minute or more apart).
    await page.waitForTimeout(Math.max(0, colleagueSyncedAt + 65_000 - Date.now()));
    const mutations = [{ mutationId: 1, method: 'PUT', path: `/api/notifications/${fault}`, body: { lang: 'de', errorcode: 'E-0815' }, madeAt: colleagueSyncedAt + 1_000 }];
    // why a new login: the e2e server's access tokens are short-lived; the tablet (its client id) is the same.
    await (await ApiClient.login(request, 'technician')).send('POST', 'sync/batch', { mutations }, { 'x-client-id': colleaguesTablet });
    // Leaving the tab forgets the loaded history (the tabs unmount), so coming back loads it again.
    await page.getByRole('tab', { name: 'Maßnahmen' }).click();
    await page.getByRole('tab', { name: 'Übersicht' }).click();
    await page.getByTestId('notification-changes-load').click();
    await expect(list.getByRole('listitem').first()).toContainText('Fehlercode: „E-4711“ → „E-0815“');
    await expect(list.getByRole('listitem').first()).toContainText(/^\d\d\.\d\d\.\d{4} \d\d:\d\d – .+ \(auf dem Gerät erfasst, übertragen \d\d\.\d\d\.\d{4} \d\d:\d\d\)/);
    await expect(list.getByRole('listitem').nth(1)).not.toContainText('auf dem Gerät erfasst');
    await screenshots(page, 'change-history-offline');
  });

  await test.step('opened without a nodeid it shows the remembered notification; after leaving elsewhere it is forgotten', async () => {
    await navigateInApp(page, '/notification-details');
    await expect(header(page)).toContainText(LONG_TITLE.slice(0, 30));
    await navigateInApp(page, '/dashboard');
    // Left means the dashboard is shown: a navigation on before it rendered never left the details screen.
    await expect(page.getByTestId('machine-list')).toBeVisible();
    await navigateInApp(page, '/notification-details');
    await expect(page.getByTestId('notification-not-found')).toBeVisible();
  });

  await test.step('opened by its address (no origin) the way back is the notifications dashboard', async () => {
    await navigateInApp(page, `/notification-details?nodeid=${plant.solved.nodeid}`);
    await expect(page.getByTestId('has-measures')).toHaveText('Maßnahme hinterlegt');
    await expect(page.getByTestId('error-code')).toHaveText(String(plant.solved.errorcode));
    await expect(page.getByRole('link', { name: 'Zu den Meldungen' })).toHaveAttribute('href', '/notifications-dashboard');
  });

  await test.step('a planned maintenance: its task safety notice, next appointment, report tab with no report yet, no measures tab', async () => {
    await navigateInApp(page, `/notification-details?nodeid=${plant.planned.nodeid}`);
    await expect(header(page)).toContainText('Geplante Wartung');
    await expect(page.getByTestId('next-appointment')).toHaveText(/^Nächster Termin: \d\d\.\d\d\.\d{4}$/);
    if (plant.planned.status !== 2 && plant.planned.dueuntil) await expect(page.getByTestId('due-date')).toHaveText(/^Fällig bis \d\d\.\d\d\.\d{4}$/);
    const notice = name(plant.planned.task.safetynotice);
    if (notice) await expect(page.getByTestId('safety-notice')).toContainText(notice.slice(0, 40));
    expect(await tabNames(page)).toEqual(['Übersicht', 'Bericht']);
    // The measures show in the overview instead (the list itself is another slice's; attached is what counts here).
    await expect(page.getByRole('heading', { name: 'Maßnahmen', level: 3 })).toBeVisible();
    await expect(page.getByTestId('measures-list')).toHaveAttribute('data-notification', plant.planned.nodeid);
    await screenshots(page, 'planned-overview');
    await page.getByRole('tab', { name: 'Bericht' }).click();
    await expect(page.getByTestId('report-section')).toContainText('Zu dieser Wartung gibt es noch keinen Bericht.');
  });

  // A second device that has the fault, before the delete.
  const other = await browser.newContext({ baseURL, viewport: TABLET_LANDSCAPE, locale: 'de-DE' });
  const otherPage = await other.newPage();
  await loginAs(otherPage, 'technician');
  await new SyncStatus(otherPage).waitUntilSynced();
  await navigateInApp(otherPage, `/notification-details?nodeid=${fault}`);
  await expect(header(otherPage)).toBeVisible();

  await test.step('from the machine overview the way back is that tab; the menu edits with the edit state', async () => {
    await navigateInApp(page, '/dashboard');
    await new MachineListPage(page).open(MACHINE);
    const machine = new MachinePage(page);
    await machine.notification(LONG_TITLE.slice(0, 30)).getByRole('link').click();
    await expect(header(page)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Zurück zur Maschine' })).toHaveAttribute('href', `/machine-overview?nodeid=${plant.machine.nodeid}&tab=0`);
    await page.getByRole('button', { name: 'Weitere Aktionen' }).click();
    await expect(page.getByRole('menuitem', { name: 'Meldung bearbeiten' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Meldung löschen' })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/menu-1280x800.png` });
    await page.keyboard.press('Escape');
  });

  await test.step('delete offline: a toast, a notice for 3 s, then back on the machine overview without it; gone after a reload', async () => {
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Weitere Aktionen' }).click();
    await page.getByRole('menuitem', { name: 'Meldung löschen' }).click();
    await expect(page.getByRole('alertdialog')).toContainText('endgültig löschen');
    await page.getByTestId('confirm-delete-notification').click();
    await expect(page.getByTestId('notification-deleted')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/deleted-1280x800.png` });
    await expect(page.getByText(/^Meldung „.*“ gelöscht\.$/)).toBeVisible();
    await expect(page).toHaveURL(/\/notification-details\?nodeid=/);
    await expect(page).toHaveURL(new RegExp(`/machine-overview\\?nodeid=${plant.machine.nodeid}&tab=0`), { timeout: 10_000 });
    const machine = new MachinePage(page);
    await expect(machine.openNotifications().first()).toBeVisible();
    await expect(machine.notification(LONG_TITLE.slice(0, 30))).toHaveCount(0);
    await sync.expectPending(1);
    await page.reload();
    await expect(machine.openNotifications().first()).toBeVisible();
    await expect(machine.notification(LONG_TITLE.slice(0, 30))).toHaveCount(0);
    await navigateInApp(page, `/notification-details?nodeid=${fault}`);
    await expect(page.getByTestId('notification-not-found')).toBeVisible();
    expect(await serverNotification(request, 'admin', fault)).not.toBeNull();
  });

  await test.step('online the delete reaches the server; the second device loses the notification with its next sync', async () => {
    await context.setOffline(false);
    await sync.waitUntilSynced();
    // The server knows it was deleted: 410, not 404.
    const session = await apiLogin(request, 'admin');
    expect((await request.get(`/api/notifications/${fault}?lang=de`, { headers: { authorization: `Bearer ${session.accesstoken}` } })).status()).toBe(410);
    await otherPage.reload();
    await expect(otherPage.getByTestId('notification-not-found')).toBeVisible({ timeout: 60_000 });
  });
  await other.close();
});

test('each profile sees only the controls it may use: the reader no menu and no status selector, the technician edit but no delete', async ({ page, browser, baseURL }) => {
  test.setTimeout(300_000);
  await page.setViewportSize(TABLET_LANDSCAPE);
  await loginAs(page, 'reader');
  await new SyncStatus(page).waitUntilSynced();
  await new MachineListPage(page).open(MACHINE);
  await new MachinePage(page).openNotifications().first().getByRole('link').click();
  await expect(header(page)).toBeVisible();
  await expect(page.getByTestId('status-badge')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Status' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Weitere Aktionen' })).toHaveCount(0);
  await screenshots(page, 'reader');
  // The edit form opened by its address: said at once that it cannot be saved (it looked like any form, and only the
  // greyed "Speichern" said so).
  const readerNodeid = new URL(page.url()).searchParams.get('nodeid');
  await page.goto(`/edit-notification?nodeid=${readerNodeid}`);
  await expect(page.getByTestId('notification-form-not-allowed')).toHaveText('Sie haben keine Berechtigung, Meldungen zu ändern.');
  await expect(page.getByTestId('notification-form-save')).toBeDisabled();
  await screenshots(page, 'reader-edit-form');

  const other = await browser.newContext({ baseURL, viewport: TABLET_LANDSCAPE, locale: 'de-DE' });
  const technician = await other.newPage();
  await loginAs(technician, 'technician');
  await new SyncStatus(technician).waitUntilSynced();
  await new MachineListPage(technician).open(MACHINE);
  await new MachinePage(technician).openNotifications().first().getByRole('link').click();
  await expect(header(technician)).toBeVisible();
  await technician.getByRole('button', { name: 'Weitere Aktionen' }).click();
  await expect(technician.getByRole('menuitem', { name: 'Meldung bearbeiten' })).toBeVisible();
  await expect(technician.getByRole('menuitem', { name: 'Meldung löschen' })).toHaveCount(0);
  const nodeid = new URL(technician.url()).searchParams.get('nodeid');
  await technician.getByRole('menuitem', { name: 'Meldung bearbeiten' }).click();
  await expect(technician).toHaveURL(new RegExp(`/edit-notification\\?nodeid=${nodeid}`));
  await expect(technician.getByTestId('notification-form-save')).toBeVisible();
  await expect(technician.getByTestId('notification-form-not-allowed')).toHaveCount(0);
  await expect.poll(() => technician.evaluate(() => (window.history.state as { usr?: { pageType?: string; from?: string } }).usr)).toMatchObject({ pageType: 'edit', from: 'notification' });
  // Saved, the details come back without the machine's navigation state: the back link still leads to the machine.
  const title = technician.getByTestId('notification-title-input');
  await title.fill(`${await title.inputValue()} (geprüft)`.slice(0, 100));
  await technician.getByTestId('notification-form-save').click();
  await expect(technician).toHaveURL(new RegExp(`/notification-details\\?nodeid=${nodeid}$`));
  await expect(technician.getByRole('link', { name: 'Zurück zur Maschine' })).toHaveAttribute('href', /\/machine-overview\?nodeid=[^&]+&tab=0$/);
  // A reload does not forget it (a technician's walkthrough: the link turned into "Zu den Meldungen").
  await technician.reload();
  await expect(technician.getByRole('link', { name: 'Zurück zur Maschine' })).toHaveAttribute('href', /\/machine-overview\?nodeid=[^&]+&tab=0$/);

  // The origin rides along in the navigation state through the forms and back (save, cancel; the solution form too):
  // a tab that no longer remembers the notification (another notification opened from a suggestion meanwhile, or
  // its session storage gone — simulated here) still comes back to details whose way back is the machine.
  const toMachine = technician.getByRole('link', { name: 'Zurück zur Maschine' });
  const forgetRemembered = async () => {
    await technician.evaluate(() => sessionStorage.clear());
    await technician.reload();
  };
  await technician.getByRole('button', { name: 'Weitere Aktionen' }).click();
  await technician.getByRole('menuitem', { name: 'Meldung bearbeiten' }).click();
  await expect(technician.getByTestId('notification-form-save')).toBeVisible();
  await forgetRemembered();
  await title.fill(`${(await title.inputValue()).replace(/ \(geprüft\)$/, '')} (nochmals geprüft)`.slice(0, 100));
  await technician.getByTestId('notification-form-save').click();
  await expect(technician).toHaveURL(new RegExp(`/notification-details\\?nodeid=${nodeid}$`));
  await expect(toMachine).toHaveAttribute('href', /\/machine-overview\?nodeid=[^&]+&tab=0$/);
  await expect(technician.getByRole('link', { name: 'Zu den Meldungen' })).toHaveCount(0);

  await technician.getByRole('button', { name: 'Weitere Aktionen' }).click();
  await technician.getByRole('menuitem', { name: 'Meldung bearbeiten' }).click();
  await expect(technician.getByTestId('notification-form-cancel')).toBeVisible();
  await forgetRemembered();
  await technician.getByTestId('notification-form-cancel').click();
  await expect(technician).toHaveURL(new RegExp(`/notification-details\\?nodeid=${nodeid}$`));
  await expect(toMachine).toHaveAttribute('href', /\/machine-overview\?nodeid=[^&]+&tab=0$/);

  // "Maßnahme hinzufügen" and back ("Abbrechen"): on the measures tab (a planned maintenance shows its measures on
  // the overview), the way back still the machine.
  const measuresTab = technician.getByRole('tab', { name: 'Maßnahmen' });
  // why wait for the tabs first: counted while the details still rendered, the tab was not there yet (CI run 47).
  await expect(technician.getByRole('tab', { name: 'Übersicht' })).toBeVisible();
  if ((await measuresTab.count()) > 0) await measuresTab.click();
  await technician.getByTestId('solution-add').click();
  await expect(technician).toHaveURL(new RegExp(`/create-workflow-step\\?notificationnodeid=${nodeid}`));
  await forgetRemembered();
  await technician.getByRole('link', { name: 'Abbrechen' }).click();
  await expect(technician).toHaveURL(new RegExp(`/notification-details\\?nodeid=${nodeid}&tab=measures$`));
  await expect(toMachine).toHaveAttribute('href', /\/machine-overview\?nodeid=[^&]+&tab=0$/);
  await other.close();
});

test('a Maßnahme typed offline on a notification an admin deletes meanwhile: the details say it was deleted on the server and where the Maßnahme waits', async ({ page, context, request }) => {
  test.setTimeout(300_000);
  const plant = await demoPlant(request);
  const admin = await ApiClient.login(request, 'admin');
  const doomed = randomUUID();
  const doomedTitle = `Spänefördererband klemmt ${Date.now()}`;
  await admin.send('POST', 'notifications', { lang: 'de', nodeid: doomed, type: 0, title: doomedTitle, equipmentnodeid: plant.machine.nodeid });

  await page.setViewportSize(TABLET_LANDSCAPE);
  await loginAs(page, 'technician');
  const sync = new SyncStatus(page);
  await sync.waitUntilSynced();
  await takeOfflineReady(page);
  await navigateInApp(page, `/notification-details?nodeid=${doomed}`);
  await expect(header(page)).toContainText(doomedTitle);

  await context.setOffline(true);
  await page.getByRole('tab', { name: 'Maßnahmen' }).click();
  await page.getByTestId('solution-add').click();
  const measure = `Band gereinigt und nachgespannt ${Date.now()}`;
  await page.getByTestId('solution-title-input').fill(measure);
  await page.getByTestId('solution-description-input').fill('Späne aus der Umlenkrolle entfernt.');
  await page.getByTestId('solution-form-save').click();
  await expect(page).toHaveURL(new RegExp(`/notification-details\\?nodeid=${doomed}&tab=measures$`));
  await sync.expectPending(1);

  // A fresh admin session: the e2e server's access tokens live only seconds.
  await (await ApiClient.login(request, 'admin')).send('DELETE', `notifications/${doomed}`, {});
  await context.setOffline(false);
  await expect(sync.button()).toHaveAttribute('data-refused', '1', { timeout: 60_000 });
  // The screen, still open, says what happened and where the typed Maßnahme is — not only "not found".
  const gone = page.getByTestId('notification-not-found');
  await expect(gone.getByRole('heading')).toHaveText('Meldung auf dem Server gelöscht', { timeout: 30_000 });
  await expect(gone).toContainText('auf dem Server gelöscht');
  await expect(gone).toContainText('Ihre Eingaben sind nicht verloren');
  await expect(gone).toContainText('„abgelehnt“ in der Synchronisierung');
  await expect(gone).not.toContainText('gibt es nicht oder sie ist auf diesem Gerät nicht vorhanden');
  await screenshots(page, 'deleted-on-server');

  // There it is, with what was typed.
  await sync.button().click();
  const panel = page.getByRole('dialog', { name: 'Synchronisierung' });
  await expect(panel.getByTestId('refused-content').filter({ hasText: measure })).toHaveCount(1);
});
