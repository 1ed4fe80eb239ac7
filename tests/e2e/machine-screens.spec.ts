/** The machine and notification screens beyond the offline loop: unknown ids, the machine photo, what a reader may not do. */
import { expect, expectNoCspViolations, test, watchCsp } from './support/test';
import { EquipmentFormPage, loginAs, navigateInApp } from './support/pages';
import { ApiClient, MachineListPage, MachinePage, NotificationPage, SyncStatus } from './support/machine-pages';
import type { Page } from '@playwright/test';

/** Without `equipment` edit/delete rights the options menu offers only what every user may: keeping files offline. */
async function expectOnlyOfflineEntry(page: Page) {
  await page.getByTestId('machine-options').click();
  await expect(page.getByRole('menuitem', { name: 'Offline verfügbar machen' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: /Bearbeiten|Löschen/ })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menuitem')).toHaveCount(0);
}

test('an unknown machine and an unknown notification say so', async ({ page }) => {
  test.setTimeout(240_000);
  await loginAs(page, 'technician');
  await new SyncStatus(page).waitUntilSynced();
  await page.goto('/machine-overview?nodeid=00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { name: 'Maschine nicht gefunden' })).toBeVisible();
  await page.getByRole('link', { name: 'Zurück zum Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/notification-details?nodeid=00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { name: 'Meldung nicht gefunden' })).toBeVisible();
});

test('a reader sees machine with its photo (offline too, once seen), notifications and counters but no control to change them', async ({ page, context }) => {
  test.setTimeout(240_000);
  await loginAs(page, 'reader');
  await new SyncStatus(page).waitUntilSynced();
  await new MachineListPage(page).open('BAZ 02 Fräszentrum');
  const machine = new MachinePage(page);
  await expect(machine.header()).toContainText('STR-BAZ-02');
  const photo = page.getByRole('img', { name: 'Foto von BAZ 02 Fräszentrum' });
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(machine.openNotifications().first()).toBeVisible();
  await expect(machine.newNotification()).toHaveCount(0);
  await machine.openNotifications().first().getByRole('link').click();
  await expect(page.getByTestId('notification-header')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Status' })).toHaveCount(0);
  await page.goBack();
  await machine.countersTab().click();
  await expect(page).toHaveURL(/tab=5/);
  await expect(machine.counterRow('Betriebsstunden')).toBeVisible();
  await expect(page.getByRole('button', { name: /Zählerstand erfassen/ })).toHaveCount(0);
  // A reader may neither edit nor delete the machine: the menu has only "Offline verfügbar machen".
  await expectOnlyOfflineEntry(page);

  // A photo once seen stays on the device: offline the machine screen shows it again (no signed URL needed).
  const machineUrl = new URL(page.url());
  await context.setOffline(true);
  await navigateInApp(page, '/dashboard');
  await navigateInApp(page, `${machineUrl.pathname}${machineUrl.search}`);
  await expect(machine.header()).toContainText('STR-BAZ-02');
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await context.setOffline(false);
});

test('the options menu: a technician (equipment read-only) has only the offline entry; an admin edits, and deletes after confirming', async ({ page, browser }, testInfo) => {
  test.setTimeout(240_000);
  await loginAs(page, 'technician');
  await new SyncStatus(page).waitUntilSynced();
  await new MachineListPage(page).open('BAZ 02 Fräszentrum');
  await expect(new MachinePage(page).header()).toContainText('STR-BAZ-02');
  await expectOnlyOfflineEntry(page);

  const admin = await browser.newPage();
  const adminCsp = await watchCsp(admin.context());
  await loginAs(admin, 'admin');
  await new SyncStatus(admin).waitUntilSynced();
  const list = new MachineListPage(admin);
  await list.open('BAZ 02 Fräszentrum');
  await admin.getByTestId('machine-options').click();
  await expect(admin.getByRole('menuitem', { name: 'Löschen' })).toBeVisible();
  await admin.screenshot({ path: testInfo.outputPath('machine-options.png') });
  await admin.getByRole('menuitem', { name: 'Bearbeiten' }).click();
  await expect(admin).toHaveURL(/\/edit-machine\?nodeid=/);
  await expect(new EquipmentFormPage(admin).field('name')).toHaveValue('BAZ 02 Fräszentrum');

  await admin.goto('/dashboard');
  await list.open('HYD 02 Prüfstand');
  await admin.getByTestId('machine-options').click();
  await admin.getByRole('menuitem', { name: 'Löschen' }).click();
  await expect(admin.getByRole('alertdialog')).toContainText('„HYD 02 Prüfstand“ wird mit seinen Meldungen, Zählern und Wartungsaufgaben gelöscht.');
  await admin.getByTestId('confirm-delete').click();
  await expect(admin).toHaveURL(/\/dashboard$/);
  await new SyncStatus(admin).waitUntilSynced();
  await list.search().fill('HYD 02');
  await expect(admin.getByText('Keine Maschine passt zu „HYD 02“.')).toBeVisible();
  await admin.close();
  expectNoCspViolations(adminCsp);
});

test('closing a notification in progress shows its processing time and takes it off the open list', async ({ page, request }) => {
  test.setTimeout(240_000);
  await loginAs(page, 'technician');
  const sync = new SyncStatus(page);
  await sync.waitUntilSynced();
  await new MachineListPage(page).open('BAZ 02 Fräszentrum');
  const machine = new MachinePage(page);
  // The demo plant's open notifications depend on the time of day (its history never lies in the future, so
  // some close later in the day): take the first open one and start it if it is not in progress yet.
  const first = machine.openNotifications().first();
  await expect(first).toBeVisible();
  const title = await first.locator('p').last().innerText();
  await first.getByRole('link').click();
  const notificationId = new URL(page.url()).searchParams.get('nodeid')!;
  await expect(page.getByTestId('processing-time')).toHaveCount(0);
  const notification = new NotificationPage(page);
  if ((await notification.status().inputValue()) === '0') await notification.setStatus('In Bearbeitung');
  await notification.setStatus('Erledigt');
  await expect(page.getByTestId('status-line')).toHaveText(/^Erledigt am \d\d\.\d\d\.\d{4} \d\d:\d\d$/);
  await expect(page.getByTestId('processing-time')).toHaveText(/^Bearbeitungszeit: (weniger als 1 Minute|\d+ (Minuten?|Stunden?|Tage?))$/);
  await sync.waitUntilSynced();
  const admin = await ApiClient.login(request, 'admin');
  const stored = await admin.get<{ status: number; closed: number; progressstarted: number }>(`notifications/${notificationId}?lang=de`);
  expect(stored.status).toBe(2);
  expect(stored.closed).toBeGreaterThan(stored.progressstarted);
  await page.getByRole('link', { name: 'Zurück zur Maschine' }).click();
  await expect(machine.openNotifications().first()).toBeVisible();
  await expect(machine.notification(title)).toHaveCount(0);
});

// A technician's walkthrough: a stray tap beside the quick report dialog, or Escape, threw the typed title away.
test('the quick report keeps what was typed when closed without saving, also over a reload; cancel and save clear it', async ({ page }) => {
  test.setTimeout(180_000);
  await loginAs(page, 'technician');
  await new SyncStatus(page).waitUntilSynced();
  await new MachineListPage(page).open('BAZ 03 5-Achs-Zentrum');
  const machine = new MachinePage(page);
  const title = `Kühlmittel schäumt ${Date.now()}`;
  await machine.openFaultDialog();
  await expect(page.getByTestId('quick-fault-draft-restored')).toHaveCount(0);
  await machine.fillFaultReport({ title, description: 'Schaum am Späneförderer.' });
  await page.keyboard.press('Escape');
  await expect(machine.dialog()).toBeHidden();

  await machine.openFaultDialog();
  await expect(page.getByTestId('quick-fault-draft-restored')).toBeVisible();
  await expect(machine.dialog().getByRole('textbox', { name: 'Titel' })).toHaveValue(title);
  await page.reload();
  await machine.openFaultDialog();
  await expect(machine.dialog().getByRole('textbox', { name: 'Beschreibung' })).toHaveValue('Schaum am Späneförderer.');

  // Cancelled: gone.
  await machine.dialog().getByRole('button', { name: 'Abbrechen' }).click();
  await machine.openFaultDialog();
  await expect(machine.dialog().getByRole('textbox', { name: 'Titel' })).toHaveValue('');

  // A chosen photo is not kept with the text: while it is there, neither Escape nor a tap beside the dialog closes it.
  const photo = { name: 'schaum.png', mimeType: 'image/png', buffer: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64') };
  await machine.fillFaultReport({ title, photo });
  await page.keyboard.press('Escape');
  await page.mouse.click(5, 400);
  await expect(machine.dialog().getByRole('img', { name: 'Vorschau des Fotos' })).toBeVisible();

  // Saved: the next report starts empty.
  await machine.saveFaultReport();
  await machine.openFaultDialog();
  await expect(machine.dialog().getByRole('textbox', { name: 'Titel' })).toHaveValue('');
  await expect(page.getByTestId('quick-fault-draft-restored')).toHaveCount(0);
});
