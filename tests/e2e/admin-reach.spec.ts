/**
 * A new admin's walkthrough (2026-12-02): once the organisation had machines, nothing in the app led to the
 * equipment form, and the brand and class forms were linked from nowhere at all — only a typed address reached them.
 * The machines screen now offers them; who may not create or change equipment does not see the buttons.
 */
import { expect, test } from './support/test';
import { loginAs, TABLET_LANDSCAPE, TABLET_PORTRAIT } from './support/pages';

test.describe.configure({ timeout: 180_000 });

test('an admin reaches the equipment form, brands and classes from the machines screen', async ({ page }) => {
  await page.setViewportSize(TABLET_LANDSCAPE);
  await loginAs(page, 'admin');
  await page.getByRole('link', { name: 'Maschinen' }).first().click();
  await expect(page.getByTestId('machine-line-link').first()).toBeVisible({ timeout: 150_000 });

  await page.getByTestId('equipment-create').click();
  await expect(page).toHaveURL(/\/create-machine$/);
  await page.goBack();

  const brands = page.getByTestId('catalogue-brands');
  await expect(brands.getByRole('link', { name: /^TruBend/ })).toBeVisible();
  await brands.getByRole('link', { name: /^TruBend/ }).click();
  await expect(page).toHaveURL(/\/edit-brand\?nodeid=/);
  await expect(page.getByTestId('brand-name')).toHaveValue('TruBend');
  await page.goBack();

  await page.getByTestId('brand-create').click();
  await expect(page).toHaveURL(/\/create-brand$/);
  await page.goBack();

  const classes = page.getByTestId('catalogue-classes');
  const firstClass = classes.getByTestId('catalogue-class-link').first();
  const className = (await firstClass.textContent())?.trim() ?? '';
  expect(className).not.toBe('');
  await firstClass.click();
  await expect(page).toHaveURL(/\/edit-equipment-class\?nodeid=/);
  await expect(page.getByTestId('class-name')).toHaveValue(className);
  await page.goBack();

  await page.getByTestId('class-create').click();
  await expect(page).toHaveURL(/\/create-equipment-class$/);
});

test('the catalogue fits a portrait tablet', async ({ page }) => {
  await page.setViewportSize(TABLET_PORTRAIT);
  await loginAs(page, 'admin');
  await page.goto('/machines');
  await expect(page.getByTestId('catalogue-brands').getByRole('link').first()).toBeVisible({ timeout: 150_000 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('a reader sees the catalogue without buttons to change it', async ({ page }) => {
  await page.setViewportSize(TABLET_LANDSCAPE);
  await loginAs(page, 'reader');
  await page.goto('/machines');
  await expect(page.getByTestId('machine-line-link').first()).toBeVisible({ timeout: 150_000 });
  await expect(page.getByTestId('equipment-create')).toHaveCount(0);
  await expect(page.getByTestId('brand-create')).toHaveCount(0);
  await expect(page.getByTestId('class-create')).toHaveCount(0);
  await expect(page.getByTestId('catalogue-brands').getByRole('link')).toHaveCount(0);
});

// The equipment form goes to the plant's page after saving a machine of an area; there the machine was a name in a
// comma list, cut off in a larger area and opening nothing.
test("a plant's page opens each machine of its areas", async ({ page }) => {
  await page.setViewportSize(TABLET_PORTRAIT);
  await loginAs(page, 'admin');
  await page.goto('/sites');
  await page.getByText('Werk Stuttgart', { exact: true }).first().click({ timeout: 150_000 });
  const area = page.getByTestId('area-item').filter({ has: page.getByTestId('area-name').getByText('Halle 1 – Zerspanung', { exact: true }) });
  await expect(area.getByTestId('machine-line-link')).toHaveCount(11);
  await area.getByTestId('machine-line-link').filter({ hasText: 'ROB 01 Beladezelle BAZ 05' }).click();
  await expect(page).toHaveURL(/\/machine-overview\?nodeid=/);
  await expect(page.getByText('ROB 01 Beladezelle BAZ 05').first()).toBeVisible();
  // Its breadcrumb leads back to the plant, not to the dashboard.
  await page.getByRole('link', { name: 'Zurück zum Werk' }).click();
  await expect(page).toHaveURL(/\/sites\?sitenodeid=/);
  await expect(area.getByTestId('machine-line-link')).toHaveCount(11);
});
