/**
 * A day typed into a text field: the ISO form 'YYYY-MM-DD', and as every date of the app shows it 'DD.MM.YYYY'
 * (also '5.3.2026'), so a German technician types the date as they read it. One rule for the machine history's
 * filter and the notifications dashboard's range, whatever language the tablet's browser runs in.
 */

/**
 * `invalid`'s reason: `format` — not written as a day ("5.3.", "2026/03/05", a year before 1900); `noSuchDay` — written
 * as a day the calendar does not have (31.02.2026, 2026-13-01), so the field can say which of the two is wrong.
 */
export type TypedDayError = 'format' | 'noSuchDay';

export type TypedDay = { kind: 'empty' } | { kind: 'invalid'; reason: TypedDayError } | { kind: 'date'; year: number; month: number; day: number };

/** Empty, a real calendar day, or invalid (2026-02-30, 31.02.2026, years before 1900, …); surrounding blanks ignored. */
export function parseTypedDay(text: string): TypedDay {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'empty' };
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(trimmed);
  const german = iso ? null : /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(trimmed);
  if (!iso && !german) return { kind: 'invalid', reason: 'format' };
  const [year, month, day] = iso ? [Number(iso[1]), Number(iso[2]), Number(iso[3])] : [Number(german![3]), Number(german![2]), Number(german![1])];
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (year < 1900) return { kind: 'invalid', reason: 'format' };
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return { kind: 'invalid', reason: 'noSuchDay' };
  return { kind: 'date', year, month, day };
}
