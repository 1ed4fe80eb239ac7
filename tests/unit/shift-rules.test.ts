import { describe, expect, it } from 'vitest';
import { createShiftModelSchema } from '../../src/shared/api/shiftmodels';
import { endsNextDay, formatTimeOfDay, hasShiftRowIssues, newShiftRow, parseTimeOfDay, shiftOverlaps, shiftRowEndsNextDay, shiftRowIssues, sortWeekdays, type Weekday } from '../../src/shared/domain/shift';

describe('shift times', () => {
  it.each([
    ['06:00', 360],
    ['00:00', 0],
    ['23:59', 1439],
    [' 13:05 ', 785],
  ])('%j → %i', (text, minute) => {
    expect(parseTimeOfDay(text)).toBe(minute);
    expect(formatTimeOfDay(minute)).toBe(text.trim());
  });

  it.each(['24:00', '6:00', '12:60', '', 'ab:cd', '12:5'])('rejects %j', (text) => {
    expect(parseTimeOfDay(text)).toBeNull();
  });
});

describe('new shift defaults (§4, §9)', () => {
  it.each([
    [undefined, '06:00', '13:59'],
    [{ end: '13:59' }, '14:00', '21:59'],
    [{ end: '21:59' }, '22:00', '23:59'],
    [{ end: '23:59' }, '00:00', '07:59'],
    [{ end: '16:30' }, '16:31', '23:59'],
    [{ end: '05:59' }, '06:00', '13:59'],
    [{ end: '23:58' }, '23:59', '23:59'],
    [{ end: 'kaputt' }, '06:00', '13:59'],
  ])('after %j: %s – %s, Mo, manned', (previous, start, end) => {
    expect(newShiftRow(previous)).toEqual({ start, end, weekdays: [1], unmanned: false });
  });
});

describe('shift row validation (§5)', () => {
  it.each([
    [{ start: '06:00', end: '14:00', weekdays: [1, 2] }, []],
    [{ start: '06:00', end: '14:00', weekdays: [] }, [{ field: 'weekdays', code: 'weekdaysRequired' }]],
    [{ start: '6', end: '25:00', weekdays: [1] }, [{ field: 'start', code: 'invalidTime' }, { field: 'end', code: 'invalidTime' }]],
    // An end that is the start: not the next day (same hour), so 0 hours — refused on the end field.
    [{ start: '06:00', end: '06:00', weekdays: [1] }, [{ field: 'end', code: 'endEqualsStart' }]],
    [{ start: '00:00', end: ' 00:00', weekdays: [1] }, [{ field: 'end', code: 'endEqualsStart' }]],
    [{ start: '06:00', end: '06:01', weekdays: [1] }, []],
    // An end earlier in the start's hour is not the next day either (only an earlier hour is): before the start.
    [{ start: '06:30', end: '06:10', weekdays: [1] }, [{ field: 'end', code: 'endBeforeStart' }]],
    [{ start: '23:59', end: '23:00', weekdays: [1] }, [{ field: 'end', code: 'endBeforeStart' }]],
    [{ start: '06:30', end: '05:10', weekdays: [1] }, []],
  ] as const)('%j → %j', (row, issues) => {
    expect(shiftRowIssues({ ...row, weekdays: [...row.weekdays] })).toEqual(issues);
  });

  it.each([
    ['22:00', '05:59', true],
    ['22:00', '22:30', false],
    ['06:00', '13:59', false],
    ['14:30', '14:10', false],
  ])('%s – %s ends the next day: %s', (start, end, next) => {
    expect(shiftRowEndsNextDay({ start, end })).toBe(next);
  });

  it('the API schema names an empty weekday list and bad times', () => {
    const result = createShiftModelSchema.safeParse({ shiftmodelof: '0190a000-0000-7000-8000-000000000001', shifts: [{ start: '06:00', end: '99:00', weekdays: [] }] });
    expect(result.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['shifts.0.end', 'shifts.0.weekdays']);
  });
});

describe('editor helpers', () => {
  it.each([
    ['23:55', '00:00', true],
    ['00:00', '23:59', false],
    ['14:00', '14:00', false],
  ])('minutes %s – %s end the next day: %s', (start, end, next) => {
    expect(endsNextDay(parseTimeOfDay(start)!, parseTimeOfDay(end)!)).toBe(next);
  });

  it('sorts weekdays in calendar order without repeats', () => {
    expect(sortWeekdays([5, 1, 5, 7])).toEqual([1, 5, 7]);
  });

  it.each([
    [[{ start: '06:00', end: '14:00', weekdays: [1] }], false],
    [[{ start: '06:00', end: '14:00', weekdays: [1] }, { start: '14:01', end: '22:00', weekdays: [] }], true],
    [[{ start: '', end: '14:00', weekdays: [1] }], true],
    [[], false],
  ] as const)('rows %j block saving: %s', (rows, blocked) => {
    expect(hasShiftRowIssues(rows.map((row) => ({ ...row, weekdays: [...row.weekdays] })))).toBe(blocked);
  });
});

describe('overlapping shifts (warned, not refused)', () => {
  const row = (start: string, end: string, weekdays: Weekday[]) => ({ start, end, weekdays });

  it('shifts that follow each other one minute apart, as "+ Schicht" makes them, do not overlap', () => {
    const early = newShiftRow();
    const late = newShiftRow(early);
    const night = newShiftRow(late);
    expect(shiftOverlaps([early, late, night].map((shift) => ({ ...shift, weekdays: [1, 2, 3, 4, 5] as Weekday[] })))).toEqual([[], [], []]);
  });

  it('names the other row and the weekdays of this row on which they meet', () => {
    expect(shiftOverlaps([row('06:00', '13:59', [1, 2, 3]), row('13:00', '21:59', [2, 3, 4])])).toEqual([[{ other: 1, weekdays: [2, 3] }], [{ other: 0, weekdays: [2, 3] }]]);
    // Touching at the same minute is an overlap: both ends are part of the shift.
    expect(shiftOverlaps([row('06:00', '14:00', [1]), row('14:00', '22:00', [1])])[0]).toEqual([{ other: 1, weekdays: [1] }]);
    expect(shiftOverlaps([row('06:00', '14:00', [1]), row('14:00', '22:00', [2])])).toEqual([[], []]);
  });

  it('a night shift reaches into the next day, Sunday’s into Monday', () => {
    // Monday 22:00 – Tuesday 06:30 meets Tuesday's 06:00 shift, on Monday (the night shift's day) and Tuesday.
    expect(shiftOverlaps([row('22:00', '06:30', [1]), row('06:00', '13:59', [2])])).toEqual([[{ other: 1, weekdays: [1] }], [{ other: 0, weekdays: [2] }]]);
    expect(shiftOverlaps([row('22:00', '06:30', [7]), row('06:00', '13:59', [1])])).toEqual([[{ other: 1, weekdays: [7] }], [{ other: 0, weekdays: [1] }]]);
    expect(shiftOverlaps([row('22:00', '05:59', [7]), row('06:00', '13:59', [1])])).toEqual([[], []]);
  });

  it('a row with an issue (no weekday, a half-typed time) overlaps nothing yet', () => {
    expect(shiftOverlaps([row('06:00', '13:59', [1]), row('06:0', '13:59', [1]), row('06:00', '13:59', [])])).toEqual([[], [], []]);
  });
});
