import { parseTypedDay, type TypedDay } from './typed-day';
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

export type HistoryDate = TypedDay;

/** The history filter's date input: the app's typed-day rule (`parseTypedDay`: 'YYYY-MM-DD' or 'DD.MM.YYYY'). */
export function parseHistoryDate(text: string): HistoryDate {
  return parseTypedDay(text);
}

/** `invalidDate`: not written as a day; `noSuchDate`: a day the calendar does not have (31.02.2026). */
export type HistoryFilterError = 'invalidDate' | 'noSuchDate' | 'fromAfterTo';

export interface HistoryFilterErrors {
  from?: HistoryFilterError;
  to?: HistoryFilterError;
}

/** Errors to show at the date fields; an erroneous bound does not act (the list is never filtered by a guess). */
export function historyFilterErrors(filter: HistoryFilter): HistoryFilterErrors {
  const from = parseHistoryDate(filter.from);
  const to = parseHistoryDate(filter.to);
  const errors: HistoryFilterErrors = {};
  if (from.kind === 'invalid') errors.from = from.reason === 'noSuchDay' ? 'noSuchDate' : 'invalidDate';
  if (to.kind === 'invalid') errors.to = to.reason === 'noSuchDay' ? 'noSuchDate' : 'invalidDate';
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
