/**
 * Date and time formatting. The spec fixes the formats (part 2 §9): dates DD.MM.YYYY and times HH:mm, in both
 * languages; dayjs carries the German locale for month and weekday names where a screen needs them.
 */
import dayjs from 'dayjs';
import 'dayjs/locale/de';

export const DATE_FORMAT = 'DD.MM.YYYY';
export const TIME_FORMAT = 'HH:mm';

type DateInput = Date | number | string;

/** '05.03.2026'; '' for a missing or invalid value. */
export function formatDate(value: DateInput | null | undefined): string {
  return format(value, DATE_FORMAT);
}

/** '07:30'. */
export function formatTime(value: DateInput | null | undefined): string {
  return format(value, TIME_FORMAT);
}

/** '05.03.2026 07:30'. */
export function formatDateTime(value: DateInput | null | undefined): string {
  return format(value, `${DATE_FORMAT} ${TIME_FORMAT}`);
}

function format(value: DateInput | null | undefined, pattern: string): string {
  if (value === null || value === undefined || value === '') return '';
  const date = dayjs(value).locale('de');
  return date.isValid() ? date.format(pattern) : '';
}
