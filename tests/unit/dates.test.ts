import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatTime } from '../../src/client/lib/dates';

describe('dates (spec part 2 §9: DD.MM.YYYY, HH:mm)', () => {
  const local = new Date(2026, 2, 5, 7, 30); // 5 March 2026, 07:30 local time

  it('formats German dates and times', () => {
    expect(formatDate(local)).toBe('05.03.2026');
    expect(formatTime(local)).toBe('07:30');
    expect(formatDateTime(local.getTime())).toBe('05.03.2026 07:30');
  });

  it('returns an empty string for missing or invalid values', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});
