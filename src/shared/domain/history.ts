import { NOTIFICATION_STATUSES, NOTIFICATION_TYPE, REPORTABLE_NOTIFICATION_TYPES, type NotificationStatus, type NotificationType } from './notification';

/**
 * The machine history of spec part 1 §2.1 (history tab): which notifications its filters keep, how the timeline
 * groups them, and the date input's rule. Pure, so the tab, the PDF report and any server query agree.
 */

/** "The type filter hides types 3, 4 and 5": the types offered are the reportable ones without tasks. */
export const HISTORY_FILTER_TYPES: readonly NotificationType[] = REPORTABLE_NOTIFICATION_TYPES.filter((type) => type !== NOTIFICATION_TYPE.task);

/** "Status filter values are 0, 1, 2." */
export const HISTORY_FILTER_STATUSES: readonly NotificationStatus[] = NOTIFICATION_STATUSES;

/** The date inputs' placeholder (§2.1); they also take the day as the app shows dates, DD.MM.YYYY. */
export const HISTORY_DATE_PLACEHOLDER = 'YYYY-MM-DD';

/** The filter as the panel holds it: null or '' means "not set", and a filter that is not set does not act. */
export interface HistoryFilter {
  type: NotificationType | null;
  status: NotificationStatus | null;
  /** As typed, 'YYYY-MM-DD' or 'DD.MM.YYYY'. */
  from: string;
  to: string;
}

export const EMPTY_HISTORY_FILTER: HistoryFilter = Object.freeze({ type: null, status: null, from: '', to: '' });

/** What the filters look at of a notification. `created` is its date on the timeline (epoch ms). */
export interface HistoryEntryFields {
  type: unknown;
  status: number;
  created: number | null;
}

export type HistoryDate = { kind: 'empty' } | { kind: 'invalid' } | { kind: 'date'; year: number; month: number; day: number };

/**
 * A typed date: empty, a real calendar day, or invalid (2026-02-30, 31.02.2026, …); surrounding blanks ignored. The
 * placeholder's 'YYYY-MM-DD', and as every other date of the app shows it 'DD.MM.YYYY' (also '5.3.2026'): a German
 * technician types the date as they read it.
 */
export function parseHistoryDate(text: string): HistoryDate {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'empty' };
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(trimmed);
  const german = iso ? null : /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(trimmed);
  if (!iso && !german) return { kind: 'invalid' };
  const [year, month, day] = iso ? [Number(iso[1]), Number(iso[2]), Number(iso[3])] : [Number(german![3]), Number(german![2]), Number(german![1])];
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (year < 1900 || probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return { kind: 'invalid' };
  return { kind: 'date', year, month, day };
}

export type HistoryFilterError = 'invalidDate' | 'fromAfterTo';

export interface HistoryFilterErrors {
  from?: HistoryFilterError;
  to?: HistoryFilterError;
}

/** Errors to show at the date fields; an erroneous bound does not act (the list is never filtered by a guess). */
export function historyFilterErrors(filter: HistoryFilter): HistoryFilterErrors {
  const from = parseHistoryDate(filter.from);
  const to = parseHistoryDate(filter.to);
  const errors: HistoryFilterErrors = {};
  if (from.kind === 'invalid') errors.from = 'invalidDate';
  if (to.kind === 'invalid') errors.to = 'invalidDate';
  if (from.kind === 'date' && to.kind === 'date' && dayStart(from) > dayStart(to)) errors.to = 'fromAfterTo';
  return errors;
}

/** Midnight of the day on the device's clock: the timeline shows local dates, so "from 2026-03-05" means that local day. */
function dayStart(date: { year: number; month: number; day: number }): number {
  return new Date(date.year, date.month - 1, date.day).getTime();
}

function nextDayStart(date: { year: number; month: number; day: number }): number {
  return new Date(date.year, date.month - 1, date.day + 1).getTime();
}

/** The time window the date fields set: both bounds inclusive by day; a bound not set (or in error) is open. */
export function historyDateWindow(filter: HistoryFilter): { from: number | null; until: number | null } {
  const errors = historyFilterErrors(filter);
  const from = parseHistoryDate(filter.from);
  const to = parseHistoryDate(filter.to);
  const usable = errors.to !== 'fromAfterTo';
  return {
    from: usable && from.kind === 'date' ? dayStart(from) : null,
    until: usable && to.kind === 'date' ? nextDayStart(to) : null,
  };
}

/** Whether any filter acts (the reset button and the report's "Filter: keine" read it). */
export function isHistoryFiltered(filter: HistoryFilter): boolean {
  const window = historyDateWindow(filter);
  return filter.type !== null || filter.status !== null || window.from !== null || window.until !== null;
}

/** Whether one notification passes the filter: each filter acts only when it is set. */
export function matchesHistoryFilter(entry: HistoryEntryFields, filter: HistoryFilter): boolean {
  if (filter.type !== null && entry.type !== filter.type) return false;
  if (filter.status !== null && entry.status !== filter.status) return false;
  const window = historyDateWindow(filter);
  if (window.from !== null || window.until !== null) {
    if (entry.created === null) return false;
    if (window.from !== null && entry.created < window.from) return false;
    if (window.until !== null && entry.created >= window.until) return false;
  }
  return true;
}

/** Newest first; the same date keeps a stable order by id so the list does not jump between renders. */
export function sortHistory<T extends HistoryEntryFields & { nodeid: string }>(entries: readonly T[]): T[] {
  return [...entries].sort((a, b) => (b.created ?? 0) - (a.created ?? 0) || a.nodeid.localeCompare(b.nodeid));
}

/** The filtered entries, newest first. */
export function filterHistory<T extends HistoryEntryFields & { nodeid: string }>(entries: readonly T[], filter: HistoryFilter): T[] {
  return sortHistory(entries.filter((entry) => matchesHistoryFilter(entry, filter)));
}

export interface HistoryYear<T> {
  /** The local calendar year, or null for entries without a date (old rows), which come last. */
  year: number | null;
  entries: T[];
}

/** Consecutive entries (already newest first) grouped by their local calendar year. */
export function groupHistoryByYear<T extends HistoryEntryFields>(sorted: readonly T[]): HistoryYear<T>[] {
  const groups: HistoryYear<T>[] = [];
  for (const entry of sorted) {
    const year = entry.created === null ? null : new Date(entry.created).getFullYear();
    const last = groups.at(-1);
    if (last && last.year === year) last.entries.push(entry);
    else groups.push({ year, entries: [entry] });
  }
  return groups;
}

/** The build year of a machine from its `constructiondate` (1 January UTC of that year), null when unset. */
export function buildYearOf(constructiondate: unknown): number | null {
  if (typeof constructiondate !== 'number' || !Number.isFinite(constructiondate)) return null;
  return new Date(constructiondate).getUTCFullYear();
}
