/**
 * An admin setting up a plant (exploratory round, 2026-12-01): the machines screen opens a machine (the machines
 * of a deleted area are listed only there), in people's order; and a CSV file the way Excel leaves it — a `sep=;`
 * first line, rows emptied to `;;;;`, blank lines — is read as Excel shows it, with errors naming Excel's row.
 */
import { expect, test } from './support/test';
import { EquipmentFormPage, loginAs, navigateInApp, TABLET_LANDSCAPE } from './support/pages';

test.describe.configure({ timeout: 180_000 });

test('the machines screen links each machine to its screen', async ({ page }) => {
  await page.setViewportSize(TABLET_LANDSCAPE);
  await loginAs(page, 'admin');
  await page.goto('/machines');
  const link = page.getByTestId('machine-line-link').filter({ hasText: 'KMG 01 Messraum' });
  await expect(link).toBeVisible({ timeout: 150_000 });
  await link.click();
  await expect(page).toHaveURL(/\/machine-overview\?nodeid=/);
  await expect(page.getByText('KMG 01 Messraum').first()).toBeVisible();
  await page.goBack();
  await expect(page.getByTestId('machine-line-link').first()).toBeVisible();
});

test("a CSV as Excel leaves it: sep= line, emptied rows and blank lines are no rows, errors name Excel's row", async ({ page }) => {
  await page.setViewportSize(TABLET_LANDSCAPE);
  await loginAs(page, 'admin');
  await page.goto('/export');
  // The first sync has brought the catalogue and the pools (the sticker list shows the demo's machines).
  await expect(page.getByTestId('sticker-sheet-list')).toContainText('KMG 01 Messraum', { timeout: 150_000 });
  const choose = (text: string) => page.getByTestId('csv-import-input').setInputFiles({ name: 'Excel.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${text}`, 'utf8') });
  const header = 'Interner Name;Marke;Typ;Baujahr;Equipment Pool';
  const good = 'E2E Messplatz Süd;ZEISS;CONTURA 10/12/6;2019;Messmittel & Prüfgeräte';
  const future = 'E2E Zukunft;ZEISS;CONTURA 10/12/6;2099;Messmittel & Prüfgeräte';
  // Excel rows: 1 header, 2 emptied, 3 good, 4 blank, 5 future build year.
  await choose(['sep=;', header, ';;;;', good, '', future, ';;;;', ''].join('\r\n'));
  const rows = page.getByTestId('csv-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute('data-action', 'create');
  await expect(rows.nth(0).locator('td').first()).toHaveText('3');
  await expect(rows.nth(1)).toHaveAttribute('data-action', 'error');
  await expect(rows.nth(1).locator('td').first()).toHaveText('5');
  await expect(page.getByTestId('csv-run-import')).toBeDisabled();

  // Without the bad row the file can be taken over: the emptied rows block nothing.
  await choose(['sep=;', header, ';;;;', good, ';;;;', ''].join('\r\n'));
  await expect(rows).toHaveCount(1);
  await expect(page.getByTestId('csv-error-count')).toHaveText('0 Zeilen mit Fehlern');
  await expect(page.getByTestId('csv-run-import')).toBeEnabled();
});

// An admin's walkthrough: the form saved a second machine with STR-BAZ-06 while the CSV import refuses that.
test('the equipment form names the machine that already has an Equipment-ID and does not save a second', async ({ page }) => {
  await page.setViewportSize(TABLET_LANDSCAPE);
  await loginAs(page, 'admin');
  await expect(page.getByText('Synchronisiert', { exact: true })).toBeVisible({ timeout: 150_000 });
  await navigateInApp(page, '/create-machine');
  const form = new EquipmentFormPage(page);
  await form.waitForCatalogue();
  await page.getByTestId('equipment-equipmentid').fill(' str-baz-06 ');
  await expect(page.getByTestId('equipment-equipmentid-taken')).toHaveText('Diese Equipment-ID hat schon „BAZ 06 Horizontal-BAZ“ – jede Maschine braucht eine eigene.');
  await expect(page.getByTestId('equipment-submit')).toHaveAttribute('aria-disabled', 'true');
  await page.getByTestId('equipment-equipmentid').fill('STR-BAZ-99');
  await expect(page.getByTestId('equipment-equipmentid-taken')).toHaveCount(0);
});
