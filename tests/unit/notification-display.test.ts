import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import de from '../../src/client/i18n/de.json';
import en from '../../src/client/i18n/en.json';
import { elapsedText, openForText } from '../../src/client/lib/use-elapsed-text';
import { elapsedDisplay, notificationElapsed, notificationStatusLine, REPORTABLE_NOTIFICATION_TYPES } from '../../src/shared/domain/notification';
import { truncateText } from '../../src/shared/domain/text';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const base = { created: 1_000 * HOUR, progressstarted: null, closed: null };

describe('notification display rules', () => {
  it('offers every type but the unused 4 and 5 for a report, in the spec order', () => {
    expect(REPORTABLE_NOTIFICATION_TYPES).toEqual([0, 1, 2, 3, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('states opened, in progress since or closed on, falling back to the creation time', () => {
    expect(notificationStatusLine({ ...base, status: 0 })).toEqual({ kind: 'opened', at: base.created });
    expect(notificationStatusLine({ ...base, status: 1, progressstarted: 1_002 * HOUR })).toEqual({ kind: 'inProgress', at: 1_002 * HOUR });
    expect(notificationStatusLine({ ...base, status: 1 })).toEqual({ kind: 'inProgress', at: base.created });
    expect(notificationStatusLine({ ...base, status: 2, progressstarted: 1_002 * HOUR, closed: 1_010 * HOUR })).toEqual({ kind: 'closed', at: 1_010 * HOUR });
  });

  it('counts open time from creation and processing time from progress start to closing, hours under 48 h', () => {
    expect(notificationElapsed({ ...base, status: 0 }, base.created + 47 * HOUR + 59 * 60_000)).toEqual({ unit: 'hours', value: 47 });
    expect(notificationElapsed({ ...base, status: 1, progressstarted: 1_001 * HOUR }, base.created + 48 * HOUR)).toEqual({ unit: 'days', value: 2 });
    expect(notificationElapsed({ ...base, status: 2, progressstarted: 1_010 * HOUR, closed: 1_015 * HOUR }, 0)).toEqual({ unit: 'hours', value: 5 });
    expect(notificationElapsed({ ...base, status: 2, closed: 1_072 * HOUR }, 0)).toEqual({ unit: 'days', value: 3 });
    expect(notificationElapsed({ ...base, status: 2 }, 0)).toBeNull();
    expect(notificationElapsed({ ...base, created: null, status: 0 }, 0)).toBeNull();
  });

  it('shows a report made moments ago as just now and minutes under an hour, never "0 hours"', () => {
    expect(elapsedDisplay(0)).toEqual({ unit: 'now', value: 0 });
    expect(elapsedDisplay(MINUTE - 1)).toEqual({ unit: 'now', value: 0 });
    expect(elapsedDisplay(-5 * MINUTE)).toEqual({ unit: 'now', value: 0 });
    expect(elapsedDisplay(MINUTE)).toEqual({ unit: 'minutes', value: 1 });
    expect(elapsedDisplay(59 * MINUTE + 59_999)).toEqual({ unit: 'minutes', value: 59 });
    expect(elapsedDisplay(HOUR)).toEqual({ unit: 'hours', value: 1 });
    expect(notificationElapsed({ ...base, status: 0 }, base.created + 5 * MINUTE)).toEqual({ unit: 'minutes', value: 5 });
  });

  it('puts elapsed time into words with plural forms in both languages', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ resources: { de: { translation: de }, en: { translation: en } }, lng: 'de', interpolation: { escapeValue: false } });
    const words = (ms: number) => [elapsedText(i18n.t, elapsedDisplay(ms)), openForText(i18n.t, elapsedDisplay(ms))];
    expect(words(10_000)).toEqual(['weniger als 1 Minute', 'gerade eben gemeldet']);
    expect(words(MINUTE)).toEqual(['1 Minute', 'offen seit 1 Minute']);
    expect(words(5 * MINUTE)).toEqual(['5 Minuten', 'offen seit 5 Minuten']);
    expect(words(HOUR)).toEqual(['1 Stunde', 'offen seit 1 Stunde']);
    expect(words(47 * HOUR)).toEqual(['47 Stunden', 'offen seit 47 Stunden']);
    expect(words(48 * HOUR)).toEqual(['2 Tage', 'offen seit 2 Tagen']);
    await i18n.changeLanguage('en');
    expect(words(10_000)).toEqual(['less than a minute', 'reported just now']);
    expect(words(MINUTE)).toEqual(['1 minute', 'open for 1 minute']);
    expect(words(5 * MINUTE)).toEqual(['5 minutes', 'open for 5 minutes']);
    expect(words(HOUR)).toEqual(['1 hour', 'open for 1 hour']);
    expect(words(72 * HOUR)).toEqual(['3 days', 'open for 3 days']);
  });

  it('cuts header titles to 50 characters with an ellipsis, counting characters not UTF-16 units', () => {
    const title = 'Hydrauliköl tritt am Spannzylinder der Presse 4 aus – Auffangwanne voll';
    const cut = truncateText(title, 50);
    expect([...cut]).toHaveLength(50);
    expect(cut.endsWith('…')).toBe(true);
    expect(truncateText('Kurz', 50)).toBe('Kurz');
    expect(truncateText('🔧'.repeat(50), 50)).toBe('🔧'.repeat(50));
  });
});
