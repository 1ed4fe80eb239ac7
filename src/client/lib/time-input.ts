/**
 * What a person types into a time field, read as a 24-hour time of day. The fields are text inputs, not
 * <input type="time">: Chromium draws that one in the operating system's locale, so a tablet set to English
 * showed "10:00 PM" in a German app. The spec fixes HH:mm in both languages (part 2 §9), and so do these fields.
 */
import { formatTimeOfDay } from '../../shared/domain/shift';

/** A complete HH:mm as the fields hold it. */
export const TIME_INPUT_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * "6" → "06:00", "630" → "06:30", "1430" → "14:30", "6:5" → "06:05", "6.30" / "6,30" / "6h30" → "06:30",
 * "22:00" → "22:00"; anything that is no time of day (25:00, 12:60, letters) → null.
 */
export function normalizeTimeInput(text: string): string | null {
  const trimmed = text.trim();
  let hours: string | undefined;
  let minutes: string | undefined;
  const separated = /^(\d{1,2})\s*[:.,hH]\s*(\d{1,2})$/.exec(trimmed);
  if (separated) {
    [, hours, minutes] = separated;
    // "6:5" means five past six; a lone second digit is the minutes, not tens of minutes.
  } else if (/^\d{1,4}$/.test(trimmed)) {
    // Digits only: up to two are the hour, three or four are H+MM or HH+MM.
    hours = trimmed.length <= 2 ? trimmed : trimmed.slice(0, trimmed.length - 2);
    minutes = trimmed.length <= 2 ? '0' : trimmed.slice(-2);
  } else {
    return null;
  }
  const h = Number(hours);
  const m = Number(minutes);
  if (!Number.isInteger(h) || !Number.isInteger(m) || h > 23 || m > 59) return null;
  return formatTimeOfDay(h * 60 + m);
}
