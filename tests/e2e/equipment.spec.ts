/**
 * Issue #4, equipment client: a machine with both photos created with no network, delivered exactly once when
 * the tablet comes back; its service sticker as PDF (rendered and looked at); scanning that sticker offline from
 * a photo and with a (fake) camera; CSV export → edit → import with a dry run; screenshots of every screen.
 * Needs `pdftoppm` (Debian: poppler-utils).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import { expect, expectNoCspViolations, test, watchCsp } from './support/test';
import QRCode from 'qrcode';
import { v4 as uuidv4 } from 'uuid';
import { baseURL } from '../../playwright.config';
import { DEMO_PASSWORD, DEMO_USERS } from '../../src/server/db/seed/demo-users';
import { launchWithCamera, stickerCameraFile } from './support/camera';
import { ApiClient } from './support/machine-pages';
import { apiLogin, demoMachine, takeOfflineReady } from './support/offline';
import { EquipmentFormPage, expectAllSynced, loginAs, navigateInApp, TABLET_LANDSCAPE, TABLET_PORTRAIT } from './support/pages';

const OUT = join('test-results', 'equipment');
mkdirSync(OUT, { recursive: true });

test.describe.configure({ mode: 'serial' });

/** Shared by the serial tests: the machine created offline. */
const created = { nodeid: '', name: `Abkantpresse E2E ${Date.now()}`, stickerPng: '' };

async function apiAs(role: keyof typeof DEMO_USERS): Promise<{ api: APIRequestContext; token: string }> {
  const api = await playwrightRequest.newContext({ baseURL });
  const login = await api.post('/api/auth/login', { data: { email: DEMO_USERS[role].email, password: DEMO_PASSWORD } });
  expect(login.ok()).toBe(true);
  const { accesstoken } = (await login.json()) as { accesstoken: string };
  return { api, token: accesstoken };
}

async function screenshotBoth(page: Page, name: string) {
  await page.setViewportSize(TABLET_LANDSCAPE);
  await page.screenshot({ path: join(OUT, `${name}-landscape.png`), fullPage: false });
  await page.setViewportSize(TABLET_PORTRAIT);
  await page.screenshot({ path: join(OUT, `${name}-portrait.png`), fullPage: false });
  await page.setViewportSize(TABLET_LANDSCAPE);
}

/** Two different real images as the "photos" (a PNG each, of distinct sizes so the server's copies can be told apart). */
async function photoFiles() {
  const image = await QRCode.toBuffer('Foto der Maschine', { width: 300 });
  const plate = await QRCode.toBuffer('Typenschild Seriennummer SN-E2E-4711 Baujahr 2018', { width: 420 });
  return { image, plate };
}

test('a machine with both photos is created offline and arrives once; its sticker prints and scans offline', async ({ page, context }) => {
  test.setTimeout(240_000);
  await loginAs(page, 'admin');
  await page.evaluate(async () => navigator.serviceWorker.ready);
  await page.getByRole('link', { name: /Dashboard/ }).first().waitFor();
  await navigateInApp(page, '/create-machine');
  const form = new EquipmentFormPage(page);
  await form.waitForCatalogue();

  // ---- offline from here: everything below is stored on the tablet only.
  await context.setOffline(true);
  await expect(page.getByText('Offline', { exact: true })).toBeVisible();
  await form.chooseFirst(form.brand());
  await expect(form.manufacturer()).toBeDisabled(); // an existing brand fixes the manufacturer (§4)
  await form.chooseFirst(form.type());
  // A long name (a real plant's naming) stays inside the page: the preview and the sticker cut it, the fields stay on screen.
  const widthOf = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await form.field('name').fill('Hydraulische Abkantpresse mit CNC-Steuerung und automatischem Werkzeugwechsler Halle 2 Linie 3 Westseite');
  expect(await widthOf()).toBe(0);
  await form.field('name').fill('X'.repeat(180));
  expect(await widthOf()).toBe(0);
  await form.field('name').fill(created.name);
  await form.field('equipmentid').fill('E2E-AKP-01');
  await form.field('manufacturerserialnumber').fill('SN-E2E-4711');
  await form.field('constructionyear').selectOption('2018');
  // The year pickers offer no future year.
  const years = await form.field('constructionyear').locator('option').allTextContents();
  expect(years).not.toContain(String(new Date().getFullYear() + 1));
  // Dimensions: German format with a comma; the spec's two errors.
  await form.field('width').fill('12.5');
  await expect(page.getByTestId('equipment-width-error')).toHaveText('Ungültiges Zahlenformat');
  await form.field('width').fill('0,5');
  await expect(page.getByTestId('equipment-width-error')).toHaveText('Wert muss >= 1 sein');
  await expect(form.submit()).toBeDisabled();
  await form.field('width').fill('3100,5');
  await form.field('height').fill('2400');
  await form.field('depth').fill('1800');
  // Media connections: an empty row is dropped on save.
  await page.getByTestId('media-row').first().fill('Druckluft 6 bar');
  await page.getByTestId('media-add').click();
  await page.getByTestId('media-add').click();
  await page.getByTestId('media-row').nth(2).fill('Kühlwasser');
  await page.getByTestId('controller-manufacturer').fill('Siemens');
  // Assignment: both empty is an error on both fields, once one of them was left (an untouched form is not red).
  await expect(page.getByText('Bitte einen Equipment Pool oder einen Bereich wählen.')).toHaveCount(0);
  await form.field('pool').focus();
  await form.field('site').focus();
  await expect(page.getByText('Bitte einen Equipment Pool oder einen Bereich wählen.')).toHaveCount(2);
  await form.chooseFirst(form.field('pool'));
  await expect(page.getByText('Bitte einen Equipment Pool oder einen Bereich wählen.')).toHaveCount(0);
  await form.field('hourlyrate').fill('95,50');

  const photos = await photoFiles();
  await page.getByTestId('photo-image-input').setInputFiles({ name: 'maschine.png', mimeType: 'image/png', buffer: photos.image });
  await page.getByTestId('photo-typenameplate-input').setInputFiles({ name: 'typenschild.png', mimeType: 'image/png', buffer: photos.plate });
  await page.getByTestId('photo-typenameplate-thumb').click();
  await expect(page.getByRole('dialog')).toBeVisible();
  // The spec's text for this one button (part 2 §2.2: "close button 'Schliessen'"), kept as written.
  await page.getByRole('button', { name: 'Schliessen' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(form.submit()).toHaveText('EQUIPMENT anlegen');
  await expect(form.submit()).toBeEnabled();
  await page.getByTestId('section-catalog').scrollIntoViewIfNeeded();
  await screenshotBoth(page, 'create-form');

  // ---- the service sticker as PDF, named after the machine (offline, from the form).
  created.nodeid = await form.stickerNodeid();
  const downloadPromise = page.waitForEvent('download');
  await page.getByTestId('sticker-download').click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe(`${created.name}.pdf`);
  const pdfPath = join(OUT, 'sticker.pdf');
  await download.saveAs(pdfPath);
  // Vector modules, compressed: a few kilobytes (a bitmap QR code made it 696 KB).
  expect(statSync(pdfPath).size).toBeLessThan(30_000);
  execFileSync('pdftoppm', ['-png', '-r', '200', '-f', '1', '-l', '1', '-singlefile', pdfPath, join(OUT, 'sticker')]);
  created.stickerPng = join(OUT, 'sticker.png');

  await form.submit().click();
  await expect(page).toHaveURL(/\/machines$/);

  // ---- scan the printed sticker from a photo, still offline: the machine opens from the local mirror.
  // (/machines and /machine-overview are other helpers' screens: until they land they show the 404 page.)
  await navigateInApp(page, '/dashboard');
  // Saved on the device only: 2 photo registrations + the machine are three requests but one thing the user did.
  await expect(page.locator('[data-slot="sync-status"] button')).toHaveAttribute('data-pending', '1');
  await expect(page.getByTestId('sync-headline')).toHaveText('1 Änderung nicht gesendet');
  await page.getByRole('button', { name: 'QR-Code scannen' }).click();
  await expect(page.getByRole('dialog', { name: 'Service-Aufkleber scannen' })).toBeVisible();
  await page.getByTestId('scan-file-input').setInputFiles(created.stickerPng);
  await expect(page).toHaveURL(new RegExp(`/machine-overview\\?nodeid=${created.nodeid}$`));
  // A code that is no sticker says so.
  await navigateInApp(page, '/dashboard');
  await page.getByRole('button', { name: 'QR-Code scannen' }).click();
  await page.getByTestId('scan-file-input').setInputFiles({ name: 'fremd.png', mimeType: 'image/png', buffer: await QRCode.toBuffer('https://example.com/produkt/4006381333931', { width: 400 }) });
  await expect(page.getByTestId('scan-outcome')).toHaveText('Dieser Code ist kein Service-Aufkleber von Anlagenbuch.');
  await screenshotBoth(page, 'scan-dialog');
  await page.getByRole('button', { name: 'Schließen' }).click();

  // The edit form reads the new machine from the mirror, offline, photos included (bytes on the device).
  await navigateInApp(page, `/edit-machine?nodeid=${created.nodeid}`);
  await expect(form.field('name')).toHaveValue(created.name);
  await expect(form.field('width')).toHaveValue('3100,5');
  await expect(page.getByTestId('photo-image-thumb').locator('img')).toBeVisible();
  await expect(form.submit()).toHaveText('SPEICHERN');
  await screenshotBoth(page, 'edit-form');

  // ---- back online: the outbox drains; another user sees the machine and both photos exactly once.
  await context.setOffline(false);
  await expectAllSynced(page, 90_000);
  const { api, token } = await apiAs('technician');
  const headers = { authorization: `Bearer ${token}` };
  const record = await api.get(`/api/equipments/${created.nodeid}`, { headers });
  expect(record.status()).toBe(200);
  const machine = (await record.json()) as { name: string; image: { url: string } | null; typenameplate: { url: string } | null; dimensions: unknown; mediasupply: string[]; equipmentid: string };
  expect(machine).toMatchObject({ name: created.name, equipmentid: 'E2E-AKP-01', dimensions: [3100.5, 2400, 1800], mediasupply: ['Druckluft 6 bar', 'Kühlwasser'] });
  expect(machine.image?.url).toBeTruthy();
  expect(machine.typenameplate?.url).toBeTruthy();
  const imageBytes = await (await api.get(machine.image!.url)).body();
  const plateBytes = await (await api.get(machine.typenameplate!.url)).body();
  expect(Buffer.compare(imageBytes, photos.image)).toBe(0);
  expect(Buffer.compare(plateBytes, photos.plate)).toBe(0);
  // Exactly once: the change feed holds one machine of that name and one complete file per photo.
  const pull = await api.get('/api/sync/pull?cursor=0&limit=5000', { headers: { ...headers, 'x-client-id': uuidv4() } });
  expect(pull.ok()).toBe(true);
  const changes = ((await pull.json()) as { changes: { kind: string; data?: Record<string, unknown> }[] }).changes;
  expect(changes.filter((c) => c.kind === 'equipment' && c.data?.name === created.name)).toHaveLength(1);
  for (const bytes of [photos.image, photos.plate]) {
    expect(changes.filter((c) => c.kind === 'files' && c.data?.size === bytes.length && c.data?.status === 'complete')).toHaveLength(1);
  }
  await api.dispose();
});

test('the sticker scans with a camera (Chromium fake camera), offline', async () => {
  test.setTimeout(180_000);
  expect(created.stickerPng, 'runs after the create test').not.toBe('');
  const mjpeg = await stickerCameraFile(readFileSync(created.stickerPng), OUT, join(OUT, 'camera-frame.jpg'));
  const browser = await launchWithCamera(mjpeg);
  try {
    const context = await browser.newContext({ baseURL, viewport: TABLET_LANDSCAPE, locale: 'de-DE', permissions: ['camera'] });
    const cspViolations = await watchCsp(context);
    const page = await context.newPage();
    // Said with the failure: what the page reported while the camera ran (a stuck scan has shown no outcome).
    const reported: string[] = [];
    page.on('pageerror', (error) => reported.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') reported.push(`${message.type()}: ${message.text()}`);
    });
    await loginAs(page, 'technician');
    await expectAllSynced(page);
    // The first sync has brought the machine into this tablet's mirror; now the network goes.
    await expect.poll(() => page.evaluate(async (id) => {
      const request = indexedDB.open('anlagenbuch-data');
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const row = await new Promise((resolve) => {
        const get = db.transaction('equipment').objectStore('equipment').get(id);
        get.onsuccess = () => resolve(get.result);
      });
      db.close();
      return Boolean(row);
    }, created.nodeid), { timeout: 150_000 }).toBe(true);
    // The app is offline-ready only once its service worker has the whole shell (the scanner's chunk included):
    // going offline before that, the scanner could not load (seen once the PDF viewer's worker made the precache larger).
    await takeOfflineReady(page);
    await context.setOffline(true);
    await page.getByRole('button', { name: 'QR-Code scannen' }).click();
    // No status check here: with the code in the frame the first frames decode and the dialog closes at once.
    try {
      await expect(page).toHaveURL(new RegExp(`/machine-overview\\?nodeid=${created.nodeid}$`), { timeout: 30_000 });
    } catch (error) {
      // What the scanner's video looked like: a stuck scan once showed "camera on" and never read a frame.
      const video = await page
        .evaluate(() => {
          const element = document.querySelector<HTMLVideoElement>('[data-testid="scan-camera"] video');
          const region = document.querySelector<HTMLElement>('[data-testid="scan-camera"]');
          return { region: region?.clientWidth, video: element && { style: element.style.width, width: element.clientWidth, height: element.clientHeight, videoWidth: element.videoWidth, readyState: element.readyState, paused: element.paused } };
        })
        .catch((reason: unknown) => String(reason));
      throw new Error(`${String(error)}\nscanner: ${JSON.stringify(video)}\npage said:\n${reported.join('\n')}`);
    }
    expectNoCspViolations(cspViolations);
  } finally {
    await browser.close();
  }
});

test('CSV export → edit → import: the dry run shows a row error before anything is written', async ({ page }) => {
  test.setTimeout(180_000);
  await loginAs(page, 'admin');
  await expectAllSynced(page);
  await navigateInApp(page, '/export');
  await expect(page.getByTestId('csv-export')).toBeEnabled({ timeout: 60_000 });
  const downloadPromise = page.waitForEvent('download');
  await page.getByTestId('csv-export').click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe('Equipment.csv');
  const text = readFileSync(await download.path(), 'utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  const lines = text.replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);
  const headerCells = lines[0]!.split(';');
  expect(headerCells).toContain('Interner Name');
  const mine = lines.find((line) => line.includes(created.name));
  expect(mine, 'the machine created offline is exported').toBeTruthy();
  const cells = mine!.split(';');
  const col = (name: string) => headerCells.indexOf(name);
  expect(cells[col('Breite (mm)')]).toBe('3100,5');
  // Edit: a new hourly rate for our machine, a new machine (its own Equipment-ID), and a row with a bad width.
  const edited = [...cells];
  edited[col('Stundensatz (EUR)')] = '101,25';
  const added = [...cells];
  added[col('nodeid')] = '';
  added[col('Interner Name')] = `${created.name} (Import)`;
  added[col('Equipment-ID')] = 'E2E-AKP-02';
  const bad = [...cells];
  bad[col('nodeid')] = '';
  bad[col('Interner Name')] = 'Fehlerhafte Zeile';
  bad[col('Equipment-ID')] = 'E2E-AKP-03';
  bad[col('Breite (mm)')] = '12x5';
  const csvOf = (...rows: string[][]) => '\uFEFF' + [lines[0], ...rows.map((row) => row.join(';'))].join('\r\n') + '\r\n';
  const choose = (name: string, content: string | Buffer) =>
    page.getByTestId('csv-import-input').setInputFiles({ name, mimeType: 'text/csv', buffer: typeof content === 'string' ? Buffer.from(content, 'utf8') : content });
  const file = csvOf(edited, added, bad);
  writeFileSync(join(OUT, 'import.csv'), file);

  // A picture chosen by mistake is one clear message, not its bytes as columns and an error per line.
  await choose('photo.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x3b, 0x0d, 0x0a, 0x41]));
  await expect(page.getByTestId('csv-file-error')).toContainText('„photo.jpg“ ist keine CSV-Datei');
  await expect(page.getByTestId('csv-preview')).toHaveCount(0);

  // A file with an error row: the dry run shows it, and nothing can be taken over until the file is corrected.
  await choose('import.csv', file);
  const preview = page.getByTestId('csv-preview');
  await expect(preview).toBeVisible();
  const updateRow = page.locator('[data-testid="csv-row"][data-action="update"]');
  await expect(updateRow).toHaveCount(1);
  await expect(updateRow.getByTestId('csv-row-changes')).toHaveText('Stundensatz (EUR)');
  await expect(page.locator('[data-testid="csv-row"][data-action="create"]')).toHaveCount(1);
  const errorRow = page.locator('[data-testid="csv-row"][data-action="error"]');
  await expect(errorRow).toHaveCount(1);
  await expect(errorRow).toContainText('Breite (mm): „12x5“ – Ungültiges Zahlenformat');
  await expect(page.getByTestId('csv-run-import')).toHaveText('2 Zeilen übernehmen');
  await expect(page.getByTestId('csv-run-import')).toBeDisabled();
  await expect(page.getByTestId('csv-import-blocked')).toContainText('Es wird nichts übernommen');
  await screenshotBoth(page, 'export-dry-run');

  // The corrected file is taken over.
  const corrected = csvOf(edited, added);
  await choose('import.csv', corrected);
  await expect(page.locator('[data-testid="csv-row"][data-action="error"]')).toHaveCount(0);
  await expect(page.getByTestId('csv-run-import')).toHaveText('2 Zeilen übernehmen');
  await page.getByTestId('csv-run-import').click();
  await expect(page.getByTestId('csv-imported')).toBeVisible();
  await expectAllSynced(page, 90_000);

  // The same file again creates nothing twice: the new machine, without its nodeid in the file, is found by its
  // Equipment-ID exactly as it stands now — unchanged, like the updated one.
  await choose('import.csv', corrected);
  await expect(page.locator('[data-testid="csv-row"][data-action="unchanged"]')).toHaveCount(2);
  await expect(page.locator('[data-testid="csv-row"][data-action="error"]')).toHaveCount(0);
  await expect(page.getByTestId('csv-run-import')).toBeDisabled();
  // Changed, it is no longer that machine: its Equipment-ID is taken.
  await choose('import.csv', corrected.replace(`${created.name} (Import)`, `${created.name} (Import 2)`));
  await expect(page.locator('[data-testid="csv-row"][data-action="error"]')).toContainText(`Equipment-ID „E2E-AKP-02“ gibt es bereits (Maschine „${created.name} (Import)“)`);
  await expect(page.getByTestId('csv-run-import')).toBeDisabled();
  await preview.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(page.getByTestId('csv-preview')).toHaveCount(0);

  const { api, token } = await apiAs('technician');
  const headers = { authorization: `Bearer ${token}` };
  const record = (await (await api.get(`/api/equipments/${created.nodeid}`, { headers })).json()) as { hourlyrate: [number, unknown] | null };
  expect(record.hourlyrate?.[0]).toBe(101.25);
  const pull = await api.get('/api/sync/pull?cursor=0&limit=5000', { headers: { ...headers, 'x-client-id': uuidv4() } });
  const changes = ((await pull.json()) as { changes: { kind: string; data?: Record<string, unknown> }[] }).changes;
  expect(changes.filter((c) => c.kind === 'equipment' && c.data?.name === `${created.name} (Import)`)).toHaveLength(1);
  expect(changes.filter((c) => c.kind === 'equipment' && c.data?.name === 'Fehlerhafte Zeile')).toHaveLength(0);
  await api.dispose();

  // The sticker sheet: several machines on A4.
  const sheetList = page.getByTestId('sticker-sheet-list');
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await sheetList.getByText(new RegExp(`^${escape(created.name)} · `)).click();
  await sheetList.getByText(new RegExp(`^${escape(`${created.name} (Import)`)} · `)).click();
  await expect(page.getByTestId('sticker-sheet-print')).toHaveText(/\(2\)/);
  const sheetPromise = page.waitForEvent('download');
  await page.getByTestId('sticker-sheet-print').click();
  const sheet = await sheetPromise;
  const sheetPath = join(OUT, 'sticker-sheet.pdf');
  await sheet.saveAs(sheetPath);
  execFileSync('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', '-singlefile', sheetPath, join(OUT, 'sticker-sheet')]);
  await page.getByTestId('sticker-sheet-list').scrollIntoViewIfNeeded();
  await screenshotBoth(page, 'export');
});

test('brand and class forms', async ({ page }) => {
  await loginAs(page, 'admin');
  await expectAllSynced(page);
  await navigateInApp(page, '/create-brand');
  await page.getByTestId('brand-name').fill('E2E Marke');
  await page.getByTestId('brand-manufacturer-select').selectOption('__new__');
  await page.getByTestId('brand-manufacturer-new').fill('E2E Hersteller GmbH');
  await screenshotBoth(page, 'brand-form');
  await page.getByTestId('brand-submit').click();
  await expect(page).toHaveURL(/\/machines$/);
  await navigateInApp(page, '/create-equipment-class');
  // Too long or taken is said at the name and keeps the form from saving (it failed on save, unexplained).
  await page.getByTestId('class-name').fill('K'.repeat(201));
  await expect(page.getByTestId('class-name-error')).toHaveText('Höchstens 200 Zeichen.');
  await expect(page.getByTestId('class-submit')).toBeDisabled();
  await page.getByTestId('class-name').fill('E2E Pressen');
  await expect(page.getByTestId('class-name-error')).toHaveCount(0);
  await screenshotBoth(page, 'class-form');
  await page.getByTestId('class-submit').click();
  await expect(page).toHaveURL(/\/machines$/);
  await expectAllSynced(page);
  // The new brand is offered in the equipment form's picker, with its manufacturer.
  await navigateInApp(page, '/create-machine');
  const form = new EquipmentFormPage(page);
  await form.waitForCatalogue();
  await form.brand().selectOption({ label: 'E2E Marke' });
  await expect(form.manufacturer().locator('option:checked')).toHaveText('E2E Hersteller GmbH');
  // A second brand of that name under the same manufacturer could not be told apart in this picker.
  await navigateInApp(page, '/create-brand');
  await page.getByTestId('brand-name').fill('e2e marke ');
  await page.getByTestId('brand-manufacturer-select').selectOption({ label: 'E2E Hersteller GmbH' });
  await expect(page.getByTestId('brand-name-error')).toContainText('Diesen Namen gibt es schon');
  await expect(page.getByTestId('brand-submit')).toBeDisabled();
});

// The brand and class forms were the last forms that wrote a record and lost what was typed to a reload or a tap on
// the navigation; they keep a draft per user and record like the others.
test('the brand and class forms keep what was entered through an offline reload and leaving them; cancel and save forget it', async ({ page, context, request }) => {
  test.setTimeout(240_000);
  await page.setViewportSize(TABLET_PORTRAIT);
  await loginAs(page, 'admin');
  await takeOfflineReady(page);
  await expectAllSynced(page);
  const stamp = Date.now() % 100_000;
  const restored = page.getByTestId('catalogue-draft-restored');

  await navigateInApp(page, '/create-brand');
  await expect(restored).toHaveCount(0);
  await page.getByTestId('brand-name').fill(`Entwurf Marke ${stamp}`);
  await page.getByTestId('brand-manufacturer-select').selectOption('__new__');
  await page.getByTestId('brand-manufacturer-new').fill(`Entwurf Hersteller ${stamp}`);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('brand-name')).toHaveValue(`Entwurf Marke ${stamp}`, { timeout: 60_000 });
  await expect(page.getByTestId('brand-manufacturer-new')).toHaveValue(`Entwurf Hersteller ${stamp}`);
  await expect(restored).toContainText(/^Nicht gespeicherte Eingaben vom \d\d\.\d\d\.\d{4} \d\d:\d\d wiederhergestellt\./);
  await screenshotBoth(page, 'brand-form-draft-restored');
  await page.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(page).toHaveURL(/\/machines$/);
  await navigateInApp(page, '/create-brand');
  await expect(page.getByTestId('brand-name')).toHaveValue('');
  await expect(page.getByTestId('brand-manufacturer-new')).toHaveCount(0);
  await expect(restored).toHaveCount(0);

  // A new class, offline: kept through a slip onto the dashboard, then saved.
  const className = `Entwurf Klasse ${stamp}`;
  await navigateInApp(page, '/create-equipment-class');
  await page.getByTestId('class-name').fill(className);
  await navigateInApp(page, '/dashboard');
  await expect(page.getByRole('heading', { name: /^Hallo / })).toBeVisible();
  await navigateInApp(page, '/create-equipment-class');
  await expect(page.getByTestId('class-name')).toHaveValue(className);
  await expect(restored).toBeVisible();
  await page.getByTestId('class-submit').click();
  await expect(page).toHaveURL(/\/machines$/);

  // Its edit: kept through an offline reload with what it was filled with; saved, forgotten.
  const classLink = (name: string) => page.getByTestId('catalogue-classes').getByTestId('catalogue-class-link').filter({ hasText: name });
  await classLink(className).click();
  await expect(page).toHaveURL(/\/edit-equipment-class\?nodeid=/);
  await expect(restored).toHaveCount(0);
  await page.getByTestId('class-name').fill(`${className} Nord`);
  await page.reload();
  await expect(page.getByTestId('class-name')).toHaveValue(`${className} Nord`, { timeout: 60_000 });
  await expect(restored).toBeVisible();
  // The language switched before the save: the name is still the German one the form was filled from.
  await page.getByRole('button', { name: 'Sprache: Englisch' }).click();
  await expect(page.getByRole('heading', { name: 'Edit equipment class', level: 2 })).toBeVisible();
  await expect(page.getByTestId('class-name')).toHaveValue(`${className} Nord`);
  await page.getByTestId('class-submit').click();
  await expect(page).toHaveURL(/\/machines$/);
  await page.getByRole('button', { name: 'Language: German' }).click();
  await classLink(`${className} Nord`).click();
  await expect(page.getByTestId('class-name')).toHaveValue(`${className} Nord`);
  await expect(restored).toHaveCount(0);

  await context.setOffline(false);
  await expectAllSynced(page);
  const feed = await (await ApiClient.login(request, 'admin')).pullAll();
  expect((feed.get('equipmentclasses') ?? []).find((row) => JSON.stringify(row.name).includes(className))?.name).toEqual({ de: `${className} Nord` });
  expect(JSON.stringify(feed.get('brands'))).not.toContain(`Entwurf Marke ${stamp}`);
  expect(JSON.stringify(feed.get('manufacturers'))).not.toContain(`Entwurf Hersteller ${stamp}`);
});

// Found 2026-12-03 (an admin's walkthrough): the equipment form, thirty fields, lost everything typed to a reload or
// a tap on the navigation, while the shorter forms keep theirs. It now keeps a draft per user and machine.
test('the equipment form keeps what was typed through a slip onto another screen and an offline reload; discard, cancel and save forget it', async ({ page, context, request }) => {
  test.setTimeout(240_000);
  await page.setViewportSize(TABLET_PORTRAIT);
  const session = await apiLogin(request, 'admin');
  const machine = await demoMachine(request, session);
  await loginAs(page, 'admin');
  await takeOfflineReady(page);
  await expectAllSynced(page);
  await navigateInApp(page, '/create-machine');
  const form = new EquipmentFormPage(page);
  await form.waitForCatalogue();
  await context.setOffline(true);
  await expect(page.getByText('Offline', { exact: true })).toBeVisible();
  await expect(page.getByTestId('equipment-draft-restored')).toHaveCount(0);

  const name = `Entwurf Presse ${Date.now()}`;
  await form.chooseFirst(form.brand());
  await form.chooseFirst(form.type());
  const brand = await form.brand().inputValue();
  await form.field('name').fill(name);
  await form.field('equipmentid').fill('E2E-ENTWURF-01');
  await form.field('width').fill('1200');
  await page.getByTestId('media-row').first().fill('Druckluft 6 bar');
  await form.chooseFirst(form.field('pool'));
  const pool = await form.field('pool').inputValue();
  const stickerId = await form.stickerNodeid();

  // A slip onto the dashboard and back: everything is there, with the same machine id (its sticker may be printed).
  await navigateInApp(page, '/dashboard');
  await expect(page.getByRole('heading', { name: /^Hallo / })).toBeVisible();
  await navigateInApp(page, '/create-machine');
  await expect(page.getByTestId('equipment-draft-restored')).toContainText(/^Nicht gespeicherte Eingaben vom \d\d\.\d\d\.\d{4} \d\d:\d\d wiederhergestellt\./);
  await expect(form.field('name')).toHaveValue(name);
  await expect(form.brand()).toHaveValue(brand);
  await expect(form.field('pool')).toHaveValue(pool);
  expect(await form.stickerNodeid()).toBe(stickerId);

  // A reload with no network: still there.
  await page.reload();
  await expect(form.field('name')).toHaveValue(name, { timeout: 60_000 });
  await expect(form.field('equipmentid')).toHaveValue('E2E-ENTWURF-01');
  await expect(form.field('width')).toHaveValue('1200');
  await expect(page.getByTestId('media-row').first()).toHaveValue('Druckluft 6 bar');
  await expect(page.getByTestId('equipment-draft-restored')).toBeVisible();
  await screenshotBoth(page, 'create-form-draft-restored');

  // Thrown away: an empty form, and nothing comes back after a reload.
  await page.getByTestId('equipment-draft-discard').click();
  await expect(form.field('name')).toHaveValue('');
  await expect(page.getByTestId('equipment-draft-restored')).toHaveCount(0);
  await page.reload();
  await expect(form.brand()).toBeVisible({ timeout: 60_000 });
  await expect(form.field('name')).toHaveValue('');
  await expect(page.getByTestId('equipment-draft-restored')).toHaveCount(0);

  // Cancelled: forgotten too.
  await form.field('name').fill(name);
  await page.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(page).not.toHaveURL(/\/create-machine/);
  await expect(page.getByRole('heading', { name: /^Hallo / })).toBeVisible();
  await navigateInApp(page, '/create-machine');
  await expect(form.field('name')).toHaveValue('');
  await expect(page.getByTestId('equipment-draft-restored')).toHaveCount(0);

  // An edit, straight from the add form (they share one screen module: the edit form opened empty, with the add
  // form's state): the typed cost centre survives a reload; saved, the draft is gone and the form shows the machine.
  await navigateInApp(page, `/edit-machine?nodeid=${machine.nodeid}`);
  await expect(form.field('name')).toHaveValue(machine.name);
  const costcenter = `4711 Entwurf ${Date.now() % 10_000}`;
  await form.field('costcenter').fill(costcenter);
  await page.reload();
  await expect(form.field('costcenter')).toHaveValue(costcenter, { timeout: 60_000 });
  await expect(form.field('name')).toHaveValue(machine.name);
  await expect(page.getByTestId('equipment-draft-restored')).toBeVisible();
  await form.submit().click();
  await expect(page).not.toHaveURL(/\/edit-machine/);
  await expect(page.getByTestId('equipment-form')).toHaveCount(0);
  await navigateInApp(page, `/edit-machine?nodeid=${machine.nodeid}`);
  await expect(form.field('costcenter')).toHaveValue(costcenter);
  await expect(page.getByTestId('equipment-draft-restored')).toHaveCount(0);

  await context.setOffline(false);
  await expectAllSynced(page);
});
