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
import { loginAs, TABLET_LANDSCAPE } from './support/pages';

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
