/**
 * The acceptance test of issue #3 as a technician on a tablet: after the first sync the network goes away; the
 * technician opens a machine from the dashboard list, reports a fault with a photo, starts working on it, records
 * a counter reading, reloads the app (still offline), comes back online — and the server has everything exactly
 * once, checked through the API as another user.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { AppShell, loginAs, shotsDir, smallTouchTargets, tabletScreenshots, TABLET_LANDSCAPE, TABLET_PORTRAIT } from './support/pages';
import { ApiClient, MachineListPage, MachinePage, NotificationPage, solidPng, SyncStatus } from './support/machine-pages';

const MACHINE = 'BAZ 02 Fräszentrum';
const COUNTER = 'Betriebsstunden';

/** Logs in and waits until the service worker controls the page and the first sync filled the mirror. */
async function loginReadyForOffline(page: Page) {
  await loginAs(page, 'technician');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // The first visit may have been served before the worker took control; one reload puts the page under it.
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  await new SyncStatus(page).waitUntilSynced();
}

const idFrom = (url: string) => new URL(url).searchParams.get('nodeid')!;

test('offline: report a fault with a photo, start it, record a reading, reload — all of it reaches the server exactly once', async ({ page, context, request }) => {
  test.setTimeout(300_000);
  await page.setViewportSize(TABLET_LANDSCAPE);
  await loginReadyForOffline(page);
  const sync = new SyncStatus(page);
  const title = `Hydrauliköl tritt am Spannzylinder aus ${Date.now()}`;
  const photo = solidPng(64, [200, 40, 40]);

  await context.setOffline(true);
  await new MachineListPage(page).open(MACHINE);
  const machineId = idFrom(page.url());
  const machine = new MachinePage(page);
  // The machine photo's bytes are not on the device: offline the header says so instead of showing nothing.
  await expect(page.getByRole('img', { name: `Foto von ${MACHINE}: Foto nur online verfügbar` })).toBeVisible();

  await machine.reportFault({ type: 'Störung ohne Stillstand', title, description: 'Leckage an der Verschraubung, Auffangwanne steht drunter.', photo: { name: 'leck.png', mimeType: 'image/png', buffer: photo } });
  const row = machine.notification(title);
  await expect(row.getByText('Störung ohne Stillstand')).toBeVisible();
  await expect(row.getByText('Offen', { exact: true })).toBeVisible();
  await expect(row.getByTestId('not-synced')).toBeVisible();

  // The notification header, from the mirror: the photo shows from the bytes on the device.
  await row.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(/\/notification-details\?nodeid=/);
  const notificationId = idFrom(page.url());
  const notification = new NotificationPage(page);
  await expect(notification.header().getByRole('heading', { name: title.slice(0, 40) })).toBeVisible();
  await expect(notification.header().getByText(MACHINE)).toBeVisible();
  await expect(page.getByRole('img', { name: title })).toBeVisible();
  await expect(page.getByTestId('status-line')).toHaveText(/^Eröffnet am \d\d\.\d\d\.\d{4} \d\d:\d\d$/);
  await notification.setStatus('In Bearbeitung');
  await expect(page.getByTestId('status-line')).toHaveText(/^In Bearbeitung seit \d\d\.\d\d\.\d{4} \d\d:\d\d$/);

  await page.getByRole('link', { name: 'Zurück zur Maschine' }).click();
  await expect(machine.notification(title).getByText('In Bearbeitung', { exact: true })).toBeVisible();

  // The reading input keeps digits, one comma and one period only.
  const input = await machine.recordReading(COUNTER, '98 765,4 h');
  await expect(input).toHaveValue('98765,4');
  await machine.dialog().getByRole('button', { name: 'Speichern' }).click();
  // Far more hours than have passed since the demo's last reading: the dialog asks first (issue #12); confirmed.
  await expect(machine.dialog().getByTestId('counter-reading-warning')).toBeVisible();
  await machine.dialog().getByTestId('counter-reading-confirm').click();
  await expect(machine.dialog()).toBeHidden();
  await expect(machine.counterRow(COUNTER)).toContainText('98.765,4 h');
  await expect(machine.counterRow(COUNTER).getByTestId('not-synced')).toBeVisible();
  // Five requests (notification, file registration, attachment, status, reading) but three things the user did.
  await sync.expectPending(3);

  // Reload with no network: the service worker serves the app, the mirror and the outbox still have everything.
  await page.reload();
  await expect(page).toHaveURL(/tab=5/);
  await expect(machine.counterRow(COUNTER)).toContainText('98.765,4 h');
  await machine.overviewTab().click();
  await expect(machine.notification(title).getByText('In Bearbeitung', { exact: true })).toBeVisible();
  await sync.expectPending(3);
  await sync.expectPanelCalmlyOffline(3);

  // Logging out now would lock the tablet until the network is back: the dialog says so, and offers no sync.
  await new AppShell(page).userMenu().click();
  await page.getByRole('menuitem', { name: 'Abmelden' }).click();
  const warning = page.getByRole('alertdialog');
  await expect(warning.getByRole('heading', { name: 'Nicht gesendete Änderungen' })).toBeVisible();
  await expect(warning.getByText(/^3 Änderungen sind noch nicht beim Server angekommen\..*gesendet, sobald Sie sich hier wieder anmelden\.$/)).toBeVisible();
  await expect(warning.getByTestId('logout-offline')).toContainText('Anmeldung erst wieder mit Netzwerkverbindung möglich');
  await expect(warning.getByRole('button', { name: 'Jetzt synchronisieren' })).toHaveCount(0);
  await warning.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(warning).toBeHidden();

  await context.setOffline(false);
  await sync.waitUntilSynced();
  await expect(machine.notification(title).getByTestId('not-synced')).toHaveCount(0);

  // What the server has, seen by the admin through the API.
  const admin = await ApiClient.login(request, 'admin');
  const stored = await admin.get<{ title: string; status: number; progressstarted: number; equipmentnodeid: string; counts: { hasattachment: number } }>(`notifications/${notificationId}?lang=de`);
  expect(stored).toMatchObject({ title, status: 1, equipmentnodeid: machineId, counts: { hasattachment: 1 } });
  expect(stored.progressstarted).toBeGreaterThan(0);
  const feed = await admin.pullAll();
  expect((feed.get('notifications') ?? []).filter((n) => n.title === title)).toHaveLength(1);
  const attachments = (feed.get('attachments') ?? []).filter((a) => a.isattachmentof === notificationId);
  expect(attachments).toHaveLength(1);
  const attachment = await admin.get<{ url: string; mimetype: string }>(`attachments/${String(attachments[0]!.nodeid)}`);
  const download = await admin.bytes(attachment.url);
  expect(download.status).toBe(200);
  expect(download.body.equals(photo)).toBe(true);
  const counters = await admin.get<{ name: string; equipmentnodeid: string; values: { reading: number }[] }[]>(`counters?lang=de&equipmentnodeid=${machineId}`);
  const hours = counters.find((c) => c.name === COUNTER);
  expect(hours?.values.filter((v) => v.reading === 98765.4)).toHaveLength(1);

  // Synced: the device freed the photo's bytes, the thumbnail now comes from the server.
  await page.goto(`/notification-details?nodeid=${notificationId}`);
  await expect(page.getByRole('img', { name: title })).toBeVisible();
  await expect(page.getByRole('img', { name: title })).toHaveJSProperty('naturalWidth', 64);
});

for (const [name, viewport] of [['landscape', TABLET_LANDSCAPE], ['portrait', TABLET_PORTRAIT]] as const) {
  test(`screenshots and touch targets of the machine list, machine, fault dialog, notification and counters, tablet ${name}`, async ({ page }, testInfo) => {
    test.setTimeout(240_000);
    await page.setViewportSize(viewport);
    await loginAs(page, 'technician');
    await new SyncStatus(page).waitUntilSynced();
    // Each screen is photographed and checked for touch targets under 44 px.
    const shot = async (file: string) => {
      await page.screenshot({ path: testInfo.outputPath(`${file}-${name}.png`), fullPage: file !== 'dashboard-list' });
      expect(await smallTouchTargets(page), file).toEqual([]);
    };
    await new AppShell(page).expectDashboard('technician');
    const list = new MachineListPage(page);
    await expect(list.machineLink(MACHINE).first()).toBeVisible();
    await shot('dashboard-list');
    await list.open(MACHINE);
    const machine = new MachinePage(page);
    await shot('machine-overview');
    await machine.openFaultDialog();
    await machine.fillFaultReport({ title: `Späne im Arbeitsraum (${name})`, description: 'Späneförderer blockiert.', photo: { name: 'spaene.png', mimeType: 'image/png', buffer: solidPng(48, [30, 90, 160]) } });
    await shot('fault-dialog');
    await machine.saveFaultReport();
    await machine.notification(`Späne im Arbeitsraum (${name})`).getByRole('link').click();
    await expect(new NotificationPage(page).header()).toBeVisible();
    const thumbnail = page.getByRole('img', { name: `Späne im Arbeitsraum (${name})` });
    await expect(thumbnail).toBeVisible();
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(48);
    await shot('notification-header');
    await page.goBack();
    await machine.countersTab().click();
    await expect(machine.counterRow(COUNTER)).toBeVisible();
    await shot('counters-tab');
  });
}

test('"Synchronisiert" means the tablet can start the app offline: on a slow network the app bar first says it prepares offline use', async ({ page, context }) => {
  test.setTimeout(300_000);
  // Weak Wi-Fi for the service worker's own downloads (the app's files), not for the API: the data is synced long
  // before the app is stored. Before the fix the app bar said "Synchronisiert" here and an offline reload showed
  // the browser's "no internet" page.
  await context.route('**/*', async (route) => {
    if (route.request().serviceWorker() && !route.request().url().includes('/api/')) await new Promise((resolve) => setTimeout(resolve, 150));
    await route.continue();
  });
  await page.setViewportSize(TABLET_PORTRAIT);
  await loginAs(page, 'technician');
  const sync = new SyncStatus(page);
  await expect(sync.button().getByTestId('sync-headline')).toHaveText('Offline-Nutzung wird vorbereitet …', { timeout: 60_000 });
  await expect(sync.button()).toHaveAttribute('data-offline-ready', 'preparing');
  await sync.button().click();
  const panel = page.getByRole('dialog', { name: 'Synchronisierung' });
  await expect(panel.getByTestId('sync-preparing-offline')).toContainText('Bleiben Sie mit dem Netzwerk verbunden, bis „Synchronisiert“ erscheint');
  await tabletScreenshots(page, shotsDir('offline'), 'sync-panel-preparing-offline', { fullPage: false });
  await panel.getByRole('button', { name: 'Schließen' }).click();

  await sync.waitUntilSynced(240_000);
  await expect(sync.button()).toHaveAttribute('data-offline-ready', 'ready');
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('link', { name: MACHINE })).toBeVisible();
  await expect(sync.button().getByTestId('sync-headline')).toHaveText('Synchronisiert');
});
