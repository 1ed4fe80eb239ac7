/**
 * The notification form end to end (issue #13, spec part 1 §2.2, §3, §4.3, §5, §9): offline on BAZ 01 a
 * technician opens the full form from the machine overview, types a title the machine's type already has a FAQ for,
 * opens the suggestion, comes back to the draft as it was (photo included), saves, finds the notification after a
 * reload offline, edits its title; online it reaches the server and another device exactly once.
 *
 * BAZ 01 Fräszentrum is a DMU 65 monoBLOCK, whose type has the seeded FAQ TYPE_FAQ.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { loginAs, navigateInApp, shotsDir, TABLET_LANDSCAPE, tabletScreenshots } from './support/pages';
import { ApiClient, MachineListPage, MachinePage, SyncStatus, solidPng } from './support/machine-pages';
import { takeOfflineReady, waitForEmptyOutbox } from './support/offline';

const SHOTS = shotsDir('notform');
const MACHINE = 'BAZ 01 Fräszentrum';
const TYPE_FAQ = 'Maximales Werkstückgewicht auf dem Tisch?';

const screenshots = (page: Page, file: string) => tabletScreenshots(page, SHOTS, file, { settleMs: 400 });

/** Serious or critical axe findings (WCAG 2.1 AA), after animations settle (see accessibility.spec.ts). */
async function axeFindings(page: Page): Promise<string[]> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity));
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((node) => node.target.join(' ')).join(' | ')}`);
}

const suggestion = (page: Page, text: string) => page.getByTestId('notification-suggestion').filter({ hasText: text });

test('offline: create with a photo from the machine, open a suggestion and come back to the draft, save, reload, edit; online it syncs once', async ({ page, context, browser, request }) => {
  test.setTimeout(360_000);
  await page.setViewportSize(TABLET_LANDSCAPE);
  await loginAs(page, 'technician');
  await takeOfflineReady(page);
  await new SyncStatus(page).waitUntilSynced();

  await context.setOffline(true);
  await new MachineListPage(page).open(MACHINE);
  const machineId = new URL(page.url()).searchParams.get('nodeid')!;
  // The quick report stays; the full form sits next to it.
  await expect(new MachinePage(page).newNotification()).toBeVisible();
  await screenshots(page, 'machine-overview-entry');
  await page.getByTestId('machine-notification-form').click();
  await expect(page).toHaveURL(new RegExp(`/create-notification\\?equipmentnodeid=${machineId}$`));
  await expect(page.getByTestId('notification-form').getByRole('heading', { name: 'Neue Meldung', level: 1 })).toBeVisible();
  await expect(page.getByTestId('equipment-picker-chosen')).toContainText(MACHINE);
  // Date and time default to now, the time on the 5-minute step; 24 h whatever the locale.
  await expect(page.getByTestId('notification-date-input')).toHaveValue(/^\d{2}\.\d{2}\.\d{4}$/);
  await expect(page.getByTestId('notification-time-input')).toHaveValue(/^([01]\d|2[0-3]):[0-5][05]$/);

  // Title, type and machine are required: saving an empty form shows it and queues nothing.
  await page.getByTestId('notification-form-save').click();
  await expect(page.getByTestId('notification-form')).toContainText('Pflichtfeld');
  await expect(page).toHaveURL(/\/create-notification/);

  const stamp = Date.now();
  const title = `Werkstückgewicht Tisch überschritten ${stamp}`;
  await page.getByTestId('notification-type-select').selectOption('0');
  await page.getByTestId('notification-title-input').fill(title);
  await page.getByTestId('notification-errorcode-input').fill('E-77');
  await page.getByTestId('notification-description-input').fill('Palette mit 700 kg aufgespannt, Tisch meldet Überlast.');
  // A due date before the notification's date is refused.
  await page.getByTestId('notification-due-input').fill('01.01.2000');
  await expect(page.getByTestId('notification-form')).toContainText('Darf nicht vor dem Datum der Meldung liegen');
  await page.getByTestId('notification-due-input').fill('');
  await page.getByTestId('notification-file-input').setInputFiles([
    { name: 'Ueberlast.png', mimeType: 'image/png', buffer: solidPng(64, [200, 60, 40]) },
    { name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
  ]);
  await expect(page.getByTestId('notification-chosen-file')).toHaveCount(1);
  await expect(page.getByRole('img', { name: 'Vorschau von Ueberlast.png' })).toBeVisible();
  await expect(page.getByTestId('notification-rejected-files')).toContainText('setup.exe');

  // What the machine already knows, from the mirror, offline.
  await expect(suggestion(page, TYPE_FAQ)).toBeVisible();
  await expect(suggestion(page, TYPE_FAQ)).toContainText('FAQ des Typs');
  await screenshots(page, 'form-with-suggestion');
  expect(await axeFindings(page)).toEqual([]);

  await suggestion(page, TYPE_FAQ).click();
  await expect(page).toHaveURL(/\/equipmenttype-overview\?nodeid=.+&tab=2/);
  await expect(page.getByText(TYPE_FAQ).first()).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/create-notification/);
  await expect(page.getByTestId('notification-title-input')).toHaveValue(title);
  await expect(page.getByTestId('notification-errorcode-input')).toHaveValue('E-77');
  await expect(page.getByTestId('notification-type-select')).toHaveValue('0');
  await expect(page.getByTestId('notification-chosen-file')).toHaveCount(1);

  await page.getByTestId('notification-form-save').click();
  await expect(page).toHaveURL(/\/notification-details\?nodeid=/);
  const notificationId = new URL(page.url()).searchParams.get('nodeid')!;
  await expect(page.getByTestId('notification-header')).toContainText(title.slice(0, 40));
  // Its way back is the machine it was reported from (the overview tab lists it), not the notifications dashboard.
  const backToMachine = page.getByRole('link', { name: 'Zurück zur Maschine' });
  await expect(backToMachine).toHaveAttribute('href', `/machine-overview?nodeid=${machineId}&tab=0`);

  // A reload without network: the notification is still there (mirror + outbox).
  await page.reload();
  await expect(page.getByTestId('notification-header')).toContainText(title.slice(0, 40), { timeout: 60_000 });

  // Edit it, as the details screen links to it: /edit-notification?nodeid=… (in-app, still offline).
  const edited = `Tisch überlastet ${stamp}`;
  await navigateInApp(page, `/edit-notification?nodeid=${notificationId}`);
  await expect(page.getByTestId('notification-form').getByRole('heading', { name: 'Meldung bearbeiten', level: 1 })).toBeVisible();
  await expect(page.getByTestId('notification-title-input')).toHaveValue(title);
  await expect(page.getByTestId('notification-date-input')).toBeDisabled();
  await expect(page.getByTestId('notification-existing-files')).toContainText('Ueberlast');
  await page.getByTestId('notification-title-input').fill(edited);
  await screenshots(page, 'form-edit');
  await page.getByTestId('notification-form-save').click();
  await expect(page).toHaveURL(new RegExp(`/notification-details\\?nodeid=${notificationId}$`));
  await expect(page.getByTestId('notification-header')).toContainText(edited);
  await expect(backToMachine).toHaveAttribute('href', `/machine-overview?nodeid=${machineId}&tab=0`);

  // Online: everything is sent once; the server and another device see one notification with its photo.
  await context.setOffline(false);
  await waitForEmptyOutbox(page, 90_000);
  const api = await ApiClient.login(request, 'admin');
  const rows = await api.pullAll();
  const notifications = (rows.get('notifications') ?? []).filter((row) => typeof row.title === 'string' && String(row.title).endsWith(String(stamp)));
  expect(notifications).toHaveLength(1);
  expect(notifications[0]).toMatchObject({ nodeid: notificationId, title: edited, errorcode: 'E-77', type: 0, equipmentnodeid: machineId });
  expect((rows.get('attachments') ?? []).filter((row) => row.isattachmentof === notificationId)).toHaveLength(1);

  const other = await browser.newContext({ viewport: TABLET_LANDSCAPE });
  const otherPage = await other.newPage();
  await loginAs(otherPage, 'admin');
  await new SyncStatus(otherPage).waitUntilSynced(150_000);
  await otherPage.goto(`/machine-overview?nodeid=${machineId}`);
  await expect(new MachinePage(otherPage).notification(edited)).toHaveCount(1, { timeout: 60_000 });
  await other.close();
});

// A technician's walkthrough: text typed into the form was gone after a reload, a tab the tablet's browser killed,
// or a tap on the menu. It is kept on the device per user and form, taken back with a notice, and gone once saved.
test('offline: what was typed survives a reload and leaving the form; discard and save clear it', async ({ page, context }) => {
  test.setTimeout(240_000);
  await page.setViewportSize(TABLET_LANDSCAPE);
  await loginAs(page, 'technician');
  await takeOfflineReady(page);
  await new SyncStatus(page).waitUntilSynced();

  await context.setOffline(true);
  await new MachineListPage(page).open(MACHINE);
  const machineId = new URL(page.url()).searchParams.get('nodeid')!;
  await page.getByTestId('machine-notification-form').click();
  const form = page.getByTestId('notification-form');
  await expect(form.getByRole('heading', { name: 'Neue Meldung', level: 1 })).toBeVisible();
  // A form opened and left untouched leaves nothing behind.
  await expect(page.getByTestId('notification-draft-restored')).toHaveCount(0);

  const title = `Spindel läuft unrund ${Date.now()}`;
  await page.getByTestId('notification-type-select').selectOption('0');
  await page.getByTestId('notification-title-input').fill(title);
  await form.getByRole('textbox', { name: 'Beschreibung' }).fill('Geräusch ab 8000 U/min, Späne ungleichmäßig.');

  await page.reload();
  await expect(page.getByTestId('notification-draft-restored')).toContainText('Nicht gespeicherte Eingaben vom');
  await expect(page.getByTestId('notification-title-input')).toHaveValue(title);
  await expect(form.getByRole('textbox', { name: 'Beschreibung' })).toHaveValue('Geräusch ab 8000 U/min, Späne ungleichmäßig.');
  await expect(page.getByTestId('notification-type-select')).toHaveValue('0');
  await screenshots(page, 'draft-restored');

  // Away through the menu and back: the same.
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { name: /^Hallo / })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/create-notification\\?equipmentnodeid=${machineId}$`));
  await expect(page.getByTestId('notification-title-input')).toHaveValue(title);

  // Discarded: the fresh form, and nothing comes back after another reload.
  await page.getByTestId('notification-draft-discard').click();
  await expect(page.getByTestId('notification-title-input')).toHaveValue('');
  await expect(page.getByTestId('notification-draft-restored')).toHaveCount(0);
  await page.reload();
  await expect(form.getByRole('heading', { name: 'Neue Meldung', level: 1 })).toBeVisible();
  await expect(page.getByTestId('notification-title-input')).toHaveValue('');

  // Typed again and saved: the next form starts empty.
  await page.getByTestId('notification-type-select').selectOption('0');
  await page.getByTestId('notification-title-input').fill(title);
  await page.getByTestId('notification-form-save').click();
  await expect(page).toHaveURL(/\/notification-details\?nodeid=/);
  // The details on screen: until then the router may still show the form (its route renders in a transition).
  await expect(page.getByTestId('notification-header')).toContainText(title);
  await navigateInApp(page, `/create-notification?equipmentnodeid=${machineId}`);
  await expect(page.getByTestId('notification-title-input')).toHaveValue('');
  await expect(page.getByTestId('notification-draft-restored')).toHaveCount(0);
  await context.setOffline(false);
});
