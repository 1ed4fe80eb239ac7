/**
 * Counter reading input rule of spec part 1 §5: "only digits, comma and period kept; at most one of each;
 * comma converted to a period before sending". The form runs `sanitizeCounterReading` on every keystroke (the
 * field keeps the comma the user typed); the form, the outbox and the server all parse with
 * `parseCounterReading`, so they accept the same values.
 */

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

/**
 * The reading as a number, or undefined when nothing parseable remains ('', '.', or both a comma and a
 * period, which would leave two separators). Numbers pass through when finite, non-negative and in range.
 */
export function parseCounterReading(input: string | number): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) && input >= 0 && input <= COUNTER_READING_MAX ? input : undefined;
  const text = normalizeCounterReading(input);
  if (!/^(\d+\.?\d*|\.\d+)$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value <= COUNTER_READING_MAX ? value : undefined;
}
