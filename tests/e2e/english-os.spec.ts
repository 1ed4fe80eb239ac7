/**
 * A tablet whose operating system is English runs the German app: every time field still shows 24 h HH:mm.
 * Chromium draws <input type="time"> in the browser's locale ("10:00 PM"), so this file starts its own browser in
 * English (process language, --lang, the context's locale) instead of the German default of playwright.config.ts.
 */
import { expect, test } from './support/test';
import { loginAs, StructurePages } from './support/pages';

test.use({
  locale: 'en-US',
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    env: { ...process.env, LANGUAGE: 'en', LANG: 'en_US.UTF-8' },
    args: ['--no-sandbox', '--lang=en-US', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  },
});

test.describe.configure({ timeout: 240_000 });

test('with an English browser the shift editor shows and takes 24-hour times', async ({ page }, testInfo) => {
  expect(await page.evaluate(() => navigator.language)).toBe('en-US');
  const structure = new StructurePages(page);
  await loginAs(page, 'admin');
  await structure.waitForSync();
  await structure.openPlants();
  await structure.openPlant('Werk Stuttgart');
  await structure.area('Halle 1 – Zerspanung').getByTestId('area-edit').click();
  const row = structure.shiftRow(0);
  await expect(row).toBeVisible();

  for (const field of [row.getByTestId('shift-start'), row.getByTestId('shift-end')]) {
    await expect(field).toHaveValue(/^([01]\d|2[0-3]):[0-5]\d$/);
    // What is drawn is the value itself: a text field, not the browser's locale-dependent time picker.
    await expect(field).toHaveAttribute('type', 'text');
  }

  await row.getByTestId('shift-end').fill('22:00');
  await expect(row.getByTestId('shift-end')).toHaveValue('22:00');
  // A short entry is completed to HH:mm when the field is left.
  await row.getByTestId('shift-start').fill('630');
  await row.getByTestId('shift-start').blur();
  await expect(row.getByTestId('shift-start')).toHaveValue('06:30');
  await expect(row.getByText(/\b(AM|PM)\b/)).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('shift-editor-english-os.png') });
});
