/**
 * The notification form on a tablet whose operating system is English: date and time stay DD.MM.YYYY and 24 h HH:mm
 * (spec part 2 §9), the time on the 5-minute step (part 1 §9). Its own file because the browser's language is a
 * launch option (see english-os.spec.ts). Opened from the dashboard, the machine chosen with the picker's search.
 */
import { expect, test } from './support/test';
import { loginAs } from './support/pages';
import { SyncStatus } from './support/machine-pages';

test.use({
  locale: 'en-US',
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    env: { ...process.env, LANGUAGE: 'en', LANG: 'en_US.UTF-8' },
    args: ['--no-sandbox', '--lang=en-US', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  },
});

test.describe.configure({ timeout: 240_000 });

test('with an English browser the notification form shows and takes 24-hour times on the 5-minute step', async ({ page }) => {
  expect(await page.evaluate(() => navigator.language)).toBe('en-US');
  await loginAs(page, 'admin');
  await new SyncStatus(page).waitUntilSynced(150_000);
  await page.getByTestId('dashboard-new-notification').click();
  await expect(page).toHaveURL(/\/create-notification$/);

  // No machine preset from the dashboard: the picker's search finds one by name.
  await page.getByTestId('equipment-picker-search').fill('baz 01');
  await page.getByTestId('equipment-picker-list').getByRole('button', { name: /BAZ 01 Fräszentrum/ }).click();
  await expect(page.getByTestId('equipment-picker-chosen')).toContainText('BAZ 01 Fräszentrum');

  const time = page.getByTestId('notification-time-input');
  await expect(time).toHaveAttribute('type', 'text');
  await expect(time).toHaveValue(/^([01]\d|2[0-3]):[0-5][05]$/);
  await expect(page.getByTestId('notification-date-input')).toHaveValue(/^\d{2}\.\d{2}\.\d{4}$/);
  await time.fill('2233');
  await time.blur();
  await expect(time).toHaveValue('22:30');
  await time.fill('715');
  await time.blur();
  await expect(time).toHaveValue('07:15');
  await expect(page.getByTestId('notification-form').getByText(/\b(AM|PM)\b/)).toHaveCount(0);
});
