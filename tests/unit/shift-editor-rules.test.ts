import { describe, expect, it } from 'vitest';
import { endsNextDay, hasMissingWeekdays, minuteToTime, newShiftRule, sortWeekdays, timeToMinute, type Weekday } from '../../src/shared/domain/shift';

const at = (time: string) => timeToMinute(time)!;

describe('new shift defaults (part 2 §4, §9)', () => {
  it('starts the first shift at 06:00 for 7h59m on Monday, manned', () => {
    expect(newShiftRule()).toEqual({ weekdays: [1], startminute: at('06:00'), endminute: at('13:59'), unmanned: false });
  });

  it.each([
    ['13:59', '14:00', '21:59'],
    ['21:59', '22:00', '23:59'], // 22:00 + 7h59m would be 05:59: capped at 23:59
    ['16:30', '16:31', '23:59'],
    ['05:59', '06:00', '13:59'],
    ['23:58', '23:59', '23:59'],
    ['23:59', '00:00', '07:59'], // one minute after 23:59 is midnight
  ])('after a shift ending %s the next starts %s and ends %s', (previousEnd, start, end) => {
    const shift = newShiftRule({ endminute: at(previousEnd) });
    expect(minuteToTime(shift.startminute)).toBe(start);
    expect(minuteToTime(shift.endminute)).toBe(end);
    expect(shift.weekdays).toEqual([1]);
    expect(shift.unmanned).toBe(false);
  });
});

describe('ends next day ("Endzeit (+1)")', () => {
  it.each([
    ['22:00', '05:59', true],
    ['23:55', '00:00', true],
    ['06:00', '13:59', false],
    ['10:30', '10:10', false], // same hour: the spec compares hours
    ['00:00', '23:59', false],
    ['14:00', '14:00', false],
  ])('%s – %s → %s', (start, end, expected) => {
    expect(endsNextDay(at(start), at(end))).toBe(expected);
  });
});

describe('shift rows', () => {
  it.each([
    [[[1], [2, 3]], false],
    [[[1], []], true],
    [[], false],
  ] as [Weekday[][], boolean][])('weekdays %j missing → %s', (rows, expected) => {
    expect(hasMissingWeekdays(rows.map((weekdays) => ({ weekdays })))).toBe(expected);
  });

  it.each([
    ['00:00', 0],
    ['06:05', 365],
    ['23:59', 1439],
    ['07:30:00', 450],
    ['24:00', null],
    ['12:60', null],
    ['6:00', null],
    ['', null],
  ])('time %j is minute %j', (time, minute) => {
    expect(timeToMinute(time)).toBe(minute);
    if (minute !== null) expect(minuteToTime(minute)).toBe(time.slice(0, 5));
  });

  it('sorts weekdays in calendar order without repeats', () => {
    expect(sortWeekdays([5, 1, 5, 7])).toEqual([1, 5, 7]);
  });
});
