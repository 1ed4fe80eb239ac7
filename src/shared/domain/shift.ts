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
