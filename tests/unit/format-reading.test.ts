import { describe, expect, it } from 'vitest';
import { formatHours, formatReading } from '../../src/client/features/machine/format-reading';
import { changeLanguage, i18n, initI18n, loadAppTexts } from '../../src/client/lib/i18n';

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

  it('the "Stand prüfen" text reads right for a reading minutes or weeks after the last one, in both languages', async () => {
    initI18n('de');
    await loadAppTexts();
    const text = (hours: number, language: string) =>
      i18n.t('counterModal.tooFastText', { lng: language, elapsed: formatHours(hours, language), increase: formatReading(488.75, language, 'h') });
    expect(text(1 / 60, 'de')).toBe('Der letzte Stand wurde vor 1 min erfasst, der Zähler wäre seitdem aber um 488,75 h gestiegen. So schnell kann ein Stundenzähler nicht laufen.');
    expect(text(720, 'de')).toContain('vor 720 h erfasst');
    await changeLanguage('en');
    expect(text(1 / 60, 'en')).toBe('The last reading was taken 1 min ago, but the counter would have risen by 488.75 h since. An hour counter cannot run that fast.');
  });
});
