/** The date range filter's values: the date inputs give 'YYYY-MM-DD', the filter keeps epoch ms (device time zone). */

const DAY_INPUT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Start of the day (00:00:00.000) of an input value; null for an empty or invalid one. */
export function dayStart(value: string): number | null {
  const match = DAY_INPUT.exec(value);
  if (!match) return null;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(date.getTime()) || date.getDate() !== Number(match[3]) ? null : date.getTime();
}

/** End of the day (23:59:59.999): "bis" includes the whole day. */
export function dayEnd(value: string): number | null {
  const start = dayStart(value);
  if (start === null) return null;
  const date = new Date(start);
  date.setDate(date.getDate() + 1);
  return date.getTime() - 1;
}

/** The input value of a stored bound ('' when unset). */
export function dayInput(ms: number | null): string {
  if (ms === null) return '';
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
