/**
 * Counter reading input rule of spec part 1 §5: "only digits, comma and period kept; at most one of each;
 * comma converted to a period before sending". The form runs `sanitizeCounterReading` on every keystroke (the
 * field keeps the comma the user typed); the form, the outbox and the server all parse with
 * `parseCounterReading`, so they accept the same values — and the server refuses a text the rule would change.
 */

import { v5 as uuidv5 } from 'uuid';
import { hasAtMostDecimals } from './decimal-text';

/** Keeps digits and the first comma and first period, in the order typed. */
export function sanitizeCounterReading(input: string): string {
  let comma = false;
  let period = false;
  let out = '';
  for (const ch of input) {
    if (ch >= '0' && ch <= '9') out += ch;
    else if (ch === ',' && !comma) {
      comma = true;
      out += ch;
    } else if (ch === '.' && !period) {
      period = true;
      out += ch;
    }
  }
  return out;
}

/** What is sent: the sanitized text with the comma turned into a period. */
export function normalizeCounterReading(input: string): string {
  return sanitizeCounterReading(input).replace(',', '.');
}

/** numeric(18, 3) in the database: 15 digits before the separator. */
export const COUNTER_READING_MAX = 999_999_999_999_999;
/** …and 3 after it: a reading typed with more was not meant as a decimal ("1.250.000" kept as "1.250000"). */
export const COUNTER_READING_DECIMALS = 3;

// A fixed namespace for keylessReadingNodeId; never change it (readings already stored would no longer match).
const KEYLESS_READING_NAMESPACE = '1167b342-2857-4bba-a014-93d465add2b3';

/**
 * The id of a reading sent without a nodeid but with a time (the old client, a plain REST retry): derived (UUID v5)
 * from the counter, the value as the column keeps it (3 decimals: 7, 7.0 and "7,000" are one reading) and the time
 * AS SENT, before the server clamps it to its now. A resend then finds the stored reading by its id whatever the
 * clamping made of its time — a time ahead of the server's clock (a tablet running fast) is stored as the server's
 * now, which differs at each resend, so matching by stored time doubled it. The counter is part of the name: the same
 * reading on another counter gets another id. A reading without a time has nothing to derive from: each send is a
 * new reading at the server's now (docs/api.md § Counters).
 */
export function keylessReadingNodeId(counternodeid: string, reading: number, timestamp: number): string {
  return uuidv5(`${counternodeid.toLowerCase()}/${reading.toFixed(COUNTER_READING_DECIMALS)}/${timestamp}`, KEYLESS_READING_NAMESPACE);
}

/** Whether a reading has at most three decimals: what numeric(18, 3) keeps without rounding it (hasAtMostDecimals). */
export function hasAtMostReadingDecimals(value: number): boolean {
  return hasAtMostDecimals(value, COUNTER_READING_DECIMALS);
}

/** Digits after the decimal separator of the text as the §5 rule reads it (0 without one). */
export function readingDecimals(input: string): number {
  const text = normalizeCounterReading(input);
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.length - point - 1;
}

/** Digits before the decimal separator: more than 15 cannot be stored. */
export function readingIntegerDigits(input: string): number {
  const text = normalizeCounterReading(input);
  const point = text.indexOf('.');
  return (point < 0 ? text : text.slice(0, point)).replace(/^0+(?=\d)/, '').length;
}

/** How many separators (comma, period) a text has: the §5 rule keeps one of each, so a count that drops was cut. */
export function separatorCount(input: string): number {
  return (input.match(/[.,]/g) ?? []).length;
}

/**
 * The reading as a number, or undefined when the text is not what the §5 rule leaves — digits with at most one
 * comma or one period, spaces around allowed — or nothing parseable remains ('', '.', or both a comma and a
 * period, which would leave two separators). The form keeps only what the rule keeps as the user types; a text
 * the rule would still change ("-5", "1e5", "0x10", "7 h") is refused rather than read as another number (5, 15,
 * 10, 7), so an API caller never gets a reading stored that it did not send. Numbers pass through when finite,
 * non-negative and in range.
 */
export function parseCounterReading(input: string | number): number | undefined {
  const value = readingNumber(input);
  return value !== undefined && Number.isFinite(value) && value <= COUNTER_READING_MAX ? value : undefined;
}

/** The number a reading of the §5 form is, whatever its size; undefined for another form or a negative number. */
function readingNumber(input: string | number): number | undefined {
  if (typeof input === 'number') return input >= 0 ? input : undefined;
  const typed = input.trim();
  if (sanitizeCounterReading(typed) !== typed) return undefined;
  const text = normalizeCounterReading(typed);
  return /^(\d+\.?\d*|\.\d+)$/.test(text) ? Number(text) : undefined;
}

/** The 400 detail of a reading above COUNTER_READING_MAX: it names the maximum, not the number form. */
export const COUNTER_READING_TOO_LARGE = `Must be at most ${COUNTER_READING_MAX}`;

/**
 * Whether parseCounterReading refused the input only for its size: a number (Infinity too) or a text of the §5 form
 * above COUNTER_READING_MAX. The schema then says so instead of "Must be a non-negative number".
 */
export function exceedsCounterReadingMax(input: string | number): boolean {
  const value = readingNumber(input);
  return value !== undefined && value > COUNTER_READING_MAX;
}

/**
 * Reading safety (issue #12, the 1000× bug): "71.400" typed as the display shows "70.045,5 h" is read by the §5
 * rule as 71.4. The rule stays; these checks make a value the user did not mean impossible to miss. Pure, so
 * the dialog, its tests and any later import share them. Decisions: docs/decisions.md § Machine detail: counters.
 */

export const HOUR_MS = 3_600_000;

/** What a counter counts in: the unit's code and symbol as the units reference data has them, and the type. */
export interface CounterUnitInfo {
  unitid?: string | null;
  symbol?: string | null;
  /** The built-in operating-hours type. */
  builtin?: boolean;
}

/**
 * An hour counter (operating hours): the built-in type, or a type whose unit is the hour — UN/ECE Rec 20 code
 * `HUR` or the symbol `h`. Only such a counter can be checked against the time that passed.
 */
export function isHourCounter(info: CounterUnitInfo | null | undefined): boolean {
  if (!info) return false;
  if (info.builtin) return true;
  return info.unitid?.trim().toUpperCase() === 'HUR' || info.symbol?.trim() === 'h';
}

/**
 * The typed text puts a period where German writes its thousands separator: a period followed by exactly three
 * digits and nothing else after it, and no comma ("71.400", "1.000"). §5 reads it as a decimal point; the dialog
 * then says so next to the interpreted value.
 */
export function looksLikeThousandsSeparator(input: string): boolean {
  return /^\d{1,3}\.\d{3}$/.test(sanitizeCounterReading(input).trim());
}

/** Both separators typed ("70.045,5"): the §5 rule cannot read it; the German display format was copied. */
export function hasBothSeparators(input: string): boolean {
  return input.includes(',') && input.includes('.');
}

export interface PreviousReading {
  value: number;
  /** Epoch ms when it was read. */
  takenat: number;
}

export type ReadingCheck =
  | { kind: 'ok' }
  /** Lower than the last reading: only a replaced (or reset) counter goes back. Confirming starts a new series. */
  | { kind: 'lower'; previous: number }
  /** An hour counter gained more hours than passed since the last reading. */
  | { kind: 'tooFast'; increase: number; elapsedHours: number };

/**
 * Slack for an hour counter, in hours: readings are taken from a display that may round to whole hours, and the
 * device's clock at the earlier reading may have been a little off. More than this beyond the elapsed time is
 * impossible.
 */
export const HOUR_COUNTER_SLACK_HOURS = 1;

/**
 * Checks a new reading against the latest one before it (by time taken): lower → `lower`; for an hour counter,
 * an increase larger than the hours elapsed (plus the slack) → `tooFast`. No previous reading, or a reading
 * taken before the latest one (entered for the past), is not checked.
 */
export function checkReading(input: { value: number; takenat: number; previous: PreviousReading | null; hourCounter: boolean }): ReadingCheck {
  const { value, takenat, previous, hourCounter } = input;
  if (!previous || takenat < previous.takenat) return { kind: 'ok' };
  if (value < previous.value) return { kind: 'lower', previous: previous.value };
  if (hourCounter) {
    const increase = value - previous.value;
    const elapsedHours = (takenat - previous.takenat) / HOUR_MS;
    if (increase > elapsedHours + HOUR_COUNTER_SLACK_HOURS) return { kind: 'tooFast', increase, elapsedHours };
  }
  return { kind: 'ok' };
}

export interface ReadingPoint {
  nodeid: string;
  value: number;
  takenat: number;
}

/**
 * The readings split into series: a reading lower than the one before it (by time taken) starts a new series —
 * the counter was replaced or reset (the user confirmed "Zähler getauscht?"). Nothing else marks it: the drop
 * itself is the record, so readings synced from any device split the same way.
 */
export function counterSeries<T extends ReadingPoint>(readings: readonly T[]): T[][] {
  const sorted = [...readings].sort((a, b) => a.takenat - b.takenat || (a.nodeid < b.nodeid ? -1 : a.nodeid > b.nodeid ? 1 : 0));
  const series: T[][] = [];
  for (const reading of sorted) {
    const current = series.at(-1);
    const last = current?.at(-1);
    if (!current || !last || reading.value < last.value) series.push([reading]);
    else current.push(reading);
  }
  return series;
}

/**
 * The built-in operating-hours counter type in each language. Its row stores the German name (a text column, as for
 * every counter type an organisation creates); a device shows this one in the user's language, since it is the
 * product's, not the organisation's. Other languages fall back to German.
 */
export const BUILTIN_COUNTER_TYPE_NAME: Readonly<Record<string, string>> = { de: 'Betriebsstunden', en: 'Operating hours' };

/**
 * A unit's symbol in a language where the stored one is a German abbreviation: the reference data's piece is
 * "Stk." (Stück), which an English screen shows as "pcs". Every other symbol (h, kWh, m³, °C, €) is the same in
 * both languages.
 */
const UNIT_SYMBOLS: Readonly<Record<string, Readonly<Record<string, string>>>> = { C62: { en: 'pcs' } };

export function unitSymbolIn(unitid: string, symbol: string, language: string): string {
  return UNIT_SYMBOLS[unitid]?.[language.slice(0, 2).toLowerCase()] ?? symbol;
}

export function counterTypeNameIn(name: string, builtin: boolean, language: string): string {
  return builtin ? (BUILTIN_COUNTER_TYPE_NAME[language.slice(0, 2).toLowerCase()] ?? name) : name;
}
