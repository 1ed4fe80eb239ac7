/**
 * Issue #4, dashboard: only the equipment the user follows (spec part 2 §1), the "Dashboard-Auswahl" that chooses
 * it — offline too — and the search that still finds every machine. Checked against the server's API.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { apiLogin, takeOfflineReady } from './support/offline';
import { SyncStatus } from './support/machine-pages';
import { loginAs, pendingChanges, TABLET_PORTRAIT } from './support/pages';

// A fresh browser pulls the whole demo plant first.
test.describe.configure({ timeout: 240_000 });

interface Tree {
  sites: { nodeid: string; name: string; areas: { nodeid: string; name: string }[] }[];
  equipmentpools: { nodeid: string; name: string }[];
}

/** What the technician's dashboard shows according to the server (GET /api/sitesareasequipments). */
async function serverDashboard(request: APIRequestContext): Promise<{ areas: string[]; pools: string[] }> {
  const session = await apiLogin(request, 'technician');
  const response = await request.get('/api/sitesareasequipments?lang=de', { headers: { authorization: `Bearer ${session.accesstoken}` } });
  expect(response.status()).toBe(200);
  const tree = (await response.json()) as Tree;
  return { areas: tree.sites.flatMap((site) => site.areas.map((area) => `${site.name} / ${area.name}`)).sort(), pools: tree.equipmentpools.map((pool) => pool.name).sort() };
}

class Dashboard {
  constructor(private readonly page: Page) {}

  readonly list = () => this.page.getByTestId('machine-list');
  readonly search = () => this.page.getByRole('searchbox', { name: 'Maschine suchen' });
  readonly others = () => this.page.getByTestId('machine-list-others');
  readonly dialog = () => this.page.getByTestId('subscription-dialog');
  plant(name: string) {
    return this.list().getByRole('heading', { name, level: 3 });
  }
  group(name: string) {
    return this.list().getByRole('heading', { name, level: 4 });
  }
  choice(name: string) {
    return this.dialog().getByTestId('subscription-choice').filter({ hasText: name });
  }

  async openSelection() {
    await this.page.getByTestId('edit-subscriptions').click();
    await expect(this.dialog().getByRole('heading', { name: 'Dashboard-Auswahl' })).toBeVisible();
  }

  async toggle(name: string) {
    await this.choice(name).first().click();
  }

  async saveSelection() {
    await this.dialog().getByRole('button', { name: 'Auswahl speichern' }).click();
    await expect(this.dialog()).toBeHidden();
  }
}

test('the technician sees only what they follow, finds other machines by search, and changes the selection offline', async ({ page, context, request }, testInfo) => {
  const dashboard = new Dashboard(page);
  const sync = new SyncStatus(page);
  await loginAs(page, 'technician');
  await sync.waitUntilSynced();

  await test.step('only the followed areas and pools (demo: Halle 1 and 2 in Stuttgart, two pools)', async () => {
    await expect(dashboard.plant('Werk Stuttgart')).toBeVisible();
    await expect(dashboard.group('Halle 1 – Zerspanung')).toBeVisible();
    await expect(dashboard.group('Halle 2 – Blechbearbeitung')).toBeVisible();
    await expect(dashboard.group('Flurförderzeuge')).toBeVisible();
    await expect(dashboard.group('Montage & Qualitätssicherung')).toHaveCount(0);
    await expect(dashboard.plant('Werk Chemnitz')).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath('dashboard-followed.png') });
  });

  await test.step('a search also finds machines outside the selection, and they open', async () => {
    await dashboard.search().fill('Spritzgieß');
    await expect(dashboard.others().getByRole('heading', { name: 'Weitere Treffer außerhalb Ihrer Auswahl' })).toBeVisible();
    const link = dashboard.others().getByRole('link').first();
    const name = (await link.getAttribute('aria-label'))!;
    await link.click();
    await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
    await page.goBack();
    // Back from the machine, the search is still there (it lives in the address).
    await expect(dashboard.search()).toHaveValue('Spritzgieß');
    await expect(dashboard.others().getByRole('link', { name })).toBeVisible();
    await dashboard.search().fill('');
  });

  await test.step('offline: follow the whole Chemnitz plant, stop following the trucks pool', async () => {
    // The reload below is answered by the service worker: it must hold the shell before the network goes (on a
    // busy machine its precache was still loading when the step began, and the offline reload found no page).
    await takeOfflineReady(page);
    await context.setOffline(true);
    await dashboard.openSelection();
    await expect(dashboard.dialog().getByTestId('subscription-count')).toHaveText('25 Maschinen ausgewählt');
    await dashboard.toggle('Werk Chemnitz');
    // A whole plant includes its areas: they show checked and cannot be unchecked one by one.
    await expect(dashboard.choice('Spritzgießerei').locator('input')).toBeChecked();
    await expect(dashboard.choice('Spritzgießerei').locator('input')).toBeDisabled();
    await dashboard.toggle('Flurförderzeuge');
    await page.screenshot({ path: testInfo.outputPath('selection-dialog.png') });
    await dashboard.saveSelection();

    await expect(dashboard.plant('Werk Chemnitz')).toBeVisible();
    await expect(dashboard.group('Spritzgießerei')).toBeVisible();
    await expect(dashboard.group('Flurförderzeuge')).toHaveCount(0);
    expect(await pendingChanges(page)).toBe(2);
    // Still there after a reload without network (read from the device's database).
    await page.reload();
    await expect(dashboard.plant('Werk Chemnitz')).toBeVisible();
    await expect(dashboard.group('Flurförderzeuge')).toHaveCount(0);
  });

  await test.step('back online: the server has the same selection', async () => {
    // The answers carry the entries' versions: acknowledging them must not make the device pull the plant again.
    const fullPulls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/sync/pull') && new URL(r.url()).searchParams.get('cursor') === '0') fullPulls.push(r.url());
    });
    await context.setOffline(false);
    await expect.poll(async () => (await serverDashboard(request)).pools, { timeout: 60_000 }).toEqual(['Druckluftversorgung']);
    const server = await serverDashboard(request);
    expect(server.areas).toEqual(
      expect.arrayContaining(['Werk Chemnitz / Spritzgießerei', 'Werk Chemnitz / Umformtechnik', 'Werk Stuttgart / Halle 1 – Zerspanung', 'Werk Stuttgart / Halle 2 – Blechbearbeitung']),
    );
    await sync.waitUntilSynced();
    expect(fullPulls).toEqual([]);
  });

  await test.step('portrait, then the demo selection is restored online', async () => {
    await page.setViewportSize(TABLET_PORTRAIT);
    await page.screenshot({ path: testInfo.outputPath('dashboard-portrait.png') });
    await dashboard.openSelection();
    await dashboard.toggle('Werk Chemnitz');
    await dashboard.toggle('Flurförderzeuge');
    await dashboard.saveSelection();
    // Online the entries go out at once; the sync slot may still show the previous "Synchronisiert" for a moment,
    // so ask the server until it has them.
    await expect
      .poll(async () => {
        const server = await serverDashboard(request);
        return { pools: server.pools, chemnitz: server.areas.some((area) => area.startsWith('Werk Chemnitz')) };
      }, { timeout: 30_000 })
      .toEqual({ pools: ['Druckluftversorgung', 'Flurförderzeuge'], chemnitz: false });
    await sync.waitUntilSynced();
  });
});

test('a user who follows nothing is told how to choose, and the choice fills the dashboard', async ({ page, request }) => {
  const dashboard = new Dashboard(page);
  await loginAs(page, 'reader');
  await new SyncStatus(page).waitUntilSynced();
  await dashboard.openSelection();
  // The reader follows the Stuttgart plant and the metrology pool (demo data): clear both.
  await dashboard.toggle('Werk Stuttgart');
  await dashboard.toggle('Messmittel & Prüfgeräte');
  await expect(dashboard.dialog().getByTestId('subscription-count')).toHaveText('0 Maschinen ausgewählt');
  await dashboard.saveSelection();
  await expect(page.getByTestId('no-subscriptions').getByRole('heading', { name: 'Ihr Dashboard ist noch leer' })).toBeVisible();
  await page.getByRole('button', { name: 'Anlagen auswählen' }).click();
  await dashboard.toggle('Werk Stuttgart');
  await dashboard.toggle('Messmittel & Prüfgeräte');
  await dashboard.saveSelection();
  await expect(dashboard.plant('Werk Stuttgart')).toBeVisible();
  await expect(page.getByTestId('no-subscriptions')).toHaveCount(0);
  // The demo selection is back on the server before the next test.
  await expect
    .poll(async () => {
      const session = await apiLogin(request, 'reader');
      const response = await request.get('/api/subscriptions', { headers: { authorization: `Bearer ${session.accesstoken}` } });
      return ((await response.json()) as unknown[]).length;
    }, { timeout: 30_000 })
    .toBe(2);
});
