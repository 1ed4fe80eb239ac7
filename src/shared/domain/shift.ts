/** Weekly shifts (spec part 2 §2.7, §9). Weekdays are ISO numbers, Monday = 1 … Sunday = 7 (Mo … So). */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const MINUTES_PER_DAY = 24 * 60;

export function isWeekday(value: unknown): value is Weekday {
  return typeof value === 'number' && (WEEKDAYS as readonly number[]).includes(value);
}

/** Minutes after midnight, 0 … 1439. */
export function isMinuteOfDay(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) < MINUTES_PER_DAY;
}

/** "A shift whose end hour is earlier than its start hour ends the next day" (labelled 'Endzeit (+1)'). */
export function endsNextDay(startMinute: number, endMinute: number): boolean {
  return Math.floor(endMinute / 60) < Math.floor(startMinute / 60);
}

/** The editor's weekday labels (§2.7), index = weekday − 1. */
export const WEEKDAY_LABELS_DE = ['Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa', 'So'] as const;

/** §9: a new first shift starts 06:00 and lasts 7h59m, capped at 23:59; a further one starts 1 minute after the previous end. */
export const DEFAULT_SHIFT_START_MINUTE = 6 * 60;
export const DEFAULT_SHIFT_LENGTH_MINUTES = 7 * 60 + 59;
export const LAST_MINUTE_OF_DAY = MINUTES_PER_DAY - 1;

const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** 'HH:MM' (00:00 … 23:59) → minutes after midnight; anything else → null. */
export function parseTimeOfDay(text: string): number | null {
  const match = TIME_PATTERN.exec(text.trim());
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

/** Minutes after midnight → 'HH:MM'. */
export function formatTimeOfDay(minute: number): string {
  const h = Math.floor(minute / 60);
  const m = minute % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/** One row of the weekly shift editor as the form and the API hold it. */
export interface ShiftRow {
  /** 'HH:MM' */
  start: string;
  /** 'HH:MM'; earlier hour than `start` means the next day ('Endzeit (+1)'). */
  end: string;
  weekdays: Weekday[];
  unmanned: boolean;
}

/**
 * The row '+ Schicht' adds (§4): after `previous` it starts one minute after the previous end (wrapping past
 * midnight), otherwise at 06:00; it ends 7h59m later, capped at 23:59; weekday Mo; manned.
 */
export function newShiftRow(previous?: Pick<ShiftRow, 'end'>): ShiftRow {
  const previousEnd = previous ? parseTimeOfDay(previous.end) : null;
  const start = previousEnd === null ? DEFAULT_SHIFT_START_MINUTE : (previousEnd + 1) % MINUTES_PER_DAY;
  const end = Math.min(start + DEFAULT_SHIFT_LENGTH_MINUTES, LAST_MINUTE_OF_DAY);
  return { start: formatTimeOfDay(start), end: formatTimeOfDay(end), weekdays: [1], unmanned: false };
}

/** Error codes of a shift row, for i18n (`shifts.<code>`). */

/** The API's 400 detail of a row whose end is its start (`endEqualsStart`), on the field `end`. */
export const SHIFT_END_EQUALS_START = 'Must differ from start: a shift that ends when it starts lasts 0 hours';
/** The API's 400 detail of a row that ends before it starts on the same day (`endBeforeStart`), on the field `end`. */
export const SHIFT_END_BEFORE_START = "Must be after start: only an end in an earlier hour than the start's ends the next day";
/** The 400 detail of each issue the API refuses besides the schema's own (a well-formed time, a weekday). */
export const SHIFT_ROW_REFUSALS: Partial<Record<ShiftRowIssueCode, string>> = { endEqualsStart: SHIFT_END_EQUALS_START, endBeforeStart: SHIFT_END_BEFORE_START };
export type ShiftRowIssueCode = 'weekdaysRequired' | 'invalidTime' | 'endEqualsStart' | 'endBeforeStart';
export interface ShiftRowIssue {
  field: 'weekdays' | 'start' | 'end';
  code: ShiftRowIssueCode;
}

/**
 * "Submit disabled when any shift row has no weekdays" (§5) plus well-formed times, and an end after the start unless
 * the shift ends the next day (`endsNextDay` compares hours: only an earlier hour is the next day). 06:00–06:00 would
 * be a shift of 0 hours, 06:30–06:10 one of −20 minutes (the overlap warning took it for a night shift): input
 * mistakes, refused by the editor and the API alike. Empty list = valid.
 */
export function shiftRowIssues(row: Pick<ShiftRow, 'start' | 'end' | 'weekdays'>): ShiftRowIssue[] {
  const issues: ShiftRowIssue[] = [];
  if (row.weekdays.length === 0 || !row.weekdays.every(isWeekday)) issues.push({ field: 'weekdays', code: 'weekdaysRequired' });
  const start = parseTimeOfDay(row.start);
  const end = parseTimeOfDay(row.end);
  if (start === null) issues.push({ field: 'start', code: 'invalidTime' });
  if (end === null) issues.push({ field: 'end', code: 'invalidTime' });
  else if (start === end) issues.push({ field: 'end', code: 'endEqualsStart' });
  else if (start !== null && end < start && !endsNextDay(start, end)) issues.push({ field: 'end', code: 'endBeforeStart' });
  return issues;
}

/** Whether a row's end is labelled 'Endzeit (+1)'; false while a time is not well-formed. */
export function shiftRowEndsNextDay(row: Pick<ShiftRow, 'start' | 'end'>): boolean {
  const start = parseTimeOfDay(row.start);
  const end = parseTimeOfDay(row.end);
  return start !== null && end !== null && endsNextDay(start, end);
}

/** Weekdays in calendar order without repeats (the select reports them in click order). */
export function sortWeekdays(weekdays: readonly Weekday[]): Weekday[] {
  return [...new Set(weekdays)].sort((a, b) => a - b);
}

/** Whether two plans are the same rows in the same order (weekdays compared as sets, in any click order). */
export function sameShiftPlan(a: readonly ShiftRow[], b: readonly ShiftRow[]): boolean {
  const key = (row: ShiftRow) => JSON.stringify([row.start, row.end, sortWeekdays(row.weekdays), row.unmanned === true]);
  return a.length === b.length && a.every((row, index) => key(row) === key(b[index]!));
}

/** Part 2 §5: an area (or machine) cannot be saved while any shift row has an issue (no weekday, bad time). */
export function hasShiftRowIssues(rows: readonly Pick<ShiftRow, 'start' | 'end' | 'weekdays'>[]): boolean {
  return rows.some((row) => shiftRowIssues(row).length > 0);
}

/** Another row a shift overlaps: its index, and the weekdays (of this row) on which they meet. */
export interface ShiftOverlap {
  other: number;
  weekdays: Weekday[];
}

const MINUTES_PER_WEEK = 7 * MINUTES_PER_DAY;

/**
 * A row's shifts as minutes of the week (Monday 00:00 = 0), both ends included: the editor's shifts follow each other
 * one minute apart (`newShiftRow`), so 06:00–13:59 and 14:00–21:59 do not meet. An end before the start is the next
 * day's. A row with an issue has none.
 */
function shiftSpans(row: Pick<ShiftRow, 'start' | 'end' | 'weekdays'>): { day: Weekday; from: number; to: number }[] {
  const start = parseTimeOfDay(row.start);
  const end = parseTimeOfDay(row.end);
  if (start === null || end === null) return [];
  const length = end >= start ? end - start : end + MINUTES_PER_DAY - start;
  return sortWeekdays(row.weekdays.filter(isWeekday)).map((day) => {
    const from = (day - 1) * MINUTES_PER_DAY + start;
    return { day, from, to: from + length };
  });
}

function spansMeet(a: { from: number; to: number }, b: { from: number; to: number }): boolean {
  // A night shift of Sunday runs into Monday of the next week: compared a week later too.
  return [0, MINUTES_PER_WEEK, -MINUTES_PER_WEEK].some((shift) => a.from <= b.to + shift && b.from + shift <= a.to);
}

/**
 * For each row, the other rows whose shifts overlap it (a Monday night shift reaching into Tuesday's early shift
 * included). The editor warns about them; a plan with overlaps can still be saved (a handover may be meant).
 */
export function shiftOverlaps(rows: readonly Pick<ShiftRow, 'start' | 'end' | 'weekdays'>[]): ShiftOverlap[][] {
  const spans = rows.map(shiftSpans);
  return spans.map((own, index) =>
    spans.flatMap((others, other) => {
      if (other === index) return [];
      const weekdays = own.filter((span) => others.some((candidate) => spansMeet(span, candidate))).map((span) => span.day);
      return weekdays.length > 0 ? [{ other, weekdays }] : [];
    }),
  );
}
