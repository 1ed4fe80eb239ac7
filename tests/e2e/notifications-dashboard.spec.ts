/**
 * The notifications dashboard end to end (issue #13): the technician's followed machines' notifications, open ones
 * first; each filter (type, status, machine, date range), search and sort narrow or order what the list shows; the
 * filters are there again after leaving the screen; offline the list still reads, and a notification reported
 * offline shows in it at once. Checks read the rows' data attributes (type, status, created), not the demo's texts.
 */
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { MachineListPage, MachinePage, SyncStatus } from './support/machine-pages';
import { takeOfflineReady } from './support/offline';
import { loginAs, shotsDir, smallTouchTargets, TABLET_LANDSCAPE, TABLET_PORTRAIT } from './support/pages';

const SHOTS = shotsDir('ndash');
const de = JSON.parse(readFileSync('src/client/i18n/de.json', 'utf8')) as { notification: { type: Record<string, string> } };
const typeLabel = (type: number) => de.notification.type[String(type)]!;

const rows = (page: Page) => page.getByTestId('dashboard-notification');
const filters = (page: Page) => page.getByTestId('dashboard-filters').first();

async function attributes(list: Locator, name: string): Promise<string[]> {
  return list.evaluateAll((elements, attribute) => elements.map((el) => el.getAttribute(attribute) ?? ''), name);
}

async function openFromNav(page: Page, name: string) {
  const menu = page.getByRole('button', { name: 'Navigation öffnen' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
}

async function expectSorted(page: Page, attribute: string, direction: 'asc' | 'desc') {
  await expect(async () => {
    const values = (await attributes(rows(page), attribute)).map(Number);
    expect(values.length).toBeGreaterThan(1);
    const sorted = [...values].sort((a, b) => (direction === 'asc' ? a - b : b - a));
    expect(values).toEqual(sorted);
  }).toPass();
}

/** Serious or critical axe findings (WCAG 2.x A/AA), after animations settle (as accessibility.spec.ts does). */
async function axeFindings(page: Page, screen: string): Promise<string[]> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity));
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${screen}: ${violation.id} ${violation.nodes.slice(0, 3).map((node) => node.html.slice(0, 100)).join(' | ')}`);
}

async function screenshots(page: Page, file: string, portraitDrawer = false) {
  for (const [name, viewport] of [['1280x800', TABLET_LANDSCAPE], ['800x1280', TABLET_PORTRAIT]] as const) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${SHOTS}/${file}-${name}.png` });
    expect(await smallTouchTargets(page), `${file} ${name}`).toEqual([]);
    expect(await axeFindings(page, `${file} ${name}`)).toEqual([]);
    if (portraitDrawer && name === '800x1280') {
      await page.getByRole('button', { name: 'Filter öffnen' }).click();
      await expect(page.getByRole('dialog', { name: 'Filter' })).toBeVisible();
      await page.waitForTimeout(400);
      await page.screenshot({ path: `${SHOTS}/${file}-drawer-${name}.png` });
      expect(await axeFindings(page, `${file} drawer`)).toEqual([]);
      await page.getByRole('button', { name: 'Filter schließen' }).click();
      await expect(page.getByRole('dialog', { name: 'Filter' })).toBeHidden();
    }
  }
  await page.setViewportSize(TABLET_LANDSCAPE);
}

test('filters, search and sort over the followed machines, kept across visits; offline it reads and shows a new report', async ({ page, context }) => {
  test.setTimeout(300_000);
  await page.setViewportSize(TABLET_LANDSCAPE);
  await loginAs(page, 'technician');
  await takeOfflineReady(page);
  await new SyncStatus(page).waitUntilSynced();

  await openFromNav(page, 'Meldungen');
  await expect(page).toHaveURL(/\/notifications-dashboard$/);
  // The app bar carries the page's title.
  await expect(page.getByRole('banner').getByRole('heading', { name: 'Meldungen', level: 1 })).toBeVisible();
  await expect(rows(page).first()).toBeVisible();

  await test.step('by default: open and in-progress ones, newest first, with the count', async () => {
    expect(new Set(await attributes(rows(page), 'data-status'))).not.toContain('2');
    await expectSorted(page, 'data-created', 'desc');
    await expect(page.getByTestId('dashboard-count')).toHaveText(/^\d+ Meldung(en)?$/);
    await screenshots(page, 'list', true);
  });

  await test.step('type: only the chosen type', async () => {
    const type = Number((await attributes(rows(page), 'data-type'))[0]);
    const button = filters(page).getByRole('button', { name: typeLabel(type), exact: true });
    await button.click();
    await expect(button).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(async () => new Set(await attributes(rows(page), 'data-type'))).toEqual(new Set([String(type)]));
    await button.click();
    await expect(button).toHaveAttribute('aria-pressed', 'false');
  });

  await test.step('status: closed ones only when asked for', async () => {
    await filters(page).getByRole('button', { name: 'Erledigt', exact: true }).click();
    await filters(page).getByRole('button', { name: 'Offen', exact: true }).click();
    await filters(page).getByRole('button', { name: 'In Bearbeitung', exact: true }).click();
    await expect.poll(async () => new Set(await attributes(rows(page), 'data-status'))).toEqual(new Set(['2']));
    // The last status cannot be switched off (an empty choice would always show nothing).
    await filters(page).getByRole('button', { name: 'Erledigt', exact: true }).click();
    await expect(filters(page).getByRole('button', { name: 'Erledigt', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await filters(page).getByRole('button', { name: 'Filter zurücksetzen' }).click();
    await expect.poll(async () => new Set(await attributes(rows(page), 'data-status'))).not.toContain('2');
  });

  await test.step('machine: only its notifications', async () => {
    const firstMachine = (await rows(page).first().getByTestId('dashboard-notification-machine').textContent())!.split(' · ')[0]!;
    await filters(page).getByLabel('Maschine').selectOption({ label: firstMachine });
    await expect.poll(async () => (await rows(page).getByTestId('dashboard-notification-machine').allTextContents()).every((text) => text.startsWith(`${firstMachine} · `))).toBe(true);
    await filters(page).getByLabel('Maschine').selectOption({ label: 'Alle Maschinen' });
  });

  await test.step('date range: only that day', async () => {
    await expect.poll(() => rows(page).count()).toBeGreaterThan(3);
    const created = Number((await attributes(rows(page), 'data-created'))[3]);
    // The day in the browser's time zone (the test runner's may differ).
    const { input, start, end } = await page.evaluate((at) => {
      const day = new Date(at);
      const pad = (n: number) => String(n).padStart(2, '0');
      return {
        input: `${pad(day.getDate())}.${pad(day.getMonth() + 1)}.${day.getFullYear()}`,
        start: new Date(day.getFullYear(), day.getMonth(), day.getDate()).getTime(),
        end: new Date(day.getFullYear(), day.getMonth(), day.getDate() + 1).getTime(),
      };
    }, created);
    // Typed as the app shows dates: text fields, not native date inputs, which show the format of the browser's language.
    await expect(filters(page).getByLabel('Von')).toHaveAttribute('placeholder', 'TT.MM.JJJJ');
    await filters(page).getByLabel('Von').fill(input);
    await filters(page).getByLabel('Bis').fill(input);
    await expect(filters(page).getByLabel('Von')).toHaveValue(input);
    await expect(filters(page).getByLabel('Bis')).toHaveValue(input);
    await expect.poll(async () => (await attributes(rows(page), 'data-created')).map(Number).every((at) => at >= start && at < end)).toBe(true);
    await expect(page.locator(`[data-testid="dashboard-notification"][data-created="${created}"]`).first()).toBeVisible();
    // A text that is no day is said once the field is left, and the bound stops acting — the list is filtered neither
    // by a guess nor by the day the field showed before (it was: "Von" went on at the old day under "31.02.2026").
    await filters(page).getByLabel('Von').fill('31.02.2026');
    await filters(page).getByLabel('Bis').focus();
    await expect(filters(page).getByText('Dieses Datum gibt es nicht.')).toBeVisible();
    await expect.poll(async () => (await attributes(rows(page), 'data-created')).map(Number).every((at) => at < end)).toBe(true);
    await expect.poll(async () => (await attributes(rows(page), 'data-created')).map(Number).some((at) => at < start)).toBe(true);
    await filters(page).getByLabel('Von').fill('5.3.');
    await filters(page).getByLabel('Bis').focus();
    await expect(filters(page).getByText('Bitte ein Datum als TT.MM.JJJJ eingeben, z. B. 05.03.2026.')).toBeVisible();
    await filters(page).getByRole('button', { name: 'Filter zurücksetzen' }).click();
    await expect(filters(page).getByLabel('Von')).toHaveValue('');
    await expect(filters(page).getByLabel('Bis')).toHaveValue('');
  });

  await test.step('search: title, case-insensitive', async () => {
    const title = (await rows(page).nth(1).getByTestId('dashboard-notification-title').textContent())!;
    const part = title.slice(0, Math.min(12, title.length)).toUpperCase();
    await page.getByRole('searchbox', { name: 'Suche' }).fill(part);
    await expect.poll(async () => (await rows(page).getByTestId('dashboard-notification-title').allTextContents()).every((text) => text.toUpperCase().includes(part))).toBe(true);
    await expect(rows(page).getByTestId('dashboard-notification-title').filter({ hasText: title })).not.toHaveCount(0);
    await page.getByRole('searchbox', { name: 'Suche' }).fill('zzz-nichts-passt-zzz');
    await expect(page.getByTestId('dashboard-empty')).toContainText('Keine Meldung passt zu den Filtern.');
    await screenshots(page, 'empty-filtered');
    await page.getByTestId('dashboard-empty').getByRole('button', { name: 'Filter zurücksetzen' }).click();
    await expect(page.getByRole('searchbox', { name: 'Suche' })).toHaveValue('');
  });

  await test.step('sort: created ascending, then by type', async () => {
    await page.getByLabel('Sortierung').selectOption({ label: 'Erstellt' });
    await page.getByRole('button', { name: /^Sortierrichtung umkehren/ }).click();
    await expectSorted(page, 'data-created', 'asc');
    await page.getByLabel('Sortierung').selectOption({ label: 'Typ' });
    await expectSorted(page, 'data-type', 'asc');
  });

  await test.step('the filters and the sort are there again after leaving the screen', async () => {
    const type = Number((await attributes(rows(page), 'data-type'))[0]);
    await filters(page).getByRole('button', { name: typeLabel(type), exact: true }).click();
    await page.getByRole('searchbox', { name: 'Suche' }).fill('a');
    await openFromNav(page, 'Dashboard');
    await expect(page).toHaveURL(/\/dashboard$/);
    await openFromNav(page, 'Meldungen');
    await expect(filters(page).getByRole('button', { name: typeLabel(type), exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('searchbox', { name: 'Suche' })).toHaveValue('a');
    await expect(page.getByLabel('Sortierung')).toHaveValue('type');
    await expect(page.getByRole('button', { name: /^Sortierrichtung umkehren/ })).toHaveAttribute('data-direction', 'asc');
    // And after a reload (a new visit).
    await page.reload();
    await expect(page.getByRole('searchbox', { name: 'Suche' })).toHaveValue('a');
    await filters(page).getByRole('button', { name: 'Filter zurücksetzen' }).click();
    await page.getByLabel('Sortierung').selectOption({ label: 'Erstellt' });
    await page.getByRole('button', { name: /^Sortierrichtung umkehren/ }).click();
    await expect(page.getByRole('button', { name: /^Sortierrichtung umkehren/ })).toHaveAttribute('data-direction', 'desc');
    // why: the button flips at once, the list is read again after it; the next step reads the first row, which must
    // be the newest one, not the oldest of the list still sorted the other way (then out of the virtual window).
    await expectSorted(page, 'data-created', 'desc');
  });

  await test.step('a row opens the notification, and its way back leads here', async () => {
    const title = (await rows(page).first().getByTestId('dashboard-notification-title').textContent())!;
    // why by its title, not "the first row again": the list is live, and a notification another device reports in
    // between (the suite shares one server) becomes the first row before the click.
    await rows(page).filter({ has: page.getByTestId('dashboard-notification-title').getByText(title, { exact: true }) }).first().click();
    await expect(page).toHaveURL(/\/notification-details\?nodeid=/);
    await expect(page.getByText(title).first()).toBeVisible();
    await page.getByRole('link', { name: 'Zu den Meldungen' }).click();
    await expect(page).toHaveURL(/\/notifications-dashboard$/);
  });

  await test.step('offline: the list reads from the device, and a notification reported offline shows at once', async () => {
    const machine = (await rows(page).first().getByTestId('dashboard-notification-machine').textContent())!.split(' · ')[0]!;
    await context.setOffline(true);
    await page.reload();
    await expect(rows(page).first()).toBeVisible();
    await openFromNav(page, 'Dashboard');
    await new MachineListPage(page).open(machine);
    const title = `Offline gemeldet im Meldungs-Dashboard ${Date.now()}`;
    await new MachinePage(page).reportFault({ title });
    await openFromNav(page, 'Meldungen');
    await expect(rows(page).first().getByTestId('dashboard-notification-title')).toHaveText(title);
    await expect(rows(page).first().getByTestId('dashboard-notification-machine')).toContainText(machine);
    await screenshots(page, 'offline-new');
    await context.setOffline(false);
  });
});
