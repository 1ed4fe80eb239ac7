import { describe, expect, it } from 'vitest';
import { LocalDatabase, type MirrorRow } from '../../src/client/db/local-db';
import { dayEnd, dayInput, dayStart } from '../../src/client/lib/day-bounds';
import { createNotificationsDashboardStore, DEFAULT_DASHBOARD_VIEW, readStoredViews } from '../../src/client/stores/notifications-dashboard-store';
import { readCategoryColours } from '../../src/client/sync/category-colours';
import { countDashboard, MACHINE_STREAMS_MAX, planDashboardQuery, readDashboardPage, type DashboardPlan } from '../../src/client/sync/notifications-dashboard';
import { enqueueMutation } from '../../src/client/sync/outbox';
import { NOTIFICATION_TYPES } from '../../src/shared/domain/notification';
import {
  compareInGroup,
  createdDirection,
  DEFAULT_DASHBOARD_FILTERS,
  followedMachines,
  hasActiveFilters,
  matchesFilters,
  normalizeSearch,
  typeGroups,
  type DashboardFilters,
  type DashboardMachine,
  type DashboardRow,
  type DashboardSort,
} from '../../src/shared/domain/notifications-dashboard';
import type { StructureTree } from '../../src/shared/api/structure';
import { readableTextOn, relativeLuminance } from '../../src/client/lib/readable-text';

const USER = '0190f5a0-0000-7000-8000-0000000000aa';
const id = (prefix: string, n: number) => `${prefix}-${String(n).padStart(5, '0')}`;

const machine = (n: number, extra: Partial<DashboardMachine> = {}): DashboardMachine => ({
  nodeid: id('m', n),
  name: `Maschine ${String.fromCharCode(65 + (n % 26))}${n}`,
  place: 'Werk / Halle',
  siteNodeid: n % 2 === 0 ? 'site-a' : 'site-b',
  areaNodeid: `area-${n % 4}`,
  poolNodeid: n % 5 === 0 ? 'pool-1' : null,
  ...extra,
});

/** A seeded generator, so a failing case is the same case on the next run. */
function rowsFor(count: number, machineCount: number, seed = 7): DashboardRow[] {
  let state = seed;
  const random = () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const start = Date.UTC(2025, 0, 1);
  return Array.from({ length: count }, (_, i) => ({
    nodeid: id('n', i),
    type: NOTIFICATION_TYPES[Math.floor(random() * NOTIFICATION_TYPES.length)]!,
    status: random() < 0.5 ? 0 : random() < 0.5 ? 1 : 2,
    title: i % 17 === 0 ? `Hydraulik leckt ${i}` : `Meldung ${i}`,
    errorcode: i % 23 === 0 ? `E-${i}` : null,
    // Coarse times: many rows share a millisecond, so paging must order equal times by nodeid.
    created: start + Math.floor(random() * 40) * 3_600_000,
    equipmentnodeid: id('m', Math.floor(random() * machineCount)),
  }));
}

/** The list the reader must give, computed the slow, obvious way. */
function expected(rows: DashboardRow[], plan: DashboardPlan, followed: DashboardMachine[], filters: DashboardFilters, sort: DashboardSort): string[] {
  const order = (row: DashboardRow) => {
    if (sort.key === 'type') return typeGroups(filters, sort.direction, NOTIFICATION_TYPES).indexOf(row.type);
    if (sort.key === 'machine') {
      const names = followed.filter((m) => plan.machines.has(m.nodeid)).map((m) => m.nodeid);
      const index = names.indexOf(row.equipmentnodeid);
      return sort.direction === 'asc' ? index : names.length - 1 - index;
    }
    return 0;
  };
  return rows
    .filter((row) => matchesFilters(row, filters, plan.machines))
    .sort((a, b) => order(a) - order(b) || compareInGroup(a, b, createdDirection(sort)))
    .map((row) => row.nodeid);
}

async function filledDb(rows: DashboardRow[]): Promise<LocalDatabase> {
  const db = new LocalDatabase(`dashboard-${Math.random()}`);
  await db.mirror('notifications').bulkPut(rows as unknown as MirrorRow[]);
  return db;
}

/** The whole list read page by page (keyset), as the bench and a long scroll do. */
async function readAll(db: LocalDatabase, plan: DashboardPlan, pageSize: number): Promise<string[]> {
  const ids: string[] = [];
  let page = await readDashboardPage(db, plan, null, pageSize);
  ids.push(...page.rows.map((r) => r.nodeid));
  while (page.next) {
    page = await readDashboardPage(db, plan, page.next, pageSize);
    ids.push(...page.rows.map((r) => r.nodeid));
  }
  return ids;
}

describe('schema v5: the dashboard indexes', () => {
  it('upgrading from v4 keeps the outbox entries, the sync state and the mirror rows, and the new indexes find the old rows', async () => {
    const name = `upgrade-v5-${Math.random()}`;
    const v4 = new LocalDatabase(name, { upToVersion: 4 });
    await v4.open();
    expect(v4.verno).toBe(4);
    const [entry] = await enqueueMutation({ db: v4, usernodeid: USER }, { action: 'createNotification', method: 'POST', path: 'notifications', body: { title: 'Leck' }, kind: 'notifications', nodeid: 'n-1', values: { title: 'Leck' }, creates: true });
    await v4.syncState.put({ key: 'cursor', value: 99 });
    await v4.mirror('notifications').bulkPut([
      { nodeid: 'n-1', title: 'Leck', status: 0, type: 1, created: 10, equipmentnodeid: 'm-1' },
      { nodeid: 'n-2', title: 'Alt', status: 2, type: 0, created: 5, equipmentnodeid: 'm-1' },
    ]);
    await v4.mirror('sites').put({ nodeid: 's-1', name: 'Werk' });
    v4.close();

    const latest = new LocalDatabase(name, { upToVersion: 5 });
    await latest.open();
    expect(latest.verno).toBe(5);
    expect(await latest.outbox.toArray()).toEqual([entry]);
    expect(await latest.syncState.get('cursor')).toEqual({ key: 'cursor', value: 99 });
    expect(await latest.mirror('sites').get('s-1')).toMatchObject({ name: 'Werk' });
    const notifications = latest.mirror('notifications');
    expect(await notifications.where('[status+created]').between([0, -Infinity], [0, Infinity]).primaryKeys()).toEqual(['n-1']);
    expect(await notifications.where('[status+type+created]').between([2, 0, -Infinity], [2, 0, Infinity]).primaryKeys()).toEqual(['n-2']);
    expect(await notifications.where('[equipmentnodeid+status+created]').between(['m-1', 0, -Infinity], ['m-1', 2, Infinity]).primaryKeys()).toEqual(['n-1', 'n-2']);
    // The indexes of earlier versions still answer.
    expect(await notifications.where('[equipmentnodeid+status]').equals(['m-1', 0]).count()).toBe(1);
    latest.close();
  });
});

describe('the dashboard reader against the obvious answer', () => {
  const machineCount = 40;
  const followed = Array.from({ length: machineCount - 10 }, (_, i) => machine(i)).sort((a, b) => a.name.localeCompare(b.name, 'de') || a.nodeid.localeCompare(b.nodeid));
  const rows = rowsFor(600, machineCount);
  const from = Date.UTC(2025, 0, 1) + 5 * 3_600_000;
  const to = Date.UTC(2025, 0, 1) + 30 * 3_600_000;
  const cases: [string, Partial<DashboardFilters>][] = [
    ['defaults (open and in progress)', {}],
    ['all statuses', { statuses: [0, 1, 2] }],
    ['types', { types: [0, 1, 12] }],
    ['one machine', { machine: id('m', 3) }],
    ['an area', { scope: { type: 'area', nodeid: 'area-1' } }],
    ['a pool and types', { scope: { type: 'equipmentpool', nodeid: 'pool-1' }, types: [2, 3] }],
    ['a date range', { from, to }],
    ['search on title', { search: ' HYDRAULIK ' }],
    ['search on error code', { search: 'e-4', statuses: [0, 1, 2] }],
    ['closed only, a plant, a range', { statuses: [2], scope: { type: 'site', nodeid: 'site-a' }, from }],
  ];
  const sorts: DashboardSort[] = [
    { key: 'created', direction: 'desc' },
    { key: 'created', direction: 'asc' },
    { key: 'elapsed', direction: 'desc' },
    { key: 'type', direction: 'asc' },
    { key: 'type', direction: 'desc' },
    { key: 'machine', direction: 'asc' },
    { key: 'machine', direction: 'desc' },
  ];

  for (const [label, change] of cases) {
    it(`${label}: every sort, pages of 7 and the first page, and the count`, async () => {
      const db = await filledDb(rows);
      const filters = { ...DEFAULT_DASHBOARD_FILTERS, ...change };
      for (const sort of sorts) {
        const plan = planDashboardQuery(followed, filters, sort);
        const want = expected(rows, plan, followed, filters, sort);
        expect(want.length, `${label} ${sort.key} matches something`).toBeGreaterThan(0);
        expect(await readAll(db, plan, 7), `${sort.key} ${sort.direction}`).toEqual(want);
        expect((await readDashboardPage(db, plan, null, 50)).rows.map((r) => r.nodeid)).toEqual(want.slice(0, 50));
        expect(await countDashboard(db, plan)).toBe(want.length);
      }
      db.close();
    });
  }

  it('leaves out rows deleted on the device but not yet acknowledged, and machines nobody follows', async () => {
    const db = await filledDb([
      { nodeid: 'a', type: 0, status: 0, title: 'sichtbar', created: 3, equipmentnodeid: id('m', 1) },
      { nodeid: 'b', type: 0, status: 0, title: 'gelöscht', created: 2, equipmentnodeid: id('m', 1), pendingdelete: true } as DashboardRow,
      { nodeid: 'c', type: 0, status: 0, title: 'fremd', created: 1, equipmentnodeid: 'not-followed' },
    ]);
    const plan = planDashboardQuery([machine(1)], DEFAULT_DASHBOARD_FILTERS, { key: 'created', direction: 'desc' });
    expect((await readDashboardPage(db, plan, null, 50)).rows.map((r) => r.nodeid)).toEqual(['a']);
    db.close();
  });

  it('planned maintenance takes its task category’s colour (§4.1); other types and tasks without a category none', async () => {
    const db = await filledDb([]);
    await db.mirror('maintenancetasks').bulkPut([
      { nodeid: 't1', categorynodeid: 'c1' },
      { nodeid: 't2', categorynodeid: null },
    ]);
    await db.mirror('maintenancecategories').put({ nodeid: 'c1', colorcode: '#12AB34' });
    const row = (nodeid: string, type: number, task: string | null) => ({ nodeid, type, status: 0, title: '', created: 1, equipmentnodeid: 'm', maintenancetasknodeid: task }) as DashboardRow;
    const colours = await readCategoryColours(db, [row('a', 6, 't1'), row('b', 6, 't2'), row('c', 0, 't1'), row('d', 6, null)]);
    expect([...colours]).toEqual([['a', '#12AB34']]);
    db.close();
  });

  it('reads a range in batches: thousands of rows in one millisecond, and machines that match one row in 250', async () => {
    // Above MACHINE_STREAMS_MAX, so the status ranges are read and the machine set is checked on each row.
    const many = Array.from({ length: MACHINE_STREAMS_MAX + 6 }, (_, i) => machine(i));
    const tie = Date.UTC(2025, 5, 1);
    const crowded: DashboardRow[] = Array.from({ length: 6_000 }, (_, i) => ({
      nodeid: id('t', i),
      type: 1,
      status: i % 2,
      title: `Meldung ${i}`,
      // 5,000 rows in one millisecond (an import), the rest spread around it.
      created: i < 5_000 ? tie : tie + (i - 5_500) * 60_000,
      equipmentnodeid: i % 250 === 0 ? id('m', i % many.length) : 'not-followed',
    }));
    const db = await filledDb(crowded);
    for (const sort of [{ key: 'created', direction: 'desc' }, { key: 'created', direction: 'asc' }] satisfies DashboardSort[]) {
      const plan = planDashboardQuery(many, DEFAULT_DASHBOARD_FILTERS, sort);
      const want = expected(crowded, plan, many, DEFAULT_DASHBOARD_FILTERS, sort);
      expect(want).toHaveLength(24);
      expect(await readAll(db, plan, 7), `${sort.direction}`).toEqual(want);
      expect((await readDashboardPage(db, plan, null, 50)).rows.map((r) => r.nodeid)).toEqual(want);
    }
    db.close();
  }, 30_000);

  it('following nothing reads nothing', async () => {
    const db = await filledDb(rows);
    const plan = planDashboardQuery([], DEFAULT_DASHBOARD_FILTERS, { key: 'created', direction: 'desc' });
    expect(await readDashboardPage(db, plan, null, 50)).toEqual({ rows: [], next: null });
    expect(await countDashboard(db, plan)).toBe(0);
    db.close();
  });
});

describe('planDashboardQuery: which index answers', () => {
  const many = Array.from({ length: MACHINE_STREAMS_MAX + 1 }, (_, i) => machine(i));
  const sort: DashboardSort = { key: 'created', direction: 'desc' };
  it('a few machines: each machine’s own range per status', () => {
    const plan = planDashboardQuery(many.slice(0, 2), DEFAULT_DASHBOARD_FILTERS, sort);
    expect(plan.groups).toHaveLength(1);
    expect(plan.groups[0]!.map((s) => s.index)).toEqual(Array(4).fill('[equipmentnodeid+status+created]'));
  });
  it('many machines: by status, or by status and type when types are chosen', () => {
    expect(planDashboardQuery(many, DEFAULT_DASHBOARD_FILTERS, sort).groups[0]!.map((s) => s.prefix)).toEqual([[0], [1]]);
    expect(planDashboardQuery(many, { ...DEFAULT_DASHBOARD_FILTERS, types: [1] }, sort).groups[0]!.map((s) => [s.index, s.prefix])).toEqual([
      ['[status+type+created]', [0, 1]],
      ['[status+type+created]', [1, 1]],
    ]);
  });
  it('the elapsed sort is the created order turned round (longest open first = oldest first)', () => {
    expect(createdDirection({ key: 'elapsed', direction: 'desc' })).toBe('asc');
    expect(createdDirection({ key: 'created', direction: 'desc' })).toBe('desc');
    expect(createdDirection({ key: 'machine', direction: 'asc' })).toBe('desc');
  });
});

describe('followed machines and filter helpers', () => {
  const tree: StructureTree = {
    sites: [{ nodeid: 's', name: 'Werk Nord', street: '', siteid: null, zipcode: '', city: '', country: '', areas: [{ nodeid: 'a', name: 'Halle 2', equipment: [{ nodeid: 'm2', name: 'Presse', equipmentid: null, inventoryid: null, brand: null, model: null, imageurl: null }] }] }],
    equipmentpools: [
      {
        nodeid: 'p',
        name: 'Pool',
        equipment: [
          { nodeid: 'm2', name: 'Presse', equipmentid: null, inventoryid: null, brand: null, model: null, imageurl: null },
          { nodeid: 'm1', name: 'Bohrer', equipmentid: null, inventoryid: null, brand: null, model: null, imageurl: null },
        ],
      },
    ],
    unlinked: [],
  };
  it('lists each followed machine once, by name, with its place', () => {
    expect(followedMachines(tree)).toEqual([
      { nodeid: 'm1', name: 'Bohrer', place: 'Pool', siteNodeid: null, areaNodeid: null, poolNodeid: 'p' },
      { nodeid: 'm2', name: 'Presse', place: 'Werk Nord / Halle 2', siteNodeid: 's', areaNodeid: 'a', poolNodeid: 'p' },
    ]);
  });
  it('search is trimmed and case-insensitive; the defaults are not "filtered"', () => {
    expect(normalizeSearch('  ÖL ')).toBe('öl');
    expect(hasActiveFilters(DEFAULT_DASHBOARD_FILTERS)).toBe(false);
    expect(hasActiveFilters({ ...DEFAULT_DASHBOARD_FILTERS, statuses: [1, 0] })).toBe(false);
    expect(hasActiveFilters({ ...DEFAULT_DASHBOARD_FILTERS, statuses: [0] })).toBe(true);
    expect(hasActiveFilters({ ...DEFAULT_DASHBOARD_FILTERS, search: '  ' })).toBe(false);
  });
  it('date inputs: "von" from the day’s start, "bis" to its end; invalid days are no bound', () => {
    expect(dayStart('2026-03-05')).toBe(new Date(2026, 2, 5).getTime());
    expect(dayEnd('2026-03-05')).toBe(new Date(2026, 2, 6).getTime() - 1);
    expect(dayStart('2026-02-30')).toBeNull();
    // As the app shows dates, whatever the browser's language: the dashboard's fields are text.
    expect(dayStart('05.03.2026')).toBe(new Date(2026, 2, 5).getTime());
    expect(dayStart('5.3.2026')).toBe(new Date(2026, 2, 5).getTime());
    expect(dayEnd('31.12.2026')).toBe(new Date(2027, 0, 1).getTime() - 1);
    expect(dayStart('31.02.2026')).toBeNull();
    expect(dayStart('03/05/2026')).toBeNull();
    expect(dayStart('')).toBeNull();
    expect(dayInput(new Date(2026, 2, 5, 13).getTime())).toBe('2026-03-05');
    expect(dayInput(null)).toBe('');
  });
});

describe('the filter store', () => {
  function memoryStorage(): Storage {
    const map = new Map<string, string>();
    return {
      get length() {
        return map.size;
      },
      clear: () => map.clear(),
      getItem: (key) => map.get(key) ?? null,
      key: (index) => [...map.keys()][index] ?? null,
      removeItem: (key) => void map.delete(key),
      setItem: (key, value) => void map.set(key, value),
    };
  }

  it('keeps each user’s filters and sort in storage, so a new visit (a new store) finds them', async () => {
    const storage = memoryStorage();
    const first = createNotificationsDashboardStore(() => storage);
    first.getState().setFilters(USER, { types: [1], search: 'Öl' });
    first.getState().setSort(USER, { key: 'machine', direction: 'asc' });
    const again = createNotificationsDashboardStore(() => storage);
    await again.persist.rehydrate();
    expect(again.getState().views[USER]).toEqual({ filters: { ...DEFAULT_DASHBOARD_FILTERS, types: [1], search: 'Öl' }, sort: { key: 'machine', direction: 'asc' } });
    expect(again.getState().views['someone-else']).toBeUndefined();
    // Resetting the filters keeps the sort.
    again.getState().reset(USER);
    expect(again.getState().views[USER]).toEqual({ ...DEFAULT_DASHBOARD_VIEW, sort: { key: 'machine', direction: 'asc' } });
  });

  it('drops a stored view it cannot read instead of breaking the screen', () => {
    const good = { filters: DEFAULT_DASHBOARD_FILTERS, sort: { key: 'type', direction: 'desc' } };
    expect(readStoredViews({ views: { a: good, b: { filters: { types: 'x' } }, c: { ...good, sort: { key: 'colour', direction: 'up' } } } })).toEqual({ a: good });
    expect(readStoredViews(null)).toEqual({});
    expect(readStoredViews({ views: 'kaputt' })).toEqual({});
  });
});

describe('readable text on a category colour', () => {
  it('picks the text colour with the higher contrast', () => {
    expect(readableTextOn('#ffffff')).toBe('#000000');
    expect(readableTextOn('#000000')).toBe('#ffffff');
    expect(readableTextOn('#F59E0B')).toBe('#000000'); // amber: white on it fails WCAG AA
    expect(readableTextOn('#1E3A8A')).toBe('#ffffff');
    expect(relativeLuminance('#ffffff')).toBeCloseTo(1);
    // Every grey from black to white gets text of at least 4.5:1 (WCAG AA for small text).
    for (let v = 0; v < 256; v += 1) {
      const hex = `#${v.toString(16).padStart(2, '0').repeat(3)}`;
      const [a, b] = [relativeLuminance(hex), relativeLuminance(readableTextOn(hex))];
      expect((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05), hex).toBeGreaterThanOrEqual(4.5);
    }
  });
});
