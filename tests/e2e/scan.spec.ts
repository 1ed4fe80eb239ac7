/**
 * Reading a service sticker from a photo ("Foto wählen") and from the camera. The three stickers are clean codes,
 * drawn as the sticker PDF draws them (a 40 mm code on a 90 × 50 mm sticker at 200 dpi), of another installation
 * (https://anlagenbuch.example.com) and random machine ids — picked among random ones because ZXing, the decoder
 * html5-qrcode brings, does not find their code as taken nor at any of the widths the dialog tries again
 * (src/client/features/scan/decode-image.ts). They are files so that every run reads the same images.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseURL } from '../../playwright.config';
import { launchWithCamera, stickerCameraFile } from './support/camera';
import { expect, test } from './support/test';
import { ApiClient, MachinePage, SyncStatus } from './support/machine-pages';
import { takeOfflineReady } from './support/offline';
import { loginAs, TABLET_LANDSCAPE, TABLET_PORTRAIT } from './support/pages';

const STICKERS = join('tests', 'e2e', 'fixtures', 'stickers');
const OTHER_INSTALLATION = 'Dieser Aufkleber gehört zu einer anderen Anlagenbuch-Installation (https://anlagenbuch.example.com).';
const OUT = join('test-results', 'scan');
mkdirSync(OUT, { recursive: true });

const stickerFiles = () => readdirSync(STICKERS).filter((name) => name.startsWith('other-installation-')).sort();

test('a photo of a sticker is read where the camera library\'s decoder does not find the code', async ({ page }) => {
  await loginAs(page, 'technician');
  const files = stickerFiles();
  expect(files).toHaveLength(3);
  for (const file of files) {
    await page.getByRole('button', { name: 'QR-Code scannen' }).click();
    await expect(page.getByRole('dialog', { name: 'Service-Aufkleber scannen' })).toBeVisible();
    await page.getByTestId('scan-file-input').setInputFiles(join(STICKERS, file));
    await expect(page.getByTestId('scan-outcome'), file).toHaveText(OTHER_INSTALLATION);
    await page.getByRole('button', { name: 'Schließen' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
  }
});

test('offline: a sticker that cannot be read opens its machine by the Equipment-ID typed from it; an unknown one is said', async ({ page, context, request }) => {
  test.setTimeout(240_000);
  const machines = (await (await ApiClient.login(request, 'admin')).pullAll()).get('equipment') ?? [];
  const machine = machines.find((row) => row.name === 'DRE 02 Drehmaschine');
  expect(typeof machine?.equipmentid).toBe('string');
  await page.setViewportSize(TABLET_PORTRAIT);
  await loginAs(page, 'technician');
  await takeOfflineReady(page);
  await new SyncStatus(page).waitUntilSynced();
  await context.setOffline(true);

  await page.getByRole('button', { name: 'QR-Code scannen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Service-Aufkleber scannen' });
  const typed = dialog.getByRole('textbox', { name: 'Aufkleber nicht lesbar? Equipment-ID eingeben' });
  await typed.fill('STR-XYZ-99');
  await typed.press('Enter');
  await expect(dialog.getByTestId('scan-outcome')).toHaveText('Keine Maschine auf diesem Gerät hat die Equipment-ID „STR-XYZ-99“.');
  await page.screenshot({ path: join(OUT, 'equipment-id-unknown-800x1280.png') });

  // As a technician types it from a worn sticker: lower case, a space after.
  await typed.fill(`${String(machine!.equipmentid).toLowerCase()} `);
  await dialog.getByRole('button', { name: 'Maschine öffnen' }).click();
  await expect(page).toHaveURL(new RegExp(`/machine-overview\\?nodeid=${String(machine!.nodeid)}$`));
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(new MachinePage(page).header()).toContainText('DRE 02');
  await page.screenshot({ path: join(OUT, 'equipment-id-opened-800x1280.png') });
});

test('the camera reads such a sticker too (a browser without BarcodeDetector, Chromium fake camera)', async () => {
  test.setTimeout(120_000);
  // The sticker held up to the camera at six distances, as in equipment.spec.ts's camera test.
  const mjpeg = await stickerCameraFile(readFileSync(join(STICKERS, stickerFiles()[0]!)), OUT);
  const browser = await launchWithCamera(mjpeg);
  try {
    const context = await browser.newContext({ baseURL, viewport: TABLET_LANDSCAPE, locale: 'de-DE', permissions: ['camera'] });
    const page = await context.newPage();
    await loginAs(page, 'technician');
    expect(await page.evaluate(() => 'BarcodeDetector' in window), 'this test is about browsers without BarcodeDetector').toBe(false);
    await page.getByRole('button', { name: 'QR-Code scannen' }).click();
    await expect(page.getByRole('dialog').getByRole('status')).toHaveText('Kamera aktiv – QR-Code in den Rahmen halten.', { timeout: 30_000 });
    await expect(page.getByTestId('scan-outcome')).toHaveText(OTHER_INSTALLATION, { timeout: 30_000 });
  } finally {
    await browser.close();
  }
});
