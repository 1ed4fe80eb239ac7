/**
 * W4's code inside the page, bundled by the workload (esbuild, an IIFE on `window.__w4`): the app's own schema
 * (LocalDatabase, the dashboard's compound indexes) filled with seeded notification rows, the dashboard's reader (planDashboardQuery +
 * readDashboardPage, what the screen runs) and, as the floor, the same rows read by hand-written Dexie index queries.
 */
import { LocalDatabase, type MirrorRow } from '../../../src/client/db/local-db';
import { countDashboard, planDashboardQuery, readDashboardPage } from '../../../src/client/sync/notifications-dashboard';
import { DEFAULT_DASHBOARD_FILTERS, type DashboardFilters, type DashboardMachine } from '../../../src/shared/domain/notifications-dashboard';

const NAME = 'w4-dashboard';
const PAGE_SIZE = 50;
const TYPES = [0, 1, 2, 3, 6, 7, 8, 9, 10, 11, 12];

let db: LocalDatabase | null = null;
let followed: DashboardMachine[] = [];

const machineId = (i: number) => `e-${String(i).padStart(5, '0')}`;

/** Fills the mirror table (unthrottled by the caller); the user follows every third area's machines. */
export async function fill(rows: number, machines: number): Promise<{ followed: number }> {
  db?.close();
  await new LocalDatabase(NAME).delete();
  db = new LocalDatabase(NAME);
  await db.open();
  let seed = 42;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const start = Date.UTC(2022, 0, 1);
  const batch = 10_000;
  for (let offset = 0; offset < rows; offset += batch) {
    const chunk: MirrorRow[] = [];
    for (let i = offset; i < Math.min(rows, offset + batch); i++) {
      chunk.push({
        nodeid: `n-${String(i).padStart(7, '0')}`,
        status: random() < 0.45 ? 0 : random() < 0.3 ? 1 : 2,
        type: TYPES[Math.floor(random() * TYPES.length)]!,
        created: start + Math.floor(random() * 4 * 365 * 86_400_000),
        title: `Meldung ${i}: Hydraulikdruck schwankt an Presse ${i % 500}`,
        description: 'Beim Anfahren fällt der Druck kurz ab; Sichtprüfung der Leitungen ohne Befund.',
        errorcode: i % 7 === 0 ? `E${i % 1000}` : null,
        equipmentnodeid: machineId(i % machines),
        version: i,
      });
    }
    await db.mirror('notifications').bulkPut(chunk);
  }
  // 50 machines per area; the user follows areas 0, 3, 6, … (a third of the plant).
  followed = Array.from({ length: machines }, (_, i) => i)
    .filter((i) => Math.floor(i / 50) % 3 === 0)
    .map((i) => ({ nodeid: machineId(i), name: `Maschine ${i}`, place: `Werk / Bereich ${Math.floor(i / 50)}`, siteNodeid: 'site', areaNodeid: `area-${Math.floor(i / 50)}`, poolNodeid: null }));
  return { followed: followed.length };
}

export type Scenario = 'first' | 'types';

const scenarioFilters = (scenario: Scenario): DashboardFilters => (scenario === 'first' ? DEFAULT_DASHBOARD_FILTERS : { ...DEFAULT_DASHBOARD_FILTERS, types: [0, 10, 11] });

/** The dashboard's first page (the screen's read): ms and the ids, to check the floor reads the same rows. */
export async function dashboardPage(scenario: Scenario): Promise<{ ms: number; ids: string[] }> {
  const t0 = performance.now();
  const plan = planDashboardQuery(followed, scenarioFilters(scenario), { key: 'created', direction: 'desc' });
  const page = await readDashboardPage(db!, plan, null, PAGE_SIZE);
  return { ms: performance.now() - t0, ids: page.rows.map((r) => r.nodeid) };
}

/** The count the screen shows beside the list (read after the first page). */
export async function dashboardCount(scenario: Scenario): Promise<{ ms: number; count: number }> {
  const t0 = performance.now();
  const plan = planDashboardQuery(followed, scenarioFilters(scenario), { key: 'created', direction: 'desc' });
  const count = await countDashboard(db!, plan);
  return { ms: performance.now() - t0, count };
}

/** The floor: the same page by hand — one reverse index range per status (and type), a Set check, merged. */
export async function rawPage(scenario: Scenario): Promise<{ ms: number; ids: string[] }> {
  const t0 = performance.now();
  const machines = new Set(followed.map((m) => m.nodeid));
  const table = db!.mirror('notifications');
  const ranges =
    scenario === 'first'
      ? [0, 1].map((s) => table.where('[status+created]').between([s, -Infinity], [s, Infinity]))
      : [0, 1].flatMap((s) => [0, 10, 11].map((t) => table.where('[status+type+created]').between([s, t, -Infinity], [s, t, Infinity])));
  const parts = await Promise.all(ranges.map((range) => range.reverse().filter((row) => machines.has(row.equipmentnodeid as string)).limit(PAGE_SIZE).toArray()));
  const rows = parts.flat().sort((a, b) => (b.created as number) - (a.created as number) || (a.nodeid < b.nodeid ? 1 : -1)).slice(0, PAGE_SIZE);
  return { ms: performance.now() - t0, ids: rows.map((r) => r.nodeid) };
}
