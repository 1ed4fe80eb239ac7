/**
 * The documentation tab (issue #12, spec part 1 §2.1, §5, §8): an admin at the machine uploads a PDF with no
 * network, reads it in the viewer (pdf.js, its worker bundled, under the app's CSP), and a technician on a second
 * tablet sees it after sync and can read it offline once opened. Files of other types are refused with the spec's
 * texts; edit and delete go through the confirmation. Both orientations, screenshots for a look.
 */
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { jsPDF } from 'jspdf';
import { expect, expectNoCspViolations, test, watchCsp } from './support/test';
import { MachineListPage, solidPng, SyncStatus } from './support/machine-pages';
import { takeOfflineReady, waitForEmptyOutbox } from './support/offline';
import { loginAs, shotsDir, TABLET_LANDSCAPE, TABLET_PORTRAIT, tabletScreenshots } from './support/pages';

const MACHINE = 'BAZ 02 Fräszentrum';
const SHOTS = shotsDir('docs');

/** A real two-page PDF, as a manual would be: page 1 and page 2 with big text the canvas must show. */
function manualPdf(): Buffer {
  const pdf = new jsPDF();
  pdf.setFontSize(28);
  pdf.text('Betriebsanleitung BAZ 02', 20, 30);
  pdf.setFontSize(16);
  pdf.text('Seite 1: Sicherheitshinweise', 20, 50);
  pdf.addPage();
  pdf.setFontSize(28);
  pdf.text('Seite 2: Wartungsplan', 20, 30);
  return Buffer.from(pdf.output('arraybuffer'));
}

async function readyForOffline(page: Page, role: 'admin' | 'technician') {
  await loginAs(page, role);
  await takeOfflineReady(page);
  await new SyncStatus(page).waitUntilSynced();
}

const category = (page: Page, name: string): Locator => page.getByTestId(`documents-${name}`);

/** The number on a category's badge (the demo plant has documents of its own). */
async function countOf(page: Page, name: string): Promise<number> {
  return Number(await category(page, name).getByTestId('documents-count').textContent());
}

/** Opens a category's accordion unless it is open already. */
async function expand(page: Page, name: string) {
  const trigger = category(page, name).locator('[data-part="item-trigger"]');
  if ((await trigger.getAttribute('aria-expanded')) !== 'true') await trigger.click();
  await expect(trigger).toHaveAttribute('aria-expanded', 'true');
}

/** The canvas shows page `page` and it is not blank (pdf.js drew text on it). */
async function expectPdfPage(page: Page, number: number, pages: number) {
  const viewer = page.getByTestId('pdf-viewer');
  await expect(viewer.getByTestId('pdf-page')).toHaveText(`Seite ${number} von ${pages}`, { timeout: 30_000 });
  await expect(viewer.getByTestId('pdf-canvas')).toHaveAttribute('data-page', String(number), { timeout: 30_000 });
  const inked = await viewer.getByTestId('pdf-canvas').evaluate((canvas: HTMLCanvasElement) => {
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let dark = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i]! < 128 && data[i + 3]! > 0) dark++;
    return dark;
  });
  expect(inked, 'the page shows text').toBeGreaterThan(200);
}

test('documents: refused types, an offline PDF upload seen on a second tablet, the viewer offline, edit and delete', async ({ page, context, browser }) => {
  test.setTimeout(420_000);
  mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize(TABLET_LANDSCAPE);
  await readyForOffline(page, 'admin');
  await new MachineListPage(page).open(MACHINE);
  const machineUrl = new URL(page.url());
  const nodeid = machineUrl.searchParams.get('nodeid')!;

  await context.setOffline(true);
  await page.getByRole('tab', { name: 'Dokumentation' }).click();
  await expect(page).toHaveURL(/tab=2/);
  for (const name of ['operation', 'setup', 'maintenance', 'safety', 'internalinstructions']) await expect(category(page, name)).toBeVisible();
  await expect(category(page, 'safety')).toContainText('Arbeitssicherheit');
  // Every control of the tab is a tablet's touch target at both sizes (the upload buttons were 40 px).
  await tabletScreenshots(page, SHOTS, 'documentation-tab');

  const setupCount = await countOf(page, 'setup');
  const operationCount = await countOf(page, 'operation');
  const maintenanceCount = await countOf(page, 'maintenance');
  // Several files dropped at once: the .exe and the .png are listed with their type and skipped, the text goes on.
  await expand(page, 'setup');
  const dropzone = category(page, 'setup').getByTestId('document-dropzone');
  await expect(dropzone).toBeVisible();
  const png = solidPng(16, [10, 120, 200]).toString('base64');
  const dataTransfer = await page.evaluateHandle((pngBase64) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['MZ\u0090\u0000'], 'setup.exe', { type: 'application/x-msdownload' }));
    transfer.items.add(new File([Uint8Array.from(atob(pngBase64), (c) => c.charCodeAt(0))], 'foto.png', { type: 'image/png' }));
    transfer.items.add(new File(['Drehmomente: M8 = 25 Nm\n'], 'Anzugsmomente.txt', { type: 'text/plain' }));
    return transfer;
  }, png);
  await dropzone.dispatchEvent('drop', { dataTransfer });
  const dialog = page.getByTestId('document-upload-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('toast').filter({ hasText: 'Ungültiger Dateityp!' })).toContainText('Es sind nur (Text, PDF, Word, Excel) Dateien zulässig!');
  await expect(dialog.getByTestId('document-rejected')).toContainText('2 Dateien werden übersprungen');
  await expect(dialog.getByTestId('document-rejected')).toContainText('setup.exe (application/x-msdownload)');
  await expect(dialog.getByTestId('document-rejected')).toContainText('foto.png (image/png)');
  await expect(dialog.getByTestId('document-title')).toHaveValue('Anzugsmomente');
  await expect(dialog.getByTestId('document-category')).toHaveValue('setup');
  await expect(dialog.getByTestId('document-upload-save')).toBeEnabled();
  await page.screenshot({ path: `${SHOTS}/upload-rejected-1280x800.png` });
  // Cancel drops everything: nothing was queued.
  await dialog.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(dialog).toBeHidden();
  await expect(category(page, 'setup').getByTestId('documents-count')).toHaveText(String(setupCount));

  // The upload dialog of a category: a single .exe is the field error, and save stays disabled.
  await category(page, 'operation').getByTestId('documents-upload').click();
  await expect(dialog.getByTestId('document-category')).toHaveValue('operation');
  await dialog.getByTestId('document-upload-input').setInputFiles({ name: 'virus.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ') });
  await expect(dialog.getByTestId('document-file-error')).toHaveText('Ungültige Dateiextension!');
  await expect(dialog.getByTestId('document-upload-save')).toBeDisabled();
  // The category is required too (§5).
  await dialog.getByTestId('document-category').selectOption('');
  await dialog.getByTestId('document-upload-input').setInputFiles({ name: 'Betriebsanleitung BAZ 02.pdf', mimeType: 'application/pdf', buffer: manualPdf() });
  await expect(dialog.getByTestId('document-file-error')).toBeHidden();
  await expect(dialog.getByTestId('document-title')).toHaveValue('Betriebsanleitung BAZ 02');
  await expect(dialog.getByTestId('document-upload-save')).toBeDisabled();
  await dialog.getByTestId('document-category').selectOption('operation');
  await dialog.getByRole('textbox', { name: 'Beschreibung (optional)' }).fill('Kapitel 1–2, Stand 2026');
  await page.screenshot({ path: `${SHOTS}/upload-dialog-1280x800.png` });
  await dialog.getByTestId('document-upload-save').click();
  await expect(dialog).toBeHidden();
  // The toast hides by itself after 6 s.
  await expect(page.getByTestId('toast')).toHaveCount(0, { timeout: 12_000 });

  const row = category(page, 'operation').getByTestId('document-row').filter({ hasText: 'Betriebsanleitung BAZ 02' });
  await expect(row).toBeVisible();
  await expect(row.getByTestId('not-synced')).toBeVisible();
  await expect(category(page, 'operation').getByTestId('documents-count')).toHaveText(String(operationCount + 1));
  await page.screenshot({ path: `${SHOTS}/documentation-offline-1280x800.png`, fullPage: true });

  // The viewer, still offline, from the bytes on the device.
  await row.getByTestId('document-open').click();
  await expectPdfPage(page, 1, 2);
  await page.screenshot({ path: `${SHOTS}/viewer-offline-1280x800.png` });
  await page.getByTestId('pdf-next').click();
  await expectPdfPage(page, 2, 2);
  await page.getByTestId('pdf-previous').click();
  await expectPdfPage(page, 1, 2);
  await page.getByRole('button', { name: 'Schließen' }).click();
  await expect(page.getByTestId('pdf-viewer')).toBeHidden();

  // Online again: the upload is sent (registration, bytes, attachment) exactly once.
  await context.setOffline(false);
  await waitForEmptyOutbox(page, 90_000);
  await expect(row.getByTestId('not-synced')).toBeHidden({ timeout: 30_000 });

  // A second tablet (another context), held upright: the technician sees the document after the sync.
  const other = await browser.newContext({ baseURL: machineUrl.origin, locale: 'de-DE', timezoneId: 'Europe/Berlin', viewport: TABLET_PORTRAIT, hasTouch: true });
  const violations = await watchCsp(other);
  const second = await other.newPage();
  await readyForOffline(second, 'technician');
  await second.goto(`/machine-overview?nodeid=${nodeid}&tab=2`);
  const seen = category(second, 'operation').getByTestId('document-row').filter({ hasText: 'Betriebsanleitung BAZ 02' });
  await expect(seen).toBeVisible({ timeout: 60_000 });
  await expect(seen).toContainText('Kapitel 1–2, Stand 2026');
  // The technician may add documents but not edit or delete them (equipment.attachment: create, read).
  await expect(seen.getByTestId('document-edit')).toHaveCount(0);
  await expect(seen.getByTestId('document-delete')).toHaveCount(0);
  await expect(category(second, 'operation').getByTestId('documents-upload')).toBeVisible();
  await second.screenshot({ path: `${SHOTS}/documentation-800x1280.png`, fullPage: true });
  // Opened once online (the server's signed download) …
  await seen.getByTestId('document-open').click();
  await expectPdfPage(second, 1, 2);
  await second.getByRole('button', { name: 'Schließen' }).click();
  // … it stays readable without a network.
  await other.setOffline(true);
  await seen.getByTestId('document-open').click();
  await expectPdfPage(second, 1, 2);
  await second.getByTestId('pdf-next').click();
  await expectPdfPage(second, 2, 2);
  await second.screenshot({ path: `${SHOTS}/viewer-offline-800x1280.png` });
  await other.close();
  expectNoCspViolations(violations);

  // Edit (title, description, category) and delete with the confirmation, as the admin.
  await row.getByTestId('document-edit').click();
  const edit = page.getByTestId('document-edit-dialog');
  await edit.getByTestId('document-edit-title').fill('Bedienungsanleitung BAZ 02');
  await edit.getByTestId('document-edit-category').selectOption('maintenance');
  await page.screenshot({ path: `${SHOTS}/edit-dialog-1280x800.png` });
  await edit.getByTestId('document-edit-save').click();
  await expect(edit).toBeHidden();
  const moved = category(page, 'maintenance').getByTestId('document-row').filter({ hasText: 'Bedienungsanleitung BAZ 02' });
  await expand(page, 'maintenance');
  await expect(moved).toBeVisible();
  await expect(category(page, 'operation').getByTestId('documents-count')).toHaveText(String(operationCount));
  await expect(category(page, 'maintenance').getByTestId('documents-count')).toHaveText(String(maintenanceCount + 1));

  await moved.getByTestId('document-delete').click();
  const confirm = page.getByTestId('confirm-delete-dialog');
  await expect(confirm).toContainText('Dokument Bedienungsanleitung BAZ 02 endgültig löschen?');
  await expect(confirm.getByRole('button', { name: 'ABBRECHEN' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/delete-confirm-1280x800.png` });
  await confirm.getByRole('button', { name: 'ABBRECHEN' }).click();
  await expect(moved).toBeVisible();
  await moved.getByTestId('document-delete').click();
  await confirm.getByRole('button', { name: 'LÖSCHEN' }).click();
  await expect(moved).toHaveCount(0);
  await waitForEmptyOutbox(page, 60_000);
  await expect(category(page, 'maintenance').getByTestId('documents-count')).toHaveText(String(maintenanceCount));
});
