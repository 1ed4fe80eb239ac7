/** Costs of a notification, report or maintenance task (spec part 1 §3 "Cost", §5, §9). */

import { hasAtMostDecimals, wholePartPattern } from './decimal-text';

/** The spec only shows 'actualcost'; 'plannedcost' carries the effort planned up front (placeholders 10 planned, 20 actual). */
export const COST_SPECIFIERS = ['actualcost', 'plannedcost'] as const;
export type CostSpecifier = (typeof COST_SPECIFIERS)[number];

/** Stable keys of the standard cost types, in the spec's display order. */
export const COST_TYPE_KEYS = ['parts', 'operatingmaterials', 'externalservices', 'downtime', 'internalhours'] as const;
export type CostTypeKey = (typeof COST_TYPE_KEYS)[number];

/** §9 "Default effort placeholders: 10 planned, 20 actual": the empty inputs' placeholders. */
export const COST_PLACEHOLDERS: Record<CostSpecifier, number> = { plannedcost: 10, actualcost: 20 };

/** numeric(14, 2) in the database: at most two decimals; the cap keeps a typo of ten digits out. */
export const COST_VALUE_MAX = 999_999_999.99;
export const COST_DECIMALS_MAX = 2;

/** The units an effort input may be in (§5: "only cost types in EUR and in hours"): codes of the units reference data. */
export const EUR_UNIT_ID = 'EUR';
export const HOUR_UNIT_ID = 'HUR';
export type CostUnit = 'EUR' | 'hours';

/** §9: "Number format de-DE for German, otherwise en-US." */
export function numberLocale(lang: string): 'de-DE' | 'en-US' {
  return lang === 'de' ? 'de-DE' : 'en-US';
}

function separators(lang: string): { group: '.' | ','; decimal: '.' | ',' } {
  return lang === 'de' ? { group: '.', decimal: ',' } : { group: ',', decimal: '.' };
}

/** Why a typed value is refused; the form puts each into words. */
export type CostValueError = 'format' | 'negative' | 'decimals' | 'tooLarge';
export type ParsedCostValue = { ok: true; value: number | null } | { ok: false; error: CostValueError };

/**
 * A value typed in the app language's format (§5 "values are parsed as decimals", §9 de-DE / en-US): German
 * "1.234,5" or "1234,5", English "1,234.5" or "1234.5". Strict: group separators only between groups of three
 * digits (the first group not starting with 0), one decimal separator, at most two decimals, nothing else — a
 * German "1.5" or "0.500" or an English "1,5" is refused rather than read as 15, 500 or 1.5 by guess. Empty
 * (spaces only) is no value (null).
 */
export function parseCostValue(text: string, lang: string): ParsedCostValue {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  const { group, decimal } = separators(lang);
  const d = decimal === '.' ? '\\.' : ',';
  const negative = /^[-−]/.test(trimmed);
  const unsigned = negative ? trimmed.slice(1).trim() : trimmed;
  const match = new RegExp(`^(${wholePartPattern(group)})?(?:${d}(\\d+))?$`).exec(unsigned);
  if (!match || (match[1] === undefined && match[2] === undefined)) return { ok: false, error: 'format' };
  if (negative) return { ok: false, error: 'negative' };
  const whole = (match[1] ?? '0').split(group).join('');
  const fraction = match[2] ?? '';
  if (fraction.length > COST_DECIMALS_MAX) return { ok: false, error: 'decimals' };
  const value = Number(`${whole}.${fraction || '0'}`);
  if (!Number.isFinite(value) || value > COST_VALUE_MAX) return { ok: false, error: 'tooLarge' };
  return { ok: true, value };
}

/**
 * A value in the language's number format: "1.234,5" (de), "1,234.5" (en). `fixed` shows exactly two decimals
 * (amounts in EUR); otherwise as many as it has, at most two. The parser reads every text this returns.
 */
export function formatCostValue(value: number, lang: string, options: { fixed?: boolean } = {}): string {
  return new Intl.NumberFormat(numberLocale(lang), {
    minimumFractionDigits: options.fixed ? COST_DECIMALS_MAX : 0,
    maximumFractionDigits: COST_DECIMALS_MAX,
  }).format(value);
}

/** Whether a number has at most two decimals (what numeric(14, 2) stores without rounding). */
export function hasAtMostTwoDecimals(value: number): boolean {
  return hasAtMostDecimals(value, COST_DECIMALS_MAX);
}

/** A cost type as the effort capture needs it: its key (null for a tenant's own) and its unit's code. */
export interface CostTypeInfo {
  nodeid: string;
  costtypeid: string | null;
  unitid: string | null;
}

export function costUnitOf(unitid: string | null): CostUnit | null {
  if (unitid === EUR_UNIT_ID) return 'EUR';
  if (unitid === HOUR_UNIT_ID) return 'hours';
  return null;
}

const keyIndex = (key: string | null): number => (COST_TYPE_KEYS as readonly (string | null)[]).indexOf(key);

/**
 * The effort capture's inputs (§5): the standard types — identified by their fixed key (`costtypeid`) — whose
 * unit is EUR or hours, in the spec's display order (parts, operating materials, external service providers,
 * downtime, internal person hours). A type without a key (a tenant's own) is "the excluded one": hidden from the
 * effort list and left out of its total (docs/decisions.md § Effort and costs).
 */
export function effortCostTypes<T extends CostTypeInfo>(types: readonly T[]): (T & { unit: CostUnit })[] {
  return types
    .filter((type) => keyIndex(type.costtypeid) >= 0 && costUnitOf(type.unitid) !== null)
    .sort((a, b) => keyIndex(a.costtypeid) - keyIndex(b.costtypeid))
    .map((type) => ({ ...type, unit: costUnitOf(type.unitid)! }));
}

/** One value of the total: its amount and unit. */
export interface CostAmount {
  value: number;
  unit: CostUnit;
}

/**
 * The total in EUR: amounts in EUR plus hours priced at the machine's hourly rate. Without a rate hours cannot
 * be priced: `total` is null and `unpricedHours` says how many there are (never priced at 0 by invention).
 */
export interface EffortTotal {
  euros: number;
  hours: number;
  /** EUR amounts plus hours × rate; null when there are hours and no rate. */
  total: number | null;
  unpricedHours: number;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

export function effortTotal(amounts: readonly CostAmount[], hourlyRate: number | null): EffortTotal {
  const euros = round2(amounts.filter((a) => a.unit === 'EUR').reduce((sum, a) => sum + a.value, 0));
  const hours = round2(amounts.filter((a) => a.unit === 'hours').reduce((sum, a) => sum + a.value, 0));
  if (hours === 0) return { euros, hours, total: euros, unpricedHours: 0 };
  if (hourlyRate === null) return { euros, hours, total: null, unpricedHours: hours };
  return { euros, hours, total: round2(euros + hours * hourlyRate), unpricedHours: 0 };
}
