import { describe, expect, it } from 'vitest';
import { formatHours, formatReading } from '../../src/client/features/machine/format-reading';

describe('counter readings and elapsed time as the modal says them', () => {
  it('formats a reading in the language of the screen, with its unit', () => {
    expect(formatReading(61511.5, 'de', 'h')).toBe('61.511,5 h');
    expect(formatReading(61511.5, 'en', 'h')).toBe('61,511.5 h');
    expect(formatReading(12, 'de', null)).toBe('12');
  });

  it.each([
    [1 / 60, 'de', '1 min'],
    [0.001, 'de', '1 min'],
    [0, 'de', '1 min'],
    [0.5, 'de', '30 min'],
    [0.94, 'en', '56 min'],
    [0.96, 'de', '1 h'],
    [1.25, 'de', '1,3 h'],
    [36.5, 'en', '36.5 h'],
    [1200, 'de', '1.200 h'],
  ])('%d hours elapsed (%s) read %j', (hours, language, expected) => {
    expect(formatHours(hours, language as string)).toBe(expected);
  });
});
