/**
 * The machine history tab (spec part 1 §2.1) offline: the timeline from the device's mirror grouped by year between
 * "today" and the build year, the filters (type without 3/4/5, status, typed date range) each acting only when set,
 * reset, the "Equipment Report" PDF (rendered to PNG and looked at), the way into a notification and back, the
 * empty text, and no export without the `export` create permission.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { loginAs, navigateInApp, shotsDir, smallTouchTargets, TABLET_LANDSCAPE, TABLET_PORTRAIT } from './support/pages';
import { ApiClient, MachineListPage, MachinePage, SyncStatus } from './support/machine-pages';
import { apiLogin, takeOfflineReady } from './support/offline';

const MACHINE = 'BAZ 02 Fräszentrum';
const BUILD_YEAR = 2014;
const EMPTY_TEXT = 'Die Maschinenhistorie weiß bisher noch keine Meldungen auf.';
/** Screenshots and the report, kept for a person to look at; E2E_SHOTS_DIR puts them elsewhere. */
const SHOTS = shotsDir('history');

interface ServerNotification {
  nodeid: string;
  type: number;
  status: number;
  created: number;
  equipmentnodeid: string;
}

/** The calendar day the tablet (Europe/Berlin, playwright.config.ts) shows for a time, as YYYY-MM-DD. */
const berlinDay = (ms: number) => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);
const berlinDate = (ms: number) => new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric' }).format(ms);

class HistoryTab {
  constructor(private readonly page: Page) {}

  readonly tab = () => this.page.getByRole('tab', { name: 'Historie' });
  readonly type = () => this.page.getByRole('combobox', { name: 'Meldungsart' });
  readonly status = () => this.page.getByRole('combobox', { name: 'Status' });
  readonly from = () => this.page.getByRole('textbox', { name: 'Von' });
  readonly to = () => this.page.getByRole('textbox', { name: 'Bis' });
  readonly reset = () => this.page.getByRole('button', { name: 'Zurücksetzen' });
  readonly exportButton = () => this.page.getByRole('button', { name: 'PDF-Bericht' });
  readonly count = () => this.page.getByTestId('history-count');
  readonly entries = () => this.page.getByTestId('history-entry');
  readonly years = () => this.page.getByTestId('history-year');

  async open() {
    await this.tab().click();
    await expect(this.page).toHaveURL(/tab=1/);
    await expect(this.page.getByTestId('history-start')).toBeVisible();
  }

  async expectShown(shown: number, total: number) {
    await expect(this.count()).toHaveText(`${shown} von ${total} Meldungen`);
  }

  /** The rendered rows' attribute (the timeline is virtualized: the rows near the screen). */
  renderedAttribute(name: 'data-type' | 'data-status'): Promise<(string | null)[]> {
    return this.entries().evaluateAll((rows, attribute) => rows.map((row) => row.getAttribute(attribute)), name);
  }
}

async function screenshots(page: Page, name: string) {
  for (const [orientation, viewport] of [['landscape', TABLET_LANDSCAPE], ['portrait', TABLET_PORTRAIT]] as const) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(page.getByTestId('history-start')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/${name}-${orientation}.png`, fullPage: false });
    expect(await smallTouchTargets(page), `${name} ${orientation}`).toEqual([]);
  }
  await page.setViewportSize(TABLET_LANDSCAPE);
}

test('offline: read a machine history, filter by type, status and dates, reset, export the Equipment Report and come back from a notification', async ({ page, context, request }) => {
  test.setTimeout(360_000);
  mkdirSync(SHOTS, { recursive: true });

  // What the server knows, through the API as another client: the machine and its notifications.
  const feed = await (await ApiClient.login(request, 'admin')).pullAll();
  const machineRow = (feed.get('equipment') ?? []).find((row) => row.name === MACHINE);
  expect(machineRow, MACHINE).toBeTruthy();
  const notifications = ((feed.get('notifications') ?? []) as unknown as ServerNotification[]).filter((n) => n.equipmentnodeid === machineRow!.nodeid);
  const total = notifications.length;
  expect(total, 'the demo machine has a history of several years').toBeGreaterThan(20);
  const years = [...new Set(notifications.map((n) => Number(berlinDay(n.created).slice(0, 4))))].sort((a, b) => b - a);
  expect(years.length).toBeGreaterThan(2);

  // A machine without any notification, from another device, for the empty text.
  const admin = await apiLogin(request, 'admin');
  const template = (feed.get('equipment') ?? []).find((row) => typeof row.areanodeid === 'string');
  const emptyName = `Presse Neuanlage ${Date.now()}`;
  const created = await request.post('/api/equipments', {
    headers: { authorization: `Bearer ${admin.accesstoken}` },
    data: { lang: 'de', equipmentnodeid: randomUUID(), name: emptyName, constructiondate: Date.UTC(2026, 0, 1), equipmenttypenodeid: template!.equipmenttypenodeid, isequipmentof: [template!.areanodeid] },
  });
  expect(created.status(), await created.text()).toBe(201);

  await page.setViewportSize(TABLET_LANDSCAPE);
  await loginAs(page, 'admin');
  await takeOfflineReady(page);
  await new SyncStatus(page).waitUntilSynced(150_000);
  await context.setOffline(true);

  const list = new MachineListPage(page);
  await list.open(MACHINE);
  const history = new HistoryTab(page);
  await history.open();

  await test.step('the timeline: today on top, the years newest first, the build year at the bottom', async () => {
    await expect(page.getByTestId('history-start')).toHaveText(`Heute, ${berlinDate(Date.now())}`);
    await history.expectShown(total, total);
    await expect(history.years().first().getByRole('heading')).toHaveText(String(years[0]));
    const first = [...notifications].sort((a, b) => b.created - a.created)[0]!;
    await expect(history.entries().first()).toContainText(berlinDate(first.created));
    await expect(page.getByTestId('history-end')).toHaveText(`Baujahr ${BUILD_YEAR}`);
    // Scrolled to the end, the oldest year shows (rows are rendered as they come near the screen).
    await page.getByTestId('history-end').scrollIntoViewIfNeeded();
    await expect(history.years().last().getByRole('heading')).toHaveText(String(years.at(-1)));
    await screenshots(page, 'history-tab');
  });

  await test.step('the type filter offers no task, internal or manufacturer message, and acts alone', async () => {
    const options = await history.type().locator('option').allTextContents();
    expect(options).not.toContain('Aufgabe');
    expect(options).not.toContain('Interne Mitteilung');
    expect(options).not.toContain('Herstellermitteilung');
    expect(options).toContain('Reparatur');
    await history.type().selectOption({ label: 'Geplante Wartung' });
    const planned = notifications.filter((n) => n.type === 6).length;
    expect(planned).toBeGreaterThan(0);
    await history.expectShown(planned, total);
    expect(new Set(await history.renderedAttribute('data-type'))).toEqual(new Set(['6']));
  });

  await test.step('status with type combined, then a typed date range', async () => {
    await history.status().selectOption({ label: 'Erledigt' });
    const closedPlanned = notifications.filter((n) => n.type === 6 && n.status === 2).length;
    await history.expectShown(closedPlanned, total);
    expect(new Set(await history.renderedAttribute('data-status'))).toEqual(new Set(['2']));

    await history.type().selectOption({ label: 'Alle Arten' });
    await history.status().selectOption({ label: 'Alle Status' });
    await history.expectShown(total, total);

    // A date with a two-digit year is not guessed at: the field says so and the list stays whole.
    await history.from().fill('05.03.23');
    await expect(page.getByText('Bitte ein Datum wie 2026-03-05 oder 05.03.2026 eingeben.')).toBeVisible();
    await history.expectShown(total, total);

    const year = years[2]!;
    await history.from().fill(`${year}-01-01`);
    await history.to().fill(`31.12.${year}`); // as the app shows dates
    const inYear = notifications.filter((n) => berlinDay(n.created).startsWith(`${year}-`)).length;
    await history.expectShown(inYear, total);
    await expect(history.years()).toHaveCount(1);
    await expect(history.years().getByRole('heading')).toHaveText(String(year));
    await expect(history.from()).toHaveAttribute('placeholder', 'YYYY-MM-DD');

    // Nothing open in an old year: the filters say so, not the empty-history text.
    await history.status().selectOption({ label: 'Offen' });
    await expect(page.getByText('Keine Meldung passt zu den gewählten Filtern.')).toBeVisible();
    await expect(page.getByText(EMPTY_TEXT)).toHaveCount(0);

    await history.reset().click();
    await history.expectShown(total, total);
    await expect(history.from()).toHaveValue('');
    await expect(history.to()).toHaveValue('');
    await expect(history.type()).toHaveValue('');
    await expect(history.status()).toHaveValue('');
    await expect(history.reset()).toBeDisabled();
  });

  await test.step('export the Equipment Report offline: closed notifications of the whole history', async () => {
    await history.status().selectOption({ label: 'Erledigt' });
    const closed = notifications.filter((n) => n.status === 2).length;
    await history.expectShown(closed, total);
    await screenshots(page, 'history-filtered');
    // The name the app gives the file, read at the link it clicks. why not download.suggestedFilename(): Chromium
    // here runs with LANG=de_DE.UTF-8 (playwright.config.ts), a locale this machine may not have, and then names every
    // download whose name is not ASCII "download" (ä in "Fräszentrum").
    await page.evaluate(() => {
      const click = HTMLAnchorElement.prototype.click;
      HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
        (window as unknown as { __downloadName?: string }).__downloadName = this.download;
        click.call(this);
      };
    });
    const download = page.waitForEvent('download');
    await history.exportButton().click();
    const file = await download;
    expect(await page.evaluate(() => (window as unknown as { __downloadName?: string }).__downloadName)).toBe(`Equipment Report ${MACHINE} ${berlinDate(Date.now())}.pdf`);
    const pdf = `${SHOTS}/equipment-report.pdf`;
    await file.saveAs(pdf);

    expect(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' })).toMatch(/^Title:\s+Equipment Report$/m);
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    expect(text).toContain('Equipment Report');
    expect(text).toContain(`Maschinenhistorie: ${MACHINE}`);
    expect(text).toContain(`Baujahr`);
    expect(text).toContain('STR-BAZ-02');
    expect(text).toContain('Status: Erledigt');
    expect(text).toContain(`${closed} Meldungen`);
    expect(text).toMatch(/Seite 1 von \d+/);
    expect(text).not.toContain('In Bearbeitung');
    // Page 1 as a picture, to be looked at.
    execFileSync('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', '-singlefile', pdf, `${SHOTS}/equipment-report-page1`]);
  });

  await test.step('an entry opens its notification, whose back link returns to the history tab', async () => {
    await history.reset().click();
    const first = history.entries().first();
    const title = (await first.getByRole('link').getAttribute('aria-label'))!;
    await first.getByRole('link').click();
    await expect(page).toHaveURL(/\/notification-details\?nodeid=/);
    await expect(page.getByTestId('notification-header')).toContainText(title.slice(0, 30));
    await page.getByRole('link', { name: 'Zurück zur Maschine' }).click();
    await expect(page).toHaveURL(/\/machine-overview\?nodeid=.*&tab=1/);
    await expect(history.tab()).toHaveAttribute('aria-selected', 'true');
  });

  await test.step('a machine without notifications says so; a fault reported offline appears at once', async () => {
    await navigateInApp(page, '/dashboard');
    await list.open(emptyName);
    await history.open();
    await expect(page.getByText(EMPTY_TEXT)).toBeVisible();
    await expect(page.getByTestId('history-end')).toHaveText('Baujahr 2026');
    await history.expectShown(0, 0);
    await screenshots(page, 'history-empty');

    const machine = new MachinePage(page);
    await machine.overviewTab().click();
    await machine.reportFault({ title: 'Lichtgitter löst ohne Grund aus' });
    await history.open();
    await expect(page.getByText(EMPTY_TEXT)).toHaveCount(0);
    await expect(history.entries()).toHaveCount(1);
    await expect(history.entries().first()).toContainText('Lichtgitter löst ohne Grund aus');
    await expect(history.entries().first().getByTestId('not-synced')).toBeVisible();
  });
  await context.setOffline(false);
});

test('without the export permission there is no export; the filters are there', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize(TABLET_PORTRAIT);
  await loginAs(page, 'technician');
  await new SyncStatus(page).waitUntilSynced(150_000);
  await new MachineListPage(page).open(MACHINE);
  const history = new HistoryTab(page);
  await history.open();
  await expect(history.type()).toBeVisible();
  await expect(history.entries().first()).toBeVisible();
  await expect(history.exportButton()).toHaveCount(0);
});
