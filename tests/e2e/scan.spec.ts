/**
 * Reading a service sticker from a photo ("Foto wählen" in the scan dialog). The three stickers are clean codes,
 * drawn as the sticker PDF draws them (a 40 mm code on a 90 × 50 mm sticker at 200 dpi), of another installation
 * (https://anlagenbuch.example.com) and random machine ids — picked among random ones because ZXing, the decoder
 * html5-qrcode brings, does not find their code as taken nor at any of the widths the dialog tries again
 * (src/client/features/scan/decode-photo.ts). They are files so that every run reads the same images.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './support/test';
import { loginAs } from './support/pages';

const STICKERS = join('tests', 'e2e', 'fixtures', 'stickers');

test('a photo of a sticker is read where the camera library\'s decoder does not find the code', async ({ page }) => {
  await loginAs(page, 'technician');
  const files = readdirSync(STICKERS).filter((name) => name.startsWith('other-installation-'));
  expect(files).toHaveLength(3);
  for (const file of files) {
    await page.getByRole('button', { name: 'QR-Code scannen' }).click();
    await expect(page.getByRole('dialog', { name: 'Service-Aufkleber scannen' })).toBeVisible();
    await page.getByTestId('scan-file-input').setInputFiles(join(STICKERS, file));
    await expect(page.getByTestId('scan-outcome'), file).toHaveText('Dieser Aufkleber gehört zu einer anderen Anlagenbuch-Installation (https://anlagenbuch.example.com).');
    await page.getByRole('button', { name: 'Schließen' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
  }
});
