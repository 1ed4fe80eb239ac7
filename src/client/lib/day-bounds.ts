/**
 * A day range filter's bounds: its fields take a typed day ('DD.MM.YYYY' as the app shows dates, or
 * 'YYYY-MM-DD'; `parseTypedDay`), the filter keeps epoch ms (device time zone).
 */
import { parseTypedDay } from '../../shared/domain/typed-day';

/** Start of the day (00:00:00.000) of a typed day; null for an empty or invalid one. */
export function dayStart(value: string): number | null {
  const day = parseTypedDay(value);
  return day.kind === 'date' ? new Date(day.year, day.month - 1, day.day).getTime() : null;
}

/** End of the day (23:59:59.999): "bis" includes the whole day. */
export function dayEnd(value: string): number | null {
  const start = dayStart(value);
  if (start === null) return null;
  const date = new Date(start);
  date.setDate(date.getDate() + 1);
  return date.getTime() - 1;
}

/** The ISO form of a stored bound ('' when unset): what a native date picker takes. */
export function dayInput(ms: number | null): string {
  if (ms === null) return '';
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
