/**
 * The maintenance tab's table model (part 1 §2.1): sort by a column, then page. Pure, so it is unit-tested;
 * the §4.5 next-due date comes from the shared rule.
 */
import { nextDue, REMINDER_OPTIONS, REPETITION_INTERVALS, type NextDue, type ReminderOption, type RepetitionInterval } from '../../shared/domain/maintenance';
import { truncateText } from '../../shared/domain/text';

export const TASK_PAGE_SIZES = [5, 10, 25, 50] as const;
export type TaskPageSize = (typeof TASK_PAGE_SIZES)[number];
export const DEFAULT_TASK_PAGE_SIZE: TaskPageSize = 5;
/** The spec's truncation of a task title (§9). */
export const TASK_TITLE_MAX = 28;

export type TaskSortColumn = 'task' | 'nextDue' | 'repetition' | 'reminder' | 'category';
export interface TaskSort {
  column: TaskSortColumn;
  direction: 'asc' | 'desc';
}
/** What a planner looks for first: the task due next. */
export const DEFAULT_TASK_SORT: TaskSort = { column: 'nextDue', direction: 'asc' };

export interface TaskTableInput {
  nodeid: string;
  maintenancetaskid: string;
  title: string;
  triggertype: 'time' | 'counter';
  repetitioninterval: RepetitionInterval;
  startingfrom: number;
  nextdueat: number | null;
  reminder: ReminderOption | null;
  category: { name: string } | null;
}

export type TaskTableRow<T extends TaskTableInput> = T & { due: NextDue };

/** 'Ölwechsel Hydraulikaggregat und Filter' → 'Ölwechsel Hydraulikaggregat …' (28 characters with the ellipsis). */
export function truncateTitle(title: string, max = TASK_TITLE_MAX): string {
  return truncateText(title, max);
}

const collator = new Intl.Collator('de', { numeric: true, sensitivity: 'base' });

/** Nulls (no reminder, no category, counter-triggered dates) sort last in either direction. */
function compareNullable<V>(a: V | null, b: V | null, compare: (x: V, y: V) => number, sign: number): number {
  if (a === null && b === null) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return sign * compare(a, b);
}

function key<T extends TaskTableInput>(row: TaskTableRow<T>, column: TaskSortColumn): string | number | null {
  switch (column) {
    case 'task':
      return `${row.maintenancetaskid} ${row.title}`;
    case 'nextDue':
      return row.due.kind === 'date' ? row.due.at.getTime() : null;
    case 'repetition':
      return REPETITION_INTERVALS.indexOf(row.repetitioninterval);
    case 'reminder':
      return row.reminder === null ? null : REMINDER_OPTIONS.indexOf(row.reminder);
    case 'category':
      return row.category?.name ?? null;
  }
}

/** Rows with their next due date, sorted; ties keep the task id order. */
export function sortTasks<T extends TaskTableInput>(tasks: readonly T[], sort: TaskSort, now: Date): TaskTableRow<T>[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  const compareValues = (x: string | number, y: string | number) => (typeof x === 'number' && typeof y === 'number' ? x - y : collator.compare(String(x), String(y)));
  return tasks
    .map((task) => ({ ...task, due: nextDue(task, now) }))
    .sort((a, b) => compareNullable(key(a, sort.column), key(b, sort.column), compareValues, sign) || collator.compare(a.maintenancetaskid, b.maintenancetaskid));
}

/** A click on a column: the same column flips its direction, another starts ascending. */
export function toggleSort(current: TaskSort, column: TaskSortColumn): TaskSort {
  return current.column === column ? { column, direction: current.direction === 'asc' ? 'desc' : 'asc' } : { column, direction: 'asc' };
}

export interface TaskPage<R> {
  rows: R[];
  /** 0-based, clamped to the last page (a page that emptied after a delete shows the last one). */
  page: number;
  pageCount: number;
  /** 1-based numbers of the first and last row shown; 0 and 0 for none. */
  from: number;
  to: number;
  total: number;
}

export function pageOf<R>(rows: readonly R[], page: number, size: number): TaskPage<R> {
  const pageCount = Math.max(1, Math.ceil(rows.length / size));
  const current = Math.min(Math.max(0, Math.floor(page)), pageCount - 1);
  const slice = rows.slice(current * size, current * size + size);
  return { rows: slice, page: current, pageCount, from: slice.length ? current * size + 1 : 0, to: current * size + slice.length, total: rows.length };
}
