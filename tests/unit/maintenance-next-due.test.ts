import { describe, expect, it } from 'vitest';
import { nextDue, shiftByInterval, type NextDueInput, type RepetitionInterval } from '../../src/shared/domain/maintenance';

/** Local dates, like the device the table runs on. */
const day = (y: number, m: number, d: number, h = 0) => new Date(y, m - 1, d, h).getTime();
const NOW = new Date(2026, 10, 24, 15, 30); // 24.11.2026, afternoon
const task = (fields: Partial<NextDueInput>): NextDueInput => ({ triggertype: 'time', repetitioninterval: '1m', startingfrom: day(2026, 1, 1), nextdueat: null, ...fields });
const dueDay = (input: NextDueInput) => {
  const result = nextDue(input, NOW);
  if (result.kind !== 'date') return result.kind;
  return `${result.at.getFullYear()}-${String(result.at.getMonth() + 1).padStart(2, '0')}-${String(result.at.getDate()).padStart(2, '0')}${result.overdue ? ' overdue' : ''}`;
};

describe('§4.5 next due: counter and one-time tasks', () => {
  it.each<[string, Partial<NextDueInput>, string]>([
    ['a counter-triggered task has the flag, whatever its dates', { triggertype: 'counter', nextdueat: day(2027, 1, 1) }, 'counter'],
    ['a counter-triggered one-time task has the flag too', { triggertype: 'counter', repetitioninterval: 'onetime' }, 'counter'],
    ['one-time with nextdueat -1: the start date', { repetitioninterval: 'onetime', startingfrom: day(2026, 12, 3) }, '2026-12-03'],
    ['one-time with a nextdueat: that date', { repetitioninterval: 'onetime', startingfrom: day(2026, 12, 3), nextdueat: day(2027, 2, 1) }, '2027-02-01'],
    ['one-time due today is not overdue', { repetitioninterval: 'onetime', startingfrom: day(2026, 11, 24, 6) }, '2026-11-24'],
    ['one-time due yesterday is overdue', { repetitioninterval: 'onetime', startingfrom: day(2026, 11, 23, 23) }, '2026-11-23 overdue'],
  ])('%s', (_name, fields, expected) => {
    expect(dueDay(task(fields))).toBe(expected);
  });
});

describe('§4.5 next due: time-triggered repetitions step back while not before today', () => {
  // The stored nextdueat lies several repetitions ahead (a series planned far in advance): the table shows the
  // earliest one that is today or later.
  it.each<[RepetitionInterval, number, string]>([
    ['1w', day(2026, 12, 29), '2026-11-24'],
    ['2w', day(2026, 12, 29), '2026-12-01'],
    ['1m', day(2027, 3, 10), '2026-12-10'],
    ['2m', day(2027, 3, 10), '2027-01-10'],
    ['3m', day(2027, 5, 20), '2027-02-20'],
    ['6m', day(2028, 5, 1), '2027-05-01'],
    ['12m', day(2029, 11, 24), '2026-11-24'],
    ['18m', day(2029, 11, 1), '2028-05-01'],
    ['24m', day(2030, 6, 1), '2028-06-01'],
    ['36m', day(2032, 6, 1), '2029-06-01'],
    ['48m', day(2034, 6, 1), '2030-06-01'],
  ])('%s from nextdueat %s', (interval, nextdueat, expected) => {
    expect(dueDay(task({ repetitioninterval: interval, startingfrom: day(2020, 1, 1), nextdueat }))).toBe(expected);
  });

  it.each<[string, Partial<NextDueInput>, string]>([
    ['a nextdueat that is the next date stays', { repetitioninterval: '1m', nextdueat: day(2026, 12, 5) }, '2026-12-05'],
    ['never steps back before the start date', { repetitioninterval: '1w', startingfrom: day(2026, 12, 15), nextdueat: day(2027, 1, 5) }, '2026-12-15'],
    ['a nextdueat in the past is overdue and shown as it is', { repetitioninterval: '1m', nextdueat: day(2026, 10, 1) }, '2026-10-01 overdue'],
    ['due today counts as not before today', { repetitioninterval: '1w', startingfrom: day(2026, 1, 6), nextdueat: day(2026, 12, 1, 8) }, '2026-11-24'],
    ['nextdueat unset: the series from the start, first date today or later', { repetitioninterval: '1m', startingfrom: day(2025, 3, 27) }, '2026-11-27'],
    ['nextdueat unset with a start in the future: the start', { repetitioninterval: '6m', startingfrom: day(2027, 4, 1) }, '2027-04-01'],
    ['nextdueat unset, weekly series that hits today', { repetitioninterval: '1w', startingfrom: day(2026, 11, 3, 7) }, '2026-11-24'],
  ])('%s', (_name, fields, expected) => {
    expect(dueDay(task(fields))).toBe(expected);
  });
});

describe('calendar months', () => {
  it.each<[string, Date, RepetitionInterval, number, string]>([
    ['31 Jan + 1 month is the last day of February', new Date(2026, 0, 31), '1m', 1, '2026-02-28'],
    ['in a leap year, 29 February', new Date(2028, 0, 31), '1m', 1, '2028-02-29'],
    ['the clamp does not drift: 31 Jan + 2 months is 31 Mar', new Date(2026, 0, 31), '1m', 2, '2026-03-31'],
    ['back across the year end', new Date(2027, 1, 15), '3m', -1, '2026-11-15'],
    ['weeks are 7 days, also across a DST change', new Date(2026, 9, 20), '2w', 1, '2026-11-03'],
    ['12m from 29 Feb is 28 Feb', new Date(2028, 1, 29), '12m', 1, '2029-02-28'],
  ])('%s', (_name, anchor, interval, count, expected) => {
    const at = shiftByInterval(anchor, interval as Exclude<RepetitionInterval, 'onetime'>, count);
    expect(`${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`).toBe(expected);
  });
});
