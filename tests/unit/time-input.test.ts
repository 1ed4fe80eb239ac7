import { describe, expect, it } from 'vitest';
import { normalizeTimeInput, TIME_INPUT_PATTERN } from '../../src/client/lib/time-input';

describe('time fields read what is typed as a 24-hour time (HH:mm)', () => {
  it.each([
    ['22:00', '22:00'],
    ['6', '06:00'],
    ['06', '06:00'],
    ['630', '06:30'],
    ['1430', '14:30'],
    ['0000', '00:00'],
    ['6:5', '06:05'],
    ['6.30', '06:30'],
    ['6,30', '06:30'],
    ['6h30', '06:30'],
    [' 23:59 ', '23:59'],
  ])('%s → %s', (typed, time) => {
    expect(normalizeTimeInput(typed)).toBe(time);
    expect(TIME_INPUT_PATTERN.test(time)).toBe(true);
  });

  it.each(['24:00', '12:60', '2400', '10:00 PM', 'abc', '', '12345', '1:2:3'])('%s is no time of day', (typed) => {
    expect(normalizeTimeInput(typed)).toBeNull();
  });
});
