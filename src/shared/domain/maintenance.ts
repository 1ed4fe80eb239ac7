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
