/**
 * Issue #14: what a new user tripped over, checked at both tablet sizes — the equipment form opens without
 * errors, marks required fields one way and shows values of realistic length in full; the sync button says to a
 * screen reader what it shows, and portrait shows its short text too.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { EquipmentFormPage, loginAs, navigateInApp, TABLET_LANDSCAPE, TABLET_PORTRAIT } from './support/pages';
import { SyncStatus } from './support/machine-pages';

test.describe.configure({ timeout: 240_000 });

/** Form controls whose value does not fit: inputs by their scroll width, selects by the chosen option's drawn text. */
function truncatedValues(page: Page) {
  return page.getByTestId('equipment-form').evaluate((form) => {
    const canvas = document.createElement('canvas').getContext('2d')!;
    const cut: string[] = [];
    for (const el of form.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input:not([type=file]):not([type=checkbox]), select')) {
      if (el.offsetParent === null) continue;
      const style = getComputedStyle(el);
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      canvas.font = style.font;
      const text = el instanceof HTMLSelectElement ? (el.selectedOptions[0]?.text ?? '') : el.value;
      const width = el instanceof HTMLSelectElement ? canvas.measureText(text).width : el.scrollWidth > el.clientWidth ? Infinity : 0;
      if (width > room) cut.push(`${el.dataset.testid ?? el.getAttribute('aria-label')}: "${text}" (${Math.round(width)} > ${Math.round(room)} px)`);
    }
    return cut;
  });
}

/** Picks the option with the longest text, as the longest real value the demo plant offers. */
async function chooseLongest(page: Page, testId: string) {
  const select = page.getByTestId(testId);
  const options = await select.locator('option').evaluateAll((all) => all.map((option) => ({ value: (option as HTMLOptionElement).value, text: option.textContent ?? '' })));
  const longest = options.filter((option) => option.value && option.value !== '__new__').sort((a, b) => b.text.length - a.text.length)[0];
  if (longest) await select.selectOption(longest.value);
}

test('the login screen loads neither the equipment form nor PDF, QR code or scanner code (split by route)', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Anmelden' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.some((path) => path.includes('login-screen'))).toBe(true);
  expect(scripts.filter((path) => /equipment-form|service-sticker|sticker-pdf|jspdf|qrcode|html5|scan-dialog/i.test(path))).toEqual([]);
});

for (const [name, viewport] of [['landscape', TABLET_LANDSCAPE], ['portrait', TABLET_PORTRAIT]] as const) {
  test(`tablet ${name}: the sync button's name is its text, and the equipment form opens calm and readable`, async ({ page }, testInfo) => {
    await page.setViewportSize(viewport);
    await loginAs(page, 'admin');
    const sync = new SyncStatus(page);
    // During the first sync and after it: what is read out is what is shown (in portrait too, not only an icon).
    for (const moment of ['first sync', 'synced']) {
      if (moment === 'synced') await sync.waitUntilSynced();
      const headline = sync.button().getByTestId('sync-headline');
      await expect(headline).toBeVisible();
      // why toPass: the first sync may end between reading the text and reading the name; both are read again then.
      await expect(async () => {
        const shown = (await sync.button().innerText()).replace(/\s+/g, ' ').trim();
        await expect(sync.button()).toHaveAccessibleName(shown, { timeout: 1_000 });
      }).toPass({ timeout: 15_000 });
    }
    await expect(sync.button().getByTestId('sync-headline')).toHaveText('Synchronisiert');

    await navigateInApp(page, '/create-machine');
    const form = new EquipmentFormPage(page);
    await form.waitForCatalogue();
    // Nothing typed yet: no errors. Required fields carry the one required sign.
    await expect(page.getByText('Pflichtfeld')).toHaveCount(0);
    await expect(page.getByText('Bitte einen Equipment Pool oder einen Bereich wählen.')).toHaveCount(0);
    for (const label of ['Marke', 'Typ', 'Interner Name', 'Baujahr']) {
      await expect(page.getByTestId('equipment-form').locator('label').filter({ hasText: new RegExp(`^${label}\\s*\\*$`) })).toHaveCount(1);
    }
    await page.screenshot({ path: testInfo.outputPath(`equipment-form-empty-${name}.png`) });
    // A tap on save (it looks disabled) says what is missing.
    await expect(form.submit()).toBeDisabled();
    await form.submit().click({ force: true });
    await expect(page.getByText('Pflichtfeld')).toHaveCount(4);
    await expect(page.getByText('Bitte einen Equipment Pool oder einen Bereich wählen.')).toHaveCount(2);

    // Values of realistic length are shown in full.
    await chooseLongest(page, 'equipment-brand-select');
    await chooseLongest(page, 'equipment-type-select');
    await form.field('name').fill('KOM 03 Kompressor Chemnitz');
    await form.field('equipmentid').fill('CHE-KOM-03-2019');
    await form.field('costcenter').fill('4711-Instandhaltung');
    await chooseLongest(page, 'equipment-class');
    await form.field('constructionyear').selectOption('2018');
    await page.getByTestId('controller-manufacturer').fill('Kaeser Kompressoren');
    await page.getByTestId('controller-type').fill('SIGMA CONTROL 2');
    await chooseLongest(page, 'equipment-pool');
    await chooseLongest(page, 'equipment-site');
    await chooseLongest(page, 'equipment-area');
    expect(await truncatedValues(page)).toEqual([]);
    // Labels in one row start their fields on one line ("Steuerungshersteller" no longer pushes its field down).
    const tops = await page.getByTestId('section-controller').locator('input').evaluateAll((inputs) => inputs.map((input) => Math.round(input.getBoundingClientRect().top)));
    expect(new Set(tops.filter((top, index) => index === 0 || Math.abs(top - tops[0]!) < 40)).size).toBe(1);
    await page.getByTestId('section-assignment').scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`equipment-form-filled-${name}.png`) });
  });
}
