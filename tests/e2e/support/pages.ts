/** Page models: the e2e specs speak in user actions, not selectors. */
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD, DEMO_USERS, type DemoRole } from '../../../src/server/db/seed/demo-users';

export const TABLET_LANDSCAPE = { width: 1280, height: 800 } as const;
export const TABLET_PORTRAIT = { width: 800, height: 1280 } as const;

/** Where a spec's screenshots go, kept for a person to look at: test-results/screens/<area>, or under E2E_SHOTS_DIR. */
export function shotsDir(area: string): string {
  return join(process.env.E2E_SHOTS_DIR ?? 'test-results/screens', area);
}

/**
 * The current screen at both tablet sizes (1280×800, 800×1280): a screenshot each into `dir` as
 * `<file>-<size>.png`, and no touch target under 44 px at either size; back to landscape after.
 */
export async function tabletScreenshots(page: Page, dir: string, file: string, { fullPage = true, settleMs = 300 } = {}) {
  for (const [name, viewport] of [['1280x800', TABLET_LANDSCAPE], ['800x1280', TABLET_PORTRAIT]] as const) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(settleMs);
    await page.screenshot({ path: join(dir, `${file}-${name}.png`), fullPage });
    expect(await smallTouchTargets(page), `${file} ${name}`).toEqual([]);
  }
  await page.setViewportSize(TABLET_LANDSCAPE);
}

export class LoginPage {
  constructor(private readonly page: Page) {}

  readonly email = () => this.page.getByRole('textbox', { name: 'E-Mail', exact: true });
  readonly password = () => this.page.getByRole('textbox', { name: 'Passwort', exact: true });
  readonly submit = () => this.page.getByRole('button', { name: 'Anmelden' });

  async goto() {
    await this.page.goto('/login');
    await expect(this.submit()).toBeVisible();
  }

  async fill(email: string, password: string) {
    await this.email().fill(email);
    await this.password().fill(password);
  }

  async loginAs(role: DemoRole) {
    await this.fill(DEMO_USERS[role].email, DEMO_PASSWORD);
    await this.submit().click();
  }
}

export class AppShell {
  constructor(private readonly page: Page) {}

  greeting(role: DemoRole) {
    const user = DEMO_USERS[role];
    return this.page.getByRole('heading', { name: `Hallo ${user.givenname} ${user.surname}` });
  }

  async expectDashboard(role: DemoRole) {
    await expect(this.page).toHaveURL(/\/dashboard/);
    await expect(this.greeting(role)).toBeVisible();
  }

  userMenu() {
    return this.page.getByRole('button', { name: /Benutzermenü|User menu/ });
  }

  async logout() {
    await this.userMenu().click();
    await this.page.getByRole('menuitem', { name: /Abmelden|Log out/ }).click();
    await expect(this.page).toHaveURL(/\/login/);
  }
}

/** Logs in through the UI as a demo user and waits for the dashboard. */
export async function loginAs(page: Page, role: DemoRole) {
  const login = new LoginPage(page);
  await login.goto();
  await login.loginAs(role);
  await new AppShell(page).expectDashboard(role);
}

/** Every visible control on the page, with its size: gloved fingers on a tablet need ≥ 44 × 44 px. */
export async function smallTouchTargets(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('button, a[href], input, select, textarea, [role=menuitem], [role=checkbox], [role=tab]')]
      .filter((el) => el.offsetParent !== null && getComputedStyle(el).visibility !== 'hidden')
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && (box.width < 44 || box.height < 44))
      .map(({ el, box }) => `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}" ${Math.round(box.width)}×${Math.round(box.height)}`),
  );
}

/** The equipment form (/create-machine, /edit-machine). */
export class EquipmentFormPage {
  constructor(private readonly page: Page) {}

  readonly brand = () => this.page.getByTestId('equipment-brand-select');
  readonly type = () => this.page.getByTestId('equipment-type-select');
  readonly manufacturer = () => this.page.getByTestId('equipment-manufacturer-select');
  readonly submit = () => this.page.getByTestId('equipment-submit');
  readonly sticker = () => this.page.getByTestId('sticker-qr');

  /** Waits until the local mirror has filled the pickers (the first sync is done). */
  async waitForCatalogue() {
    await expect.poll(() => this.brand().locator('option').count(), { timeout: 150_000 }).toBeGreaterThan(2);
  }

  async chooseFirst(select: ReturnType<Page['getByTestId']>) {
    const value = await select.locator('option').nth(1).getAttribute('value');
    await select.selectOption(value!);
  }

  field(name: string) {
    return this.page.getByTestId(`equipment-${name}`);
  }

  /** The nodeid the service sticker encodes (a new machine's id is chosen when the form opens). */
  async stickerNodeid(): Promise<string> {
    const url = await this.sticker().getAttribute('data-url');
    return new URL(url!).searchParams.get('nodeid')!;
  }
}

/** Waits until nothing is waiting to be sent or refused (the app bar's sync slot). */
export async function expectAllSynced(page: Page, timeout = 60_000) {
  await expect(page.locator('[data-slot="sync-status"] button[data-pending="0"][data-refused="0"]')).toBeVisible({ timeout });
  // Sending done is not pulling done: the first sync of a fresh login fills the mirror afterwards.
  await expect(page.locator('[data-slot="sync-status"]').getByText('Synchronisiert', { exact: true })).toBeVisible({ timeout });
}

/** In-app navigation without a page load (works offline without relying on the service worker). */
export async function navigateInApp(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** The plant structure screens (issue #4): plants, areas, pools, the selection dialog and the shift editor. */
export class StructurePages {
  constructor(private readonly page: Page) {}

  /**
   * Waits until the first sync filled the local mirror (the structure screens read it). The demo plant is ~5,000
   * rows; on a busy 2-core machine that takes a while.
   */
  async waitForSync() {
    await expect.poll(() => readSyncState(this.page, 'initialSyncDone'), { timeout: 90_000, intervals: [500, 1000] }).toBe(true);
  }

  async openPlants() {
    await this.openNav('Werke');
    await expect(this.page).toHaveURL(/\/sites$/);
  }

  /** Through the navigation (rail in landscape, drawer in portrait). */
  async openMachines() {
    await this.openNav('Maschinen');
    await expect(this.page).toHaveURL(/\/machines$/);
  }

  private async openNav(name: string) {
    const menu = this.page.getByRole('button', { name: 'Navigation öffnen' });
    if (await menu.isVisible()) await menu.click();
    await this.page.getByRole('navigation').getByRole('link', { name }).click();
  }

  async createPlant(values: { name: string; street: string; zipcode: string; city: string; siteid?: string }) {
    await this.page.getByTestId('site-create').click();
    await expect(this.page).toHaveURL(/\/create-site$/);
    const save = this.page.getByRole('button', { name: 'Werk anlegen' });
    await expect(save).toBeDisabled();
    await this.page.getByLabel('Name des Werks').fill(values.name);
    await this.page.getByLabel('Straße und Hausnummer').fill(values.street);
    if (values.siteid) await this.page.getByLabel('Adresszusatz').fill(values.siteid);
    await this.page.getByLabel('PLZ').fill(values.zipcode);
    await expect(save).toBeDisabled();
    await this.page.getByLabel('Ort').fill(values.city);
    await expect(save).toBeEnabled();
    await save.click();
    await expect(this.page).toHaveURL(/\/sites$/);
  }

  async openPlant(name: string) {
    await this.page.getByTestId('site-item').filter({ hasText: name }).getByRole('link').click();
    await expect(this.page.getByTestId('site-name')).toHaveText(name);
  }

  area(name: string) {
    return this.page.getByTestId('area-item').filter({ has: this.page.getByTestId('area-name').getByText(name, { exact: true }) });
  }

  /** Opens the selection dialog, searches, ticks the machine, saves the selection. */
  async selectMachine(search: string, machine: string, expectedCount?: string) {
    await this.page.getByTestId('selection-open').click();
    const dialog = this.page.getByTestId('equipment-selection-dialog');
    await expect(dialog).toBeVisible();
    await dialog.getByTestId('selection-search').fill(search);
    if (expectedCount) await expect(dialog.getByTestId('selection-count')).toHaveText(expectedCount);
    await dialog.getByTestId('selection-item').filter({ hasText: machine }).click();
    await dialog.getByRole('button', { name: 'Auswahl speichern' }).click();
    await expect(dialog).toBeHidden();
  }

  shiftRow(index: number) {
    return this.page.getByTestId('shift-row').nth(index);
  }

  async setShiftTimes(index: number, start: string, end: string) {
    const row = this.shiftRow(index);
    await row.getByTestId('shift-start').fill(start);
    await row.getByTestId('shift-end').fill(end);
  }
}

/**
 * Runs one read on the app's offline database without disturbing it: never creates it (an open that would
 * create it is aborted) and closes the connection at once, so the app's own version upgrade is never blocked.
 */
function readOfflineDb<T>(page: Page, store: 'syncState' | 'outbox', key: string | null): Promise<T | undefined> {
  return page.evaluate(
    ({ storeName, recordKey }) =>
      new Promise<T | undefined>((resolve) => {
        const open = indexedDB.open('anlagenbuch-data');
        open.onupgradeneeded = () => open.transaction?.abort();
        open.onerror = () => resolve(undefined);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains(storeName)) {
            db.close();
            return resolve(undefined);
          }
          const objects = db.transaction(storeName).objectStore(storeName);
          const request = recordKey === null ? objects.count() : objects.get(recordKey);
          request.onsuccess = () => {
            db.close();
            resolve((recordKey === null ? request.result : (request.result as { value?: unknown } | undefined)?.value) as T | undefined);
          };
          request.onerror = () => {
            db.close();
            resolve(undefined);
          };
        };
      }),
    { storeName: store, recordKey: key },
  );
}

/** A value of the offline database's sync state (src/client/sync/outbox.ts `stateKeys`). */
export function readSyncState(page: Page, key: string): Promise<unknown> {
  return readOfflineDb(page, 'syncState', key);
}

/** Writes still waiting in the outbox. */
export async function pendingChanges(page: Page): Promise<number> {
  return (await readOfflineDb<number>(page, 'outbox', null)) ?? 0;
}
