import { describe, expect, it } from 'vitest';
import { COUNTER_READING_MAX, counterTypeNameIn, exceedsCounterReadingMax, hasAtMostReadingDecimals, keylessReadingNodeId, normalizeCounterReading, parseCounterReading, sanitizeCounterReading, unitSymbolIn } from '../../src/shared/domain/counter';

describe('counter reading input rule (§5)', () => {
  it.each([
    ['1234', '1234', 1234],
    ['1234,5', '1234.5', 1234.5],
    ['1234.5', '1234.5', 1234.5],
    [',5', '.5', 0.5],
    ['5,', '5.', 5],
    [' 42 ', '42', 42],
  ])('%j is sent as %j and read as %d', (typed, sent, value) => {
    expect(normalizeCounterReading(typed)).toBe(sent);
    expect(parseCounterReading(typed)).toBe(value);
  });

  it.each([
    ['12a3b4', '1234'],
    ['-5', '5'],
    ['1,2,3', '1,23'],
    ['1.2.3', '1.23'],
    [' 7 h', '7'],
    ['1e5', '15'],
    ['0x10', '010'],
  ])('the field keeps of %j only %j; the text itself is no reading (never read as another number)', (typed, kept) => {
    expect(sanitizeCounterReading(typed)).toBe(kept);
    expect(parseCounterReading(typed)).toBeUndefined();
    expect(parseCounterReading(kept)).toBe(Number(kept.replace(',', '.')));
  });

  it('keeps at most one comma and one period, in the order typed', () => {
    expect(sanitizeCounterReading('1,2.3,4.5')).toBe('1,2.345');
  });

  it.each(['', 'abc', ',', '.', '1,2.3', '1.2,3'])('%j cannot be read', (typed) => {
    expect(parseCounterReading(typed)).toBeUndefined();
  });

  it.each([
    [12.5, 12.5],
    [0, 0],
    [-1, undefined],
    [Number.NaN, undefined],
    [Number.POSITIVE_INFINITY, undefined],
    [COUNTER_READING_MAX + 1, undefined],
  ])('the number %d reads as %j', (value, expected) => {
    expect(parseCounterReading(value)).toBe(expected);
  });
});

describe('counter names and units in the user language', () => {
  it('the built-in operating-hours type is named in the user language; an organisation’s own types keep their name', () => {
    expect([counterTypeNameIn('Betriebsstunden', true, 'en'), counterTypeNameIn('Betriebsstunden', true, 'de'), counterTypeNameIn('Betriebsstunden', true, 'fr')]).toEqual(['Operating hours', 'Betriebsstunden', 'Betriebsstunden']);
    expect(counterTypeNameIn('Hubzähler', false, 'en')).toBe('Hubzähler');
  });

  it('the piece shows as "pcs" in English, "Stk." in German; other symbols are the same in both', () => {
    expect([unitSymbolIn('C62', 'Stk.', 'en'), unitSymbolIn('C62', 'Stk.', 'en-US'), unitSymbolIn('C62', 'Stk.', 'de'), unitSymbolIn('HUR', 'h', 'en')]).toEqual(['pcs', 'pcs', 'Stk.', 'h']);
  });
});

describe('keylessReadingNodeId (a reading sent without an id but with a time)', () => {
  const counter = '01900000-0000-7000-8000-000000000001';
  const other = '01900000-0000-7000-8000-000000000002';
  it('is a UUID v5, the same for the same counter, value (as the column keeps it) and time as sent', () => {
    const id = keylessReadingNodeId(counter, 7, 1_700_000_000_000);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keylessReadingNodeId(counter, 7.0, 1_700_000_000_000)).toBe(id);
    expect(keylessReadingNodeId(counter.toUpperCase(), 7, 1_700_000_000_000)).toBe(id);
  });
  it('differs with the counter, the value or the time', () => {
    const id = keylessReadingNodeId(counter, 7, 1_700_000_000_000);
    expect(keylessReadingNodeId(other, 7, 1_700_000_000_000)).not.toBe(id);
    expect(keylessReadingNodeId(counter, 7.001, 1_700_000_000_000)).not.toBe(id);
    expect(keylessReadingNodeId(counter, 7, 1_700_000_000_001)).not.toBe(id);
  });
});

describe('hasAtMostReadingDecimals (numeric(18, 3) keeps three)', () => {
  it('passes up to three decimals, binary noise of three included, and the largest reading', () => {
    expect([0, 7, 1234.5, 30.123, 10.1 + 20.023, 0.1 + 0.2, COUNTER_READING_MAX].map(hasAtMostReadingDecimals)).toEqual([true, true, true, true, true, true, true]);
  });
  it('refuses more: they would be stored as another value', () => {
    expect([1e-7, 0.0001, 30.12345, 1234.5678].map(hasAtMostReadingDecimals)).toEqual([false, false, false, false]);
  });
});

describe('exceedsCounterReadingMax (the 400 names the maximum)', () => {
  it('is true only for a reading of the §5 form above the maximum', () => {
    expect(exceedsCounterReadingMax(1e15)).toBe(true);
    expect(exceedsCounterReadingMax(Infinity)).toBe(true);
    expect(exceedsCounterReadingMax('1000000000000000')).toBe(true);
    expect(exceedsCounterReadingMax(' 1000000000000000,5 ')).toBe(true);
    expect(exceedsCounterReadingMax(COUNTER_READING_MAX)).toBe(false);
    expect(exceedsCounterReadingMax(String(COUNTER_READING_MAX))).toBe(false);
    expect(exceedsCounterReadingMax('1e16')).toBe(false);
    expect(exceedsCounterReadingMax(-1)).toBe(false);
    expect(exceedsCounterReadingMax('-5')).toBe(false);
  });
});
