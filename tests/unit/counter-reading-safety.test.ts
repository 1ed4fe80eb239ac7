import { describe, expect, it } from 'vitest';
import { checkReading, counterSeries, HOUR_MS, hasBothSeparators, isHourCounter, looksLikeThousandsSeparator, parseCounterReading } from '../../src/shared/domain/counter';

/** Issue #12: "71.400" typed as the display shows "70.045,5 h" was stored as 71.4 without a word. */
describe('reading safety (src/shared/domain/counter.ts)', () => {
  const now = Date.UTC(2026, 10, 24, 12);
  const previous = { value: 70045.5, takenat: now - 30 * 24 * HOUR_MS };

  it('the §5 rule stays: "71.400" is 71.4, and the period in the thousands position is recognised', () => {
    expect(parseCounterReading('71.400')).toBe(71.4);
    expect(looksLikeThousandsSeparator('71.400')).toBe(true);
    expect(looksLikeThousandsSeparator('1.000')).toBe(true);
    expect(looksLikeThousandsSeparator('71.4')).toBe(false);
    expect(looksLikeThousandsSeparator('71400')).toBe(false);
    expect(looksLikeThousandsSeparator('71,400')).toBe(false);
    expect(looksLikeThousandsSeparator('1234.567')).toBe(false);
  });

  it('the display format copied with both separators is recognised (the rule cannot read it)', () => {
    expect(parseCounterReading('70.045,5')).toBeUndefined();
    expect(hasBothSeparators('70.045,5')).toBe(true);
    expect(hasBothSeparators('70045,5')).toBe(false);
  });

  it('a reading lower than the last one asks "Zähler getauscht?"', () => {
    expect(checkReading({ value: 71.4, takenat: now, previous, hourCounter: true })).toEqual({ kind: 'lower', previous: 70045.5 });
    expect(checkReading({ value: 3, takenat: now, previous: { value: 4, takenat: now - 1 }, hourCounter: false })).toEqual({ kind: 'lower', previous: 4 });
  });

  it('the same or a higher reading within the elapsed time is fine', () => {
    expect(checkReading({ value: 70045.5, takenat: now, previous, hourCounter: true })).toEqual({ kind: 'ok' });
    expect(checkReading({ value: 70045.5 + 30 * 24, takenat: now, previous, hourCounter: true })).toEqual({ kind: 'ok' });
  });

  it('an hour counter gaining more hours than have passed (beyond one hour of slack) is impossible', () => {
    const result = checkReading({ value: 71400, takenat: now, previous, hourCounter: true });
    expect(result).toMatchObject({ kind: 'tooFast', increase: 1354.5, elapsedHours: 720 });
    expect(checkReading({ value: 100 + 3.9, takenat: now, previous: { value: 100, takenat: now - 3 * HOUR_MS }, hourCounter: true })).toEqual({ kind: 'ok' });
    expect(checkReading({ value: 100 + 4.1, takenat: now, previous: { value: 100, takenat: now - 3 * HOUR_MS }, hourCounter: true }).kind).toBe('tooFast');
  });

  it('a counter of another unit may rise any amount', () => {
    expect(checkReading({ value: 71400000, takenat: now, previous, hourCounter: false })).toEqual({ kind: 'ok' });
  });

  it('no previous reading, or a reading entered for a time before the last one, is not checked', () => {
    expect(checkReading({ value: 1, takenat: now, previous: null, hourCounter: true })).toEqual({ kind: 'ok' });
    expect(checkReading({ value: 1, takenat: previous.takenat - 1, previous, hourCounter: true })).toEqual({ kind: 'ok' });
  });

  it('an hour counter is the built-in type or a unit of hours (code HUR or symbol h)', () => {
    expect(isHourCounter({ builtin: true, unitid: 'C62', symbol: 'Stk.' })).toBe(true);
    expect(isHourCounter({ unitid: 'HUR', symbol: 'h' })).toBe(true);
    expect(isHourCounter({ unitid: 'hur' })).toBe(true);
    expect(isHourCounter({ symbol: 'h' })).toBe(true);
    expect(isHourCounter({ unitid: 'KWH', symbol: 'kWh' })).toBe(false);
    expect(isHourCounter({ unitid: 'C62', symbol: 'Stk.' })).toBe(false);
    expect(isHourCounter(null)).toBe(false);
  });

  it('a drop starts a new series (the confirmed counter change); readings are ordered by time first', () => {
    const r = (nodeid: string, value: number, takenat: number) => ({ nodeid, value, takenat });
    const series = counterSeries([r('c', 5, 3), r('a', 100, 1), r('b', 120, 2), r('d', 9, 4), r('e', 9, 5)]);
    expect(series.map((s) => s.map((p) => p.nodeid))).toEqual([['a', 'b'], ['c', 'd', 'e']]);
    expect(counterSeries([])).toEqual([]);
  });
});
