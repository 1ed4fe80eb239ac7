/** Closed value sets of routine maintenance (spec part 1 §3 "Maintenance task", §5). */

export const REPETITION_INTERVALS = ['onetime', '1w', '2w', '1m', '2m', '3m', '6m', '12m', '18m', '24m', '36m', '48m'] as const;
export type RepetitionInterval = (typeof REPETITION_INTERVALS)[number];

export const REMINDER_OPTIONS = ['2d', '1w', '2w', '1m'] as const;
export type ReminderOption = (typeof REMINDER_OPTIONS)[number];

export const TRIGGER_TYPES = ['time', 'counter'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/** The API's "nextdueat -1 when unset". */
export const NEXT_DUE_UNSET = -1;

export function isRepetitionInterval(value: unknown): value is RepetitionInterval {
  return typeof value === 'string' && (REPETITION_INTERVALS as readonly string[]).includes(value);
}

export function isReminderOption(value: unknown): value is ReminderOption {
  return typeof value === 'string' && (REMINDER_OPTIONS as readonly string[]).includes(value);
}

/** The spec writes 12m also as 1y; everything else is stored in its canonical spelling. */
export function parseRepetitionInterval(value: string): RepetitionInterval | undefined {
  const canonical = value === '1y' ? '12m' : value;
  return isRepetitionInterval(canonical) ? canonical : undefined;
}

/**
 * Reminders a repetition allows. The spec narrows only 1w (2d), 2w (2d, 1w) and 1m (2d, 1w, 2w) and leaves the
 * rest open; our reading: a reminder must come before the previous occurrence is due again, so longer
 * intervals allow every option and a one-time task allows every option too.
 */
export function allowedReminders(interval: RepetitionInterval): readonly ReminderOption[] {
  switch (interval) {
    case '1w':
      return ['2d'];
    case '2w':
      return ['2d', '1w'];
    case '1m':
      return ['2d', '1w', '2w'];
    default:
      return REMINDER_OPTIONS;
  }
}

/** Length of a repetition: whole weeks or calendar months. */
export function intervalStep(interval: Exclude<RepetitionInterval, 'onetime'>): { unit: 'week' | 'month'; amount: number } {
  return { unit: interval.endsWith('w') ? 'week' : 'month', amount: Number.parseInt(interval, 10) };
}

/** Midnight (local time) of a date. */
function startOfDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}

/**
 * `anchor` moved by `count` repetitions (negative: back). Months step by the calendar and keep the anchor's day,
 * clamped to the month's last day (31 Jan + 1 month = 28/29 Feb); each step counts from the anchor, so a clamp
 * never makes the series drift (31 Jan + 2 months = 31 Mar).
 */
export function shiftByInterval(anchor: Date, interval: Exclude<RepetitionInterval, 'onetime'>, count: number): Date {
  const { unit, amount } = intervalStep(interval);
  if (unit === 'week') return new Date(anchor.getFullYear(), anchor.getMonth(), anchor.getDate() + amount * 7 * count, anchor.getHours(), anchor.getMinutes());
  const month = anchor.getMonth() + amount * count;
  const lastDay = new Date(anchor.getFullYear(), month + 1, 0).getDate();
  return new Date(anchor.getFullYear(), month, Math.min(anchor.getDate(), lastDay), anchor.getHours(), anchor.getMinutes());
}

export interface NextDueInput {
  triggertype: TriggerType;
  repetitioninterval: RepetitionInterval;
  /** ms; the series' first due date. */
  startingfrom: number;
  /** ms; null is the API's -1 (unset). */
  nextdueat: number | null;
}

/**
 * What the maintenance table shows as "next due" (part 1 §4.5):
 * - counter-triggered: no date, the counter-trigger flag;
 * - one-time: `nextdueat`, or the start date when it is unset (-1);
 * - time-triggered repeating: from `nextdueat` (the start date when unset), step back by the interval while the
 *   result is not before today — the earliest due date of the series that is today or later — and never before
 *   the start date. A `nextdueat` already in the past stays as it is: the task is overdue and the table says so
 *   (`overdue`), instead of hiding a missed maintenance behind the next date. Without a `nextdueat` (nothing was
 *   ever recorded) the series from the start date is stepped forward to the first date today or later.
 * Days count in the device's local time; `overdue` is a due day before today.
 */
export type NextDue = { kind: 'counter' } | { kind: 'date'; at: Date; overdue: boolean };

export function nextDue(task: NextDueInput, now: Date): NextDue {
  if (task.triggertype === 'counter') return { kind: 'counter' };
  const today = startOfDay(now);
  const start = new Date(task.startingfrom);
  const dated = (at: Date): NextDue => ({ kind: 'date', at, overdue: startOfDay(at) < today });
  if (task.repetitioninterval === 'onetime') return dated(task.nextdueat === null ? start : new Date(task.nextdueat));
  const interval = task.repetitioninterval;
  if (task.nextdueat === null) {
    // The series from its start: the first occurrence today or later (a start in the future is that start).
    let count = 0;
    while (startOfDay(shiftByInterval(start, interval, count)) < today) count += 1;
    return dated(shiftByInterval(start, interval, count));
  }
  const anchor = new Date(task.nextdueat);
  if (startOfDay(anchor) < today) return dated(anchor);
  let count = 0;
  for (;;) {
    const previous = shiftByInterval(anchor, interval, -(count + 1));
    if (startOfDay(previous) < today || previous < start) break;
    count += 1;
  }
  return dated(shiftByInterval(anchor, interval, -count));
}
