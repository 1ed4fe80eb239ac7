import { describe, expect, it } from 'vitest';
import {
  COST_TYPE_KEYS,
  COST_VALUE_MAX,
  effortCostTypes,
  effortTotal,
  formatCostValue,
  hasAtMostTwoDecimals,
  numberLocale,
  parseCostValue,
  type CostTypeInfo,
} from '../../src/shared/domain/cost';

describe('cost values typed in the app language (§5 decimals, §9 de-DE / en-US)', () => {
  it.each([
    ['de', '12', 12],
    ['de', '12,5', 12.5],
    ['de', '0,75', 0.75],
    ['de', ',5', 0.5],
    ['de', '1.234,5', 1234.5],
    ['de', '1.234.567,89', 1234567.89],
    ['de', '1234,56', 1234.56],
    ['de', '  7,25 ', 7.25],
    ['de', '0', 0],
    ['en', '12', 12],
    ['en', '12.5', 12.5],
    ['en', '.5', 0.5],
    ['en', '1,234.5', 1234.5],
    ['en', '1,234,567.89', 1234567.89],
    ['en', '1234.56', 1234.56],
  ])('%s "%s" is %d', (lang, text, value) => {
    expect(parseCostValue(text, lang)).toEqual({ ok: true, value });
  });

  it.each(['de', 'en'])('%s: empty is no value', (lang) => {
    expect(parseCostValue('', lang)).toEqual({ ok: true, value: null });
    expect(parseCostValue('   ', lang)).toEqual({ ok: true, value: null });
  });

  it.each([
    ['de', '1.5', 'format'],
    ['de', '12.5', 'format'],
    ['de', '1,2,3', 'format'],
    ['de', '1.23,4', 'format'],
    // A group never starts with 0: "0.500" is no 500 € (a half typed the English way), "0.001" no 1.
    ['de', '0.500', 'format'],
    ['de', '0.001,5', 'format'],
    ['de', '00.500', 'format'],
    ['de', 'abc', 'format'],
    ['de', '12 €', 'format'],
    ['de', '1e3', 'format'],
    ['de', ',', 'format'],
    ['de', '12,', 'format'],
    ['de', '-5', 'negative'],
    ['de', '−3,5', 'negative'],
    ['de', '1,234', 'decimals'],
    ['de', '1.000.000.000', 'tooLarge'],
    ['en', '1,5', 'format'],
    ['en', '1,23.4', 'format'],
    ['en', '0,001', 'format'],
    ['en', '0,500.25', 'format'],
    ['en', '1.2.3', 'format'],
    ['en', 'NaN', 'format'],
    ['en', 'Infinity', 'format'],
    ['en', '0x10', 'format'],
    ['en', '-0.5', 'negative'],
    ['en', '2.125', 'decimals'],
    ['en', '1,000,000,000', 'tooLarge'],
  ])('%s "%s" is refused (%s)', (lang, text, error) => {
    expect(parseCostValue(text, lang)).toEqual({ ok: false, error });
  });

  it.each([
    ['de', 1234.5, {}, '1.234,5'],
    ['de', 1234.5, { fixed: true }, '1.234,50'],
    ['de', 0.25, {}, '0,25'],
    ['de', 12, { fixed: true }, '12,00'],
    ['en', 1234.5, {}, '1,234.5'],
    ['en', 1234.5, { fixed: true }, '1,234.50'],
    ['en', 0.25, {}, '0.25'],
  ])('%s formats %d as "%s"', (lang, value, options, text) => {
    expect(formatCostValue(value, lang, options)).toBe(text);
  });

  it.each([
    ['de', [0, 0.5, 12.34, 1234.5, 999_999.99, COST_VALUE_MAX]],
    ['en', [0, 0.5, 12.34, 1234.5, 999_999.99, COST_VALUE_MAX]],
  ])('%s: what is formatted parses back to the same value', (lang, values) => {
    for (const value of values as number[]) {
      for (const fixed of [false, true]) expect(parseCostValue(formatCostValue(value, lang, { fixed }), lang)).toEqual({ ok: true, value });
    }
  });

  it('German and otherwise English locales', () => {
    expect(numberLocale('de')).toBe('de-DE');
    expect(numberLocale('en')).toBe('en-US');
    expect(numberLocale('fr')).toBe('en-US');
  });

  it.each([
    [0.1, true],
    [12.34, true],
    [0.29, true],
    [1.005, false],
    [0.001, false],
  ])('%d has at most two decimals: %s', (value, expected) => {
    expect(hasAtMostTwoDecimals(value)).toBe(expected);
  });
});

describe('which cost types are effort inputs, in which order (§5)', () => {
  const type = (costtypeid: string | null, unitid: string | null, nodeid = `${costtypeid ?? 'own'}-${unitid}`): CostTypeInfo => ({ nodeid, costtypeid, unitid });

  it('the five standard types in EUR or hours, in the spec order parts, operating materials, external services, downtime, internal hours', () => {
    const shuffled = [type('internalhours', 'HUR'), type('parts', 'EUR'), type('downtime', 'HUR'), type('externalservices', 'EUR'), type('operatingmaterials', 'EUR')];
    const inputs = effortCostTypes(shuffled);
    expect(inputs.map((t) => t.costtypeid)).toEqual([...COST_TYPE_KEYS]);
    expect(inputs.map((t) => t.unit)).toEqual(['EUR', 'EUR', 'EUR', 'hours', 'hours']);
  });

  it('hides the excluded one (a type without a standard key) and any type in another unit', () => {
    const inputs = effortCostTypes([type(null, 'EUR'), type('parts', 'EUR'), type('downtime', 'KWH'), type('internalhours', null)]);
    expect(inputs.map((t) => t.nodeid)).toEqual(['parts-EUR']);
  });
});

describe('the total in EUR, hours priced at the machine rate', () => {
  it('adds EUR amounts and hours × rate', () => {
    expect(effortTotal([{ value: 100.5, unit: 'EUR' }, { value: 2.5, unit: 'hours' }, { value: 20, unit: 'EUR' }, { value: 1, unit: 'hours' }], 80)).toEqual({ euros: 120.5, hours: 3.5, total: 400.5, unpricedHours: 0 });
  });

  it('without a rate the hours stay unpriced and there is no total (not priced at 0)', () => {
    expect(effortTotal([{ value: 100, unit: 'EUR' }, { value: 2, unit: 'hours' }], null)).toEqual({ euros: 100, hours: 2, total: null, unpricedHours: 2 });
  });

  it('without hours the rate does not matter', () => {
    expect(effortTotal([{ value: 0.1, unit: 'EUR' }, { value: 0.2, unit: 'EUR' }], null)).toEqual({ euros: 0.3, hours: 0, total: 0.3, unpricedHours: 0 });
    expect(effortTotal([], null)).toEqual({ euros: 0, hours: 0, total: 0, unpricedHours: 0 });
  });
});
