/**
 * The notifications dashboard's rules (issue #13): which notifications of the followed machines a filter keeps, in
 * which order they are listed, and where the next page starts. Pure, so the device's reader
 * (src/client/sync/notifications-dashboard.ts) and the unit tests use the same functions.
 */
import type { StructureTree } from '../api/structure';
import { NOTIFICATION_STATUS, REPORTABLE_NOTIFICATION_TYPES, type NotificationStatus } from './notification';

export const DASHBOARD_SORT_KEYS = ['created', 'elapsed', 'type', 'machine'] as const;
export type DashboardSortKey = (typeof DASHBOARD_SORT_KEYS)[number];
export type SortDirection = 'asc' | 'desc';

export interface DashboardSort {
  key: DashboardSortKey;
  direction: SortDirection;
}

/** A part of the plant the list is narrowed to: a plant, an area or a pool. */
export interface DashboardScope {
  type: 'site' | 'area' | 'equipmentpool';
  nodeid: string;
}

export interface DashboardFilters {
  /** Empty: every type. */
  types: number[];
  /** Never empty in practice; the default is the open ones (§4.2: status below 2). */
  statuses: NotificationStatus[];
  scope: DashboardScope | null;
  machine: string | null;
  /** Epoch ms, inclusive; null = unbounded. */
  from: number | null;
  to: number | null;
  search: string;
}

export const DEFAULT_DASHBOARD_FILTERS: DashboardFilters = {
  types: [],
  statuses: [NOTIFICATION_STATUS.open, NOTIFICATION_STATUS.inProgress],
  scope: null,
  machine: null,
  from: null,
  to: null,
  search: '',
};

export const DEFAULT_DASHBOARD_SORT: DashboardSort = { key: 'created', direction: 'desc' };

/** The types offered as filter chips: the reportable ones (4 and 5 are never created). */
export const DASHBOARD_FILTER_TYPES = REPORTABLE_NOTIFICATION_TYPES;

/** The fields of a notification row the dashboard reads. */
export interface DashboardRow {
  nodeid: string;
  type: number;
  status: number;
  title: string;
  errorcode?: string | null;
  created: number;
  equipmentnodeid: string;
}

/** A followed machine with where it stands, for the row's second line and the machine sort. */
export interface DashboardMachine {
  nodeid: string;
  name: string;
  /** "Werk Nord / Halle 2" or the pool's name. */
  place: string;
  siteNodeid: string | null;
  areaNodeid: string | null;
  poolNodeid: string | null;
}

/**
 * The followed machines (from the subscribed tree) in name order. A machine in a followed area and a followed pool
 * is listed once, with its area as the place.
 */
export function followedMachines(tree: StructureTree, language = 'de'): DashboardMachine[] {
  const machines = new Map<string, DashboardMachine>();
  for (const site of tree.sites) {
    for (const area of site.areas) {
      for (const machine of area.equipment) {
        machines.set(machine.nodeid, { nodeid: machine.nodeid, name: machine.name, place: `${site.name} / ${area.name}`, siteNodeid: site.nodeid, areaNodeid: area.nodeid, poolNodeid: null });
      }
    }
  }
  for (const pool of tree.equipmentpools) {
    for (const machine of pool.equipment) {
      const known = machines.get(machine.nodeid);
      if (known) known.poolNodeid = pool.nodeid;
      else machines.set(machine.nodeid, { nodeid: machine.nodeid, name: machine.name, place: pool.name, siteNodeid: null, areaNodeid: null, poolNodeid: pool.nodeid });
    }
  }
  return [...machines.values()].sort((a, b) => a.name.localeCompare(b.name, language) || a.nodeid.localeCompare(b.nodeid));
}

/** The followed machines the scope and machine filters leave, in the same (name) order. */
export function machinesInFilter(machines: readonly DashboardMachine[], filters: Pick<DashboardFilters, 'scope' | 'machine'>): DashboardMachine[] {
  const { scope, machine } = filters;
  return machines.filter((m) => {
    if (machine && m.nodeid !== machine) return false;
    if (!scope) return true;
    if (scope.type === 'site') return m.siteNodeid === scope.nodeid;
    if (scope.type === 'area') return m.areaNodeid === scope.nodeid;
    return m.poolNodeid === scope.nodeid;
  });
}

/** Lower-cased, trimmed search text; empty means no search. */
export function normalizeSearch(search: string): string {
  return search.trim().toLocaleLowerCase('de');
}

/** Search on title and error code, case-insensitive, as a substring. */
export function matchesSearch(row: Pick<DashboardRow, 'title' | 'errorcode'>, needle: string): boolean {
  if (!needle) return true;
  return row.title.toLocaleLowerCase('de').includes(needle) || (typeof row.errorcode === 'string' && row.errorcode.toLocaleLowerCase('de').includes(needle));
}

/**
 * Whether `row` passes every filter. The reader applies the parts its index range already covers again here (cheap),
 * so this function alone says what the list shows.
 */
export function matchesFilters(row: DashboardRow, filters: DashboardFilters, machines: ReadonlySet<string>, needle = normalizeSearch(filters.search)): boolean {
  if (!machines.has(row.equipmentnodeid)) return false;
  if (!(filters.statuses as readonly number[]).includes(row.status)) return false;
  if (filters.types.length > 0 && !filters.types.includes(row.type)) return false;
  if (filters.from !== null && row.created < filters.from) return false;
  if (filters.to !== null && row.created > filters.to) return false;
  return matchesSearch(row, needle);
}

/**
 * The order of `created` inside a group: the elapsed time of a notification runs from its creation, so "longest
 * open first" (elapsed descending) is "oldest first". Type and machine sorts list each group newest first.
 */
export function createdDirection(sort: DashboardSort): SortDirection {
  if (sort.key === 'elapsed') return sort.direction === 'desc' ? 'asc' : 'desc';
  if (sort.key === 'created') return sort.direction;
  return 'desc';
}

/** The types in the order the type sort lists them (the filter's types, or all), by type number. */
export function typeGroups(filters: Pick<DashboardFilters, 'types'>, direction: SortDirection, allTypes: readonly number[]): number[] {
  const types = [...(filters.types.length > 0 ? filters.types : allTypes)].sort((a, b) => a - b);
  return direction === 'asc' ? types : types.reverse();
}

/** Where the next page starts: after this row of this group (groups: the sort's types or machines, or one group). */
export interface DashboardCursor {
  group: number;
  created: number;
  nodeid: string;
}

/** Compares two rows of one group in the list's order (created, then nodeid so equal times keep a fixed order). */
export function compareInGroup(a: Pick<DashboardRow, 'created' | 'nodeid'>, b: Pick<DashboardRow, 'created' | 'nodeid'>, direction: SortDirection): number {
  const order = a.created - b.created || (a.nodeid < b.nodeid ? -1 : a.nodeid > b.nodeid ? 1 : 0);
  return direction === 'asc' ? order : -order;
}

/** Whether `row` (of the cursor's group) comes after the cursor's row. */
export function isAfterCursor(row: Pick<DashboardRow, 'created' | 'nodeid'>, cursor: Pick<DashboardCursor, 'created' | 'nodeid'>, direction: SortDirection): boolean {
  return compareInGroup(row, cursor, direction) > 0;
}

/** Whether the filters differ from the defaults (the reset button and the empty state's wording). */
export function hasActiveFilters(filters: DashboardFilters): boolean {
  const d = DEFAULT_DASHBOARD_FILTERS;
  return (
    filters.types.length > 0 ||
    [...filters.statuses].sort().join() !== [...d.statuses].sort().join() ||
    filters.scope !== null ||
    filters.machine !== null ||
    filters.from !== null ||
    filters.to !== null ||
    normalizeSearch(filters.search) !== ''
  );
}
