/**
 * The notifications dashboard's reader (issue #13): the followed machines' notifications from the local mirror,
 * filtered and sorted by Dexie's compound indexes (schema v5, db/local-db.ts) and read a page at a time, so 100,000
 * rows on the device are never loaded at once.
 *
 * A query is a list of groups read in order (the type sort: one group per type; the machine sort: one per machine;
 * otherwise one group), each group a few index ranges ("streams") merged by `created`. Every index ends in `created`,
 * so the date range is part of the key range; what no range covers (the machine set, types, search) is checked on
 * the rows read, which come in batches of one request each (readStream). Pages continue after the last row shown
 * (keyset, not offset).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useState } from 'react';
import type { StructureTree } from '../../shared/api/structure';
import {
  compareInGroup,
  createdDirection,
  followedMachines,
  isAfterCursor,
  machinesInFilter,
  matchesFilters,
  normalizeSearch,
  typeGroups,
  type DashboardCursor,
  type DashboardFilters,
  type DashboardMachine,
  type DashboardRow,
  type DashboardSort,
  type SortDirection,
} from '../../shared/domain/notifications-dashboard';
import { NOTIFICATION_TYPES } from '../../shared/domain/notification';
import { selectionOf, subscribedTree } from '../../shared/domain/subscription';
import { getLocalDb, type LocalDatabase, type MirrorRow } from '../db/local-db';
import { readCategoryColours } from './category-colours';
import { isLive } from './mirror-fields';
import { watchDeviceStructure } from './structure-mirror';

/** Up to this many machines, the created sort reads each machine's own index range instead of the status range. */
export const MACHINE_STREAMS_MAX = 24;
/** Groups read side by side when a page spans several (the machine sort over machines without notifications). */
const GROUP_BATCH = 8;

type IndexName = '[status+created]' | '[status+type+created]' | '[equipmentnodeid+status+created]';

/** One index range: the key prefix before `created`. */
interface Stream {
  index: IndexName;
  prefix: (string | number)[];
}

export interface DashboardPlan {
  filters: DashboardFilters;
  /** The machines the filters leave (followed, in scope, the chosen one). */
  machines: ReadonlySet<string>;
  direction: SortDirection;
  groups: Stream[][];
}

/** Which index ranges answer `filters` in `sort`'s order (pure: unit-tested). */
export function planDashboardQuery(followed: readonly DashboardMachine[], filters: DashboardFilters, sort: DashboardSort): DashboardPlan {
  const inFilter = machinesInFilter(followed, filters);
  const machines = new Set(inFilter.map((m) => m.nodeid));
  const statuses = [...filters.statuses].sort((a, b) => a - b);
  const direction = createdDirection(sort);
  let groups: Stream[][];
  if (sort.key === 'type') {
    groups = typeGroups(filters, sort.direction, NOTIFICATION_TYPES).map((type) => statuses.map((status) => ({ index: '[status+type+created]', prefix: [status, type] })));
  } else if (sort.key === 'machine') {
    const ordered = sort.direction === 'asc' ? inFilter : [...inFilter].reverse();
    groups = ordered.map((m) => statuses.map((status) => ({ index: '[equipmentnodeid+status+created]', prefix: [m.nodeid, status] })));
  } else {
    groups = [createdOrderStreams([...machines], filters)];
  }
  return { filters, machines, direction, groups: machines.size === 0 ? [] : groups };
}

/** The ranges of the created order (one group): per machine for a few machines, else per status (and type). */
function createdOrderStreams(machines: readonly string[], filters: DashboardFilters): Stream[] {
  const statuses = [...filters.statuses].sort((a, b) => a - b);
  if (machines.length <= MACHINE_STREAMS_MAX) return machines.flatMap((m) => statuses.map((status): Stream => ({ index: '[equipmentnodeid+status+created]', prefix: [m, status] })));
  if (filters.types.length > 0) return statuses.flatMap((status) => filters.types.map((type): Stream => ({ index: '[status+type+created]', prefix: [status, type] })));
  return statuses.map((status): Stream => ({ index: '[status+created]', prefix: [status] }));
}

const asRow = (row: MirrorRow): DashboardRow => row as unknown as DashboardRow;

function streamRange(stream: Stream, filters: DashboardFilters, direction: SortDirection, after: Pick<DashboardCursor, 'created'> | null): [unknown[], unknown[]] {
  let low = filters.from ?? -Infinity;
  let high = filters.to ?? Infinity;
  // The cursor's own `created` stays in range: rows of the same millisecond after it by nodeid still follow.
  if (after && direction === 'desc') high = Math.min(high, after.created);
  if (after && direction === 'asc') low = Math.max(low, after.created);
  return [
    [...stream.prefix, low],
    [...stream.prefix, high],
  ];
}

/** The first read of a stream asks for the rows still needed; never fewer than this. */
const FIRST_BATCH_MIN = 25;
/**
 * Reads grow to at most this many rows (a filter that matches almost nothing reads in steps); only getting past
 * more rows of one millisecond than the last read held doubles a read beyond it.
 */
const BATCH_MAX = 2_000;

/**
 * How many rows the next read asks for: the rows still needed at the rate the stream has matched so far, capped;
 * never fewer than the read before (a read continues at its last row's millisecond, so a smaller one could
 * return only rows already read).
 */
function nextBatchSize(previous: number, needed: number, seen: number, matched: number): number {
  const estimate = matched === 0 ? previous * 4 : Math.ceil((needed * seen * 1.25) / matched);
  return Math.max(previous, Math.min(estimate, BATCH_MAX));
}

/**
 * Up to `limit` rows of one index range that pass the filters, after `after`. Read in batches (one getAll each:
 * Chromium's getAllRecords reads either direction in one request, where a filtering cursor costs a request per
 * row), each batch continuing at the `created` of the last row read; rows of that millisecond already read are
 * skipped by (created, nodeid), the index's own order within a prefix.
 */
async function readStream(db: LocalDatabase, plan: DashboardPlan, stream: Stream, after: DashboardCursor | null, limit: number, needle: string): Promise<MirrorRow[]> {
  let [lower, upper] = streamRange(stream, plan.filters, plan.direction, after);
  const table = db.mirror('notifications');
  const found: MirrorRow[] = [];
  let from: Pick<DashboardCursor, 'created' | 'nodeid'> | null = after;
  let size = Math.max(limit, FIRST_BATCH_MIN);
  let seen = 0;
  for (;;) {
    if ((lower[lower.length - 1] as number) > (upper[upper.length - 1] as number)) return found;
    let collection = table.where(stream.index).between(lower, upper, true, true);
    if (plan.direction === 'desc') collection = collection.reverse();
    const batch = await collection.limit(size).toArray();
    let fresh = 0;
    for (const row of batch) {
      if (from && !isAfterCursor(asRow(row), from, plan.direction)) continue;
      fresh += 1;
      if (isLive(row) && matchesFilters(asRow(row), plan.filters, plan.machines, needle)) {
        found.push(row);
        if (found.length === limit) return found;
      }
    }
    if (batch.length < size) return found;
    if (fresh === 0) {
      // Nothing after `from` yet: one millisecond's rows read again; the next read must be larger to get past them.
      size *= 2;
      continue;
    }
    seen += fresh;
    const last = asRow(batch[batch.length - 1]!);
    from = { created: last.created, nodeid: last.nodeid };
    if (plan.direction === 'desc') upper = [...stream.prefix, last.created];
    else lower = [...stream.prefix, last.created];
    size = nextBatchSize(size, limit - found.length, seen, found.length);
  }
}

async function readGroup(db: LocalDatabase, plan: DashboardPlan, group: number, after: DashboardCursor | null, limit: number, needle: string): Promise<DashboardRow[]> {
  const parts = await Promise.all(plan.groups[group]!.map((stream) => readStream(db, plan, stream, after, limit, needle)));
  return parts
    .flat()
    .map(asRow)
    .sort((a, b) => compareInGroup(a, b, plan.direction))
    .slice(0, limit);
}

export interface DashboardPage {
  rows: DashboardRow[];
  /** Where the next page starts; null when the list ends here. */
  next: DashboardCursor | null;
}

/** Up to `limit` rows in the list's order, after `after` (null: from the top). */
export async function readDashboardPage(db: LocalDatabase, plan: DashboardPlan, after: DashboardCursor | null, limit: number): Promise<DashboardPage> {
  const needle = normalizeSearch(plan.filters.search);
  const rows: DashboardRow[] = [];
  let last: DashboardCursor | null = null;
  let group = after?.group ?? 0;
  let cursor = after;
  while (group < plan.groups.length && rows.length < limit) {
    const need = limit - rows.length;
    const batch = cursor ? [group] : Array.from({ length: Math.min(GROUP_BATCH, plan.groups.length - group) }, (_, i) => group + i);
    const read = await Promise.all(batch.map((g) => readGroup(db, plan, g, g === cursor?.group ? cursor : null, need, needle)));
    for (const [i, groupRows] of read.entries()) {
      for (const row of groupRows) {
        if (rows.length === limit) break;
        rows.push(row);
        last = { group: batch[i]!, created: row.created, nodeid: row.nodeid };
      }
    }
    group = batch[batch.length - 1]! + 1;
    cursor = null;
  }
  const more = rows.length === limit && last !== null;
  return { rows, next: more ? last : null };
}

/**
 * How many rows the list holds. Without type and search filters: IndexedDB key-range counts per machine (no rows
 * read; one range over a machine's statuses when they are adjacent and no date bound splits them), all in one
 * readonly transaction (a transaction per request is what made thousands of small counts take seconds). Otherwise the created
 * order's ranges are read whole (getAll: one request per range, far quicker than a cursor stepping row by row) and
 * checked here.
 */
export async function countDashboard(db: LocalDatabase, plan: DashboardPlan): Promise<number> {
  const { filters } = plan;
  const low = filters.from ?? -Infinity;
  const high = filters.to ?? Infinity;
  if (low > high || plan.groups.length === 0) return 0;
  const table = db.mirror('notifications');
  const needle = normalizeSearch(filters.search);
  const statuses = [...filters.statuses].sort((a, b) => a - b);
  if (filters.types.length === 0 && needle === '') {
    return db.transaction('r', table, async () => {
      const index = table.where('[equipmentnodeid+status+created]');
      const adjacent = statuses.every((status, i) => i === 0 || status === statuses[i - 1]! + 1);
      const ranges = [...plan.machines].flatMap((machine): [unknown[], unknown[]][] =>
        adjacent && low === -Infinity && high === Infinity
          ? [[[machine, statuses[0]!, low], [machine, statuses[statuses.length - 1]!, high]]]
          : statuses.map((status) => [[machine, status, low], [machine, status, high]]),
      );
      const counts = await Promise.all(ranges.map(([lower, upper]) => index.between(lower, upper, true, true).count()));
      return counts.reduce((sum, n) => sum + n, 0);
    });
  }
  let total = 0;
  // One range at a time: a range's rows are garbage before the next is read.
  for (const stream of createdOrderStreams([...plan.machines], filters)) {
    const rows = await table.where(stream.index).between([...stream.prefix, low], [...stream.prefix, high], true, true).toArray();
    for (const row of rows) if (isLive(row) && matchesFilters(asRow(row), filters, plan.machines, needle)) total += 1;
  }
  return total;
}

export type FollowedMachinesState = { status: 'loading' } | { status: 'ready'; machines: DashboardMachine[]; tree: StructureTree };

/** The machines the user follows (subscriptions, part 2 §1), from the mirror, live. Loading until the first sync. */
export function useFollowedMachines(usernodeid: string | undefined, language: string): FollowedMachinesState {
  const [state, setState] = useState<FollowedMachinesState>({ status: 'loading' });
  useEffect(() => {
    if (!usernodeid) return undefined;
    return watchDeviceStructure(language, usernodeid, (structure) => {
      if (!structure) return;
      const tree = subscribedTree(structure.tree, selectionOf(structure.subscriptions));
      setState({ status: 'ready', machines: followedMachines(tree, language), tree });
    });
  }, [usernodeid, language]);
  return state;
}

export interface DashboardList {
  /** Planned maintenance rows' category colours (§4.1), by notification id. */
  colorcodes: ReadonlyMap<string, string>;
  rows: DashboardRow[];
  hasMore: boolean;
  /** Null while counting. */
  total: number | null;
  /** The rows are still the previous filter's. */
  stale: boolean;
}

/**
 * The first `limit` rows of the list, live (a pull or a local write re-reads them), and its count. The screen
 * raises `limit` a page at a time as the virtual list nears its end. Undefined while the first read runs.
 */
export function useDashboardList(followed: readonly DashboardMachine[] | undefined, filters: DashboardFilters, sort: DashboardSort, limit: number): DashboardList | undefined {
  const plan = useMemo(() => (followed ? planDashboardQuery(followed, filters, sort) : null), [followed, filters, sort]);
  const page = useLiveQuery(async () => {
    if (!plan) return undefined;
    const db = getLocalDb();
    const read = await readDashboardPage(db, plan, null, limit);
    return { plan, page: read, colorcodes: await readCategoryColours(db, read.rows) };
  }, [plan, limit]);
  const total = useLiveQuery(async () => (plan ? { plan, total: await countDashboard(getLocalDb(), plan) } : undefined), [plan]);
  if (!page) return undefined;
  // While a new filter's first page is read, the previous rows stay (no flash of an empty list).
  return { colorcodes: page.colorcodes, rows: page.page.rows, hasMore: page.page.next !== null, total: total && total.plan === plan ? total.total : null, stale: page.plan !== plan };
}

