/**
 * Files on the device (issue #12): a technician opens a fault's photo online, and it still shows offline after a
 * reload; "Offline verfügbar machen" on a machine downloads all of its documents and photos, and offline its photo,
 * its notifications' photos (never opened before) and its documents' bytes are there. The sync panel shows the
 * storage used. Screenshots of the menu's result and the storage display in both orientations.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { loginAs, shotsDir, TABLET_LANDSCAPE, TABLET_PORTRAIT } from './support/pages';
import { pdfBytes } from '../factories/files';
import { ApiClient, SyncStatus } from './support/machine-pages';

const SHOTS = shotsDir('files');
type Row = Record<string, unknown>;

async function loginReadyForOffline(page: Page) {
  await loginAs(page, 'technician');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  await new SyncStatus(page).waitUntilSynced();
}

/** The server's view, as the technician's own pull: machines whose notifications have photos, and a machine's files. */
function demoFiles(rows: Map<string, Row[]>) {
  const of = (kind: string) => rows.get(kind) ?? [];
  const files = new Map(of('files').map((file) => [String(file.nodeid), file]));
  const isImage = (attachment: Row) => String(files.get(String(attachment.filenodeid))?.mimetype ?? '').startsWith('image/');
  const notifications = new Map(of('notifications').map((n) => [String(n.nodeid), n]));
  const photos = of('attachments').filter((a) => a.targetkind === 'notification' && notifications.has(String(a.isattachmentof)) && isImage(a));
  const machineOf = (photo: Row) => String(notifications.get(String(photo.isattachmentof))!.equipmentnodeid);

  /** Same rule as sync/offline-files.ts collectMachineFiles, computed independently from the server's rows. */
  const machineFiles = (machine: string) => {
    const equipment = of('equipment').find((e) => e.nodeid === machine)!;
    const notes = of('notifications').filter((n) => n.equipmentnodeid === machine).map((n) => String(n.nodeid));
    const reports = of('reports').filter((r) => notes.includes(String(r.notificationnodeid))).map((r) => String(r.nodeid));
    const workflows = of('workflows').filter((w) => notes.includes(String(w.notificationnodeid))).map((w) => String(w.nodeid));
    const steps = of('workflowsteps').filter((s) => workflows.includes(String(s.workflownodeid))).map((s) => String(s.nodeid));
    const faqs = of('faqs').filter((f) => f.equipmentnodeid === machine).map((f) => String(f.nodeid));
    const owners = new Set([machine, ...notes, ...reports, ...steps, ...faqs]);
    const ids = [equipment.imagefilenodeid, equipment.typenameplatefilenodeid, ...of('attachments').filter((a) => owners.has(String(a.isattachmentof))).map((a) => a.filenodeid)];
    const unique = [...new Set(ids.filter((id): id is string => typeof id === 'string'))].filter((id) => files.get(id)?.status === 'complete');
    return unique.map((id) => ({ nodeid: id, size: Number(files.get(id)!.size), mimetype: String(files.get(id)!.mimetype) }));
  };
  return { photos, machineOf, machineFiles, machineName: (machine: string) => String(of('equipment').find((e) => e.nodeid === machine)!.name) };
}

/** The cached files' sizes as the device database holds them, read raw (not through the app code under test). */
function cachedSizes(page: Page): Promise<Record<string, number>> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('anlagenbuch-data');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    db.onversionchange = () => db.close();
    try {
      if (!db.objectStoreNames.contains('cachedFileBytes')) return {};
      const rows = await new Promise<{ nodeid: string; bytes: ArrayBuffer }[]>((resolve, reject) => {
        const request = db.transaction('cachedFileBytes', 'readonly').objectStore('cachedFileBytes').getAll();
        request.onsuccess = () => resolve(request.result as { nodeid: string; bytes: ArrayBuffer }[]);
        request.onerror = () => reject(request.error);
      });
      return Object.fromEntries(rows.map((row) => [row.nodeid, row.bytes.byteLength]));
    } finally {
      db.close();
    }
  });
}

async function openMenuEntry(page: Page, name: string) {
  await page.getByTestId('machine-options').click();
  await page.getByRole('menuitem', { name }).click();
}

test('a photo seen once shows offline; "Offline verfügbar machen" keeps all of a machine’s files; the panel shows the storage', async ({ page, context, request }) => {
  test.setTimeout(300_000);
  mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize(TABLET_LANDSCAPE);
  await loginReadyForOffline(page);
  const server = demoFiles(await (await ApiClient.login(request, 'technician')).pullAll());
  const [seen, ...others] = server.photos;
  expect(seen, 'the demo has notification photos').toBeDefined();
  const pinPhoto = others.find((photo) => server.machineOf(photo) !== server.machineOf(seen!))!;
  expect(pinPhoto, 'photos on a second machine').toBeDefined();

  // 1. A notification's photo, opened online, shows again offline after a reload.
  await page.goto(`/notification-details?nodeid=${String(seen!.isattachmentof)}`);
  await expect(page.getByRole('img', { name: String(seen!.title) }).first()).toBeVisible();
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('img', { name: String(seen!.title) }).first()).toBeVisible();
  await expect(page.getByText('Foto nur online verfügbar')).toHaveCount(0);
  await context.setOffline(false);

  // 2. "Offline verfügbar machen" on another machine: every document and photo is fetched, the result says how many.
  const machine = server.machineOf(pinPhoto);
  const name = server.machineName(machine);
  const expected = server.machineFiles(machine);
  expect(expected.some((file) => file.mimetype === 'application/pdf'), 'the machine has documents').toBe(true);
  await page.goto(`/machine-overview?nodeid=${machine}`);
  await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
  await openMenuEntry(page, 'Offline verfügbar machen');
  const dialog = page.getByTestId('offline-files-dialog');
  await expect(dialog.getByTestId('offline-files-result')).toHaveText(`${expected.length} Dateien offline verfügbar`, { timeout: 60_000 });
  await expect(dialog.getByText(/^Belegt auf diesem Gerät: [\d,]+ (KB|MB)$/)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/menu-result-1280x800.png` });
  await dialog.getByRole('button', { name: 'Schließen' }).click();

  // The menu now says since when, offers to update and to release; updating in portrait fetches nothing new.
  await page.setViewportSize(TABLET_PORTRAIT);
  await page.getByTestId('machine-options').click();
  await expect(page.getByTestId('offline-since')).toHaveText(new RegExp(`^Offline verfügbar: ${expected.length} Dateien, Stand \\d\\d\\.\\d\\d\\.\\d{4}$`));
  await page.screenshot({ path: `${SHOTS}/menu-offline-800x1280.png` });
  await page.getByRole('menuitem', { name: 'Offline-Dateien aktualisieren' }).click();
  await expect(dialog.getByTestId('offline-files-result')).toHaveText(`${expected.length} Dateien offline verfügbar`);
  await page.screenshot({ path: `${SHOTS}/menu-result-800x1280.png` });
  await dialog.getByRole('button', { name: 'Schließen' }).click();
  await page.setViewportSize(TABLET_LANDSCAPE);

  // 2b. A document added at the desk afterwards arrives on the tablet by itself with the next sync: nobody has to
  //     open the menu again before walking into the hall.
  const desk = await ApiClient.login(request, 'admin');
  const deskPdf = pdfBytes('Nachgereichte Prüfanleitung');
  const added = await desk.addDocument(machine, 'Nachgereichte Prüfanleitung', deskPdf);
  await new SyncStatus(page).button().click();
  await page.getByRole('dialog', { name: 'Synchronisierung' }).getByRole('button', { name: 'Jetzt synchronisieren' }).click();
  await page.keyboard.press('Escape');
  await expect.poll(async () => (await cachedSizes(page))[added.filenodeid], { timeout: 60_000, message: 'the new document on the device' }).toBe(deskPdf.length);
  expected.push({ nodeid: added.filenodeid, size: deskPdf.length, mimetype: 'application/pdf' });

  // 3. Offline: every file's bytes are on the device with the server's size; the photo and a notification's photo
  //    never opened on this device show.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
  const sizes = await cachedSizes(page);
  for (const file of expected) expect(sizes[file.nodeid], `${file.mimetype} ${file.nodeid} on the device`).toBe(file.size);
  await expect(page.getByRole('img', { name: `Foto von ${name}`, exact: true })).toBeVisible();
  await page.goto(`/notification-details?nodeid=${String(pinPhoto.isattachmentof)}`);
  await expect(page.getByRole('img', { name: String(pinPhoto.title) }).first()).toBeVisible();
  await expect(page.getByText('Foto nur online verfügbar')).toHaveCount(0);

  // 4. The sync panel: storage used (Chromium pads its quota, so no "von …"), the offline files and the machine.
  await new SyncStatus(page).button().click();
  const panel = page.getByRole('dialog', { name: 'Synchronisierung' });
  const storage = panel.getByTestId('storage-usage');
  await storage.scrollIntoViewIfNeeded();
  await expect(storage.getByTestId('storage-used')).toHaveText(/^Belegt: [\d,]+ (KB|MB|GB)$/);
  await expect(storage.getByTestId('storage-files')).toContainText('1 Maschine offline verfügbar');
  await expect(storage.getByTestId('storage-files')).toContainText(`Offline-Dateien: ${expected.length + 1} Dateien`);
  await page.screenshot({ path: `${SHOTS}/storage-1280x800.png` });
  await page.setViewportSize(TABLET_PORTRAIT);
  await storage.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/storage-800x1280.png` });
  await panel.getByRole('button', { name: 'Schließen' }).click();
  await page.setViewportSize(TABLET_LANDSCAPE);

  // 5. Released: the files stay (they are only evictable now) and the menu offers the download again.
  await page.goto(`/machine-overview?nodeid=${machine}`);
  await openMenuEntry(page, 'Nicht mehr offline halten');
  await page.getByTestId('machine-options').click();
  await expect(page.getByRole('menuitem', { name: 'Offline verfügbar machen' })).toBeVisible();
  await page.keyboard.press('Escape');
  expect(Object.keys(await cachedSizes(page))).toEqual(expect.arrayContaining(expected.map((file) => file.nodeid)));
});
