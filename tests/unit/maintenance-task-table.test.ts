import { describe, expect, it } from 'vitest';
import { DEFAULT_TASK_PAGE_SIZE, DEFAULT_TASK_SORT, pageOf, sortTasks, TASK_PAGE_SIZES, toggleSort, truncateTitle, type TaskTableInput } from '../../src/client/lib/task-table';

const NOW = new Date(2026, 10, 24, 10);
const at = (y: number, m: number, d: number) => new Date(y, m - 1, d).getTime();
const task = (id: string, fields: Partial<TaskTableInput> = {}): TaskTableInput => ({
  nodeid: `n-${id}`,
  maintenancetaskid: id,
  title: `Aufgabe ${id}`,
  triggertype: 'time',
  repetitioninterval: 'onetime',
  startingfrom: at(2026, 12, 1),
  nextdueat: null,
  reminder: null,
  category: null,
  ...fields,
});

const TASKS = [
  task('WA-0010', { startingfrom: at(2027, 1, 15), reminder: '1w', category: { name: 'Sicherheit' }, repetitioninterval: '12m' }),
  task('WA-0002', { triggertype: 'counter', reminder: '2d', category: { name: 'Inspektion' }, repetitioninterval: '1m' }),
  task('WA-0003', { startingfrom: at(2026, 11, 30), category: { name: 'Schmierung' }, repetitioninterval: '1w' }),
  task('WA-0001', { startingfrom: at(2026, 12, 24), reminder: '1m' }),
];
const ids = (rows: { maintenancetaskid: string }[]) => rows.map((row) => row.maintenancetaskid);

describe('maintenance table: sorting', () => {
  it('defaults to the next due date, soonest first, counter-triggered tasks last', () => {
    expect(DEFAULT_TASK_SORT).toEqual({ column: 'nextDue', direction: 'asc' });
    expect(ids(sortTasks(TASKS, DEFAULT_TASK_SORT, NOW))).toEqual(['WA-0003', 'WA-0001', 'WA-0010', 'WA-0002']);
  });

  it.each<[Parameters<typeof sortTasks>[1], string[]]>([
    [{ column: 'nextDue', direction: 'desc' }, ['WA-0010', 'WA-0001', 'WA-0003', 'WA-0002']],
    [{ column: 'task', direction: 'asc' }, ['WA-0001', 'WA-0002', 'WA-0003', 'WA-0010']],
    [{ column: 'task', direction: 'desc' }, ['WA-0010', 'WA-0003', 'WA-0002', 'WA-0001']],
    [{ column: 'repetition', direction: 'asc' }, ['WA-0001', 'WA-0003', 'WA-0002', 'WA-0010']],
    [{ column: 'reminder', direction: 'asc' }, ['WA-0002', 'WA-0010', 'WA-0001', 'WA-0003']],
    [{ column: 'reminder', direction: 'desc' }, ['WA-0001', 'WA-0010', 'WA-0002', 'WA-0003']],
    [{ column: 'category', direction: 'asc' }, ['WA-0002', 'WA-0003', 'WA-0010', 'WA-0001']],
  ])('%o', (sort, expected) => {
    expect(ids(sortTasks(TASKS, sort, NOW))).toEqual(expected);
  });

  it('numbers in task ids sort as numbers (WA-9 before WA-10)', () => {
    expect(ids(sortTasks([task('WA-10'), task('WA-9')], { column: 'task', direction: 'asc' }, NOW))).toEqual(['WA-9', 'WA-10']);
  });

  it('carries the §4.5 due date on each row', () => {
    const [first] = sortTasks([task('WA-1', { repetitioninterval: '1w', startingfrom: at(2026, 11, 3) })], DEFAULT_TASK_SORT, NOW);
    expect(first!.due).toEqual({ kind: 'date', at: new Date(2026, 10, 24), overdue: false });
  });

  it('a click flips the same column and starts another ascending', () => {
    expect(toggleSort({ column: 'task', direction: 'asc' }, 'task')).toEqual({ column: 'task', direction: 'desc' });
    expect(toggleSort({ column: 'task', direction: 'desc' }, 'task')).toEqual({ column: 'task', direction: 'asc' });
    expect(toggleSort({ column: 'task', direction: 'desc' }, 'category')).toEqual({ column: 'category', direction: 'asc' });
  });
});

describe('maintenance table: paging', () => {
  const rows = Array.from({ length: 12 }, (_, index) => index + 1);

  it('offers 5, 10, 25 and 50 rows, 5 by default', () => {
    expect(TASK_PAGE_SIZES).toEqual([5, 10, 25, 50]);
    expect(DEFAULT_TASK_PAGE_SIZE).toBe(5);
  });

  it.each<[number, number, number[], string]>([
    [0, 5, [1, 2, 3, 4, 5], '1–5 of 12, page 0 of 3'],
    [2, 5, [11, 12], '11–12 of 12, page 2 of 3'],
    [7, 5, [11, 12], '11–12 of 12, page 2 of 3'],
    [-1, 5, [1, 2, 3, 4, 5], '1–5 of 12, page 0 of 3'],
    [1, 10, [11, 12], '11–12 of 12, page 1 of 2'],
    [0, 25, rows, '1–12 of 12, page 0 of 1'],
  ])('page %i at %i rows', (page, size, expected, summary) => {
    const result = pageOf(rows, page, size);
    expect(result.rows).toEqual(expected);
    expect(`${result.from}–${result.to} of ${result.total}, page ${result.page} of ${result.pageCount}`).toBe(summary);
  });

  it('an empty table is one empty page', () => {
    expect(pageOf([], 0, 5)).toEqual({ rows: [], page: 0, pageCount: 1, from: 0, to: 0, total: 0 });
  });
});

describe('task title', () => {
  it.each([
    ['Sichtprüfung', 'Sichtprüfung'],
    ['Exactly twenty-eight chars!!', 'Exactly twenty-eight chars!!'],
    ['Ölwechsel Hydraulikaggregat und Filterwechsel', 'Ölwechsel Hydraulikaggregat…'],
  ])('%s', (title, expected) => {
    expect(truncateTitle(title)).toBe(expected);
    expect([...truncateTitle(title)].length).toBeLessThanOrEqual(28);
  });
});
