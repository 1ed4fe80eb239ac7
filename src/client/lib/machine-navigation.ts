/**
 * The machine screen's navigation (part 1 §2.1): query `nodeid` and `tab`, and the navigation state a caller may
 * pass (nodeid, from area/mb/notification, typename, isFiltered, srno, c_yr). Pure, so it is unit-tested.
 * - `tab` 0–5 is the spec's index (overview, history, documentation, FAQ, maintenance, counters); anything else
 *   opens the overview. `-1` asks for a reload of the machine's data first, then opens `state.tab` (0–5) or the
 *   overview (a form that changed the machine's data sends the user back this way, e.g. the FAQ form: tab -1
 *   with `state.tab` 3).
 * - The breadcrumb leads to /dashboard; to /types-machines when `from` is `mb` (with the list's filter state, so
 *   the list comes back as it was left); to the notification when `from` is `notification` and
 *   `notificationnodeid` names it; to the plant's page when `from` is `sites` and `sitenodeid` names it; to
 *   /machines when `from` is `machines` (the lists of plants and pools link each machine).
 */
export const MACHINE_TAB_INDEXES = ['0', '1', '2', '3', '4', '5'] as const;
export type MachineTabIndex = (typeof MACHINE_TAB_INDEXES)[number];
export const RELOAD_TAB = '-1';

export interface MachineNavigationState {
  nodeid?: string;
  from?: 'area' | 'mb' | 'notification' | 'sites' | 'machines';
  typename?: string;
  isFiltered?: boolean;
  srno?: string;
  c_yr?: string | number;
  notificationnodeid?: string;
  /** With `from` sites: the plant whose page opened the machine. */
  sitenodeid?: string;
  /** With tab -1: the tab to open after the reload. */
  tab?: number | string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The state as far as it has the expected shape; anything else is dropped (a stale or foreign history entry). */
export function readNavigationState(value: unknown): MachineNavigationState {
  if (!isRecord(value)) return {};
  const state: MachineNavigationState = {};
  if (typeof value.nodeid === 'string') state.nodeid = value.nodeid;
  if (value.from === 'area' || value.from === 'mb' || value.from === 'notification' || value.from === 'sites' || value.from === 'machines') state.from = value.from;
  if (typeof value.typename === 'string') state.typename = value.typename;
  if (typeof value.isFiltered === 'boolean') state.isFiltered = value.isFiltered;
  if (typeof value.srno === 'string') state.srno = value.srno;
  if (typeof value.c_yr === 'string' || typeof value.c_yr === 'number') state.c_yr = value.c_yr;
  if (typeof value.notificationnodeid === 'string') state.notificationnodeid = value.notificationnodeid;
  if (typeof value.sitenodeid === 'string') state.sitenodeid = value.sitenodeid;
  if (typeof value.tab === 'number' || typeof value.tab === 'string') state.tab = value.tab;
  return state;
}

export function tabIndex(value: unknown): MachineTabIndex | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : null;
  return MACHINE_TAB_INDEXES.find((index) => index === text) ?? null;
}

export type TabRequest = { kind: 'tab'; tab: MachineTabIndex } | { kind: 'reload'; then: MachineTabIndex };

export function tabRequest(query: string | null, state: MachineNavigationState): TabRequest {
  if (query?.trim() === RELOAD_TAB) return { kind: 'reload', then: tabIndex(state.tab) ?? '0' };
  return { kind: 'tab', tab: tabIndex(query) ?? '0' };
}

export interface BackTarget {
  to: string;
  state?: Record<string, unknown>;
  labelKey: 'machine.breadcrumb' | 'machine.nav.backToTypes' | 'machine.nav.backToNotification' | 'machine.nav.backToPlant' | 'machine.nav.backToMachines';
}

export function backTarget(state: MachineNavigationState): BackTarget {
  if (state.from === 'mb') {
    const { typename, isFiltered, srno, c_yr } = state;
    return { to: '/types-machines', state: { typename, isFiltered, srno, c_yr }, labelKey: 'machine.nav.backToTypes' };
  }
  if (state.from === 'notification' && state.notificationnodeid) {
    return { to: `/notification-details?nodeid=${encodeURIComponent(state.notificationnodeid)}`, labelKey: 'machine.nav.backToNotification' };
  }
  if (state.from === 'sites' && state.sitenodeid) return { to: `/sites?sitenodeid=${encodeURIComponent(state.sitenodeid)}`, labelKey: 'machine.nav.backToPlant' };
  if (state.from === 'machines') return { to: '/machines', labelKey: 'machine.nav.backToMachines' };
  return { to: '/dashboard', labelKey: 'machine.breadcrumb' };
}

/** Where a list opens a machine from: the state its breadcrumb leads back with. */
export type MachineListOrigin = { from: 'sites'; sitenodeid: string } | { from: 'machines' };

/** Tabs whose content changes elsewhere often (FAQ, maintenance): §2.1 "reloads the machine after 2 seconds". */
export const REFRESHED_TABS: readonly MachineTabIndex[] = ['3', '4'];
export const REFRESH_DELAY_MS = 2000;
