import { describe, expect, it } from 'vitest';
import { notificationElapsed, notificationStatusLine, REPORTABLE_NOTIFICATION_TYPES } from '../../src/shared/domain/notification';
import { truncateText } from '../../src/shared/domain/text';

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

  it('cuts header titles to 50 characters with an ellipsis, counting characters not UTF-16 units', () => {
    const title = 'Hydrauliköl tritt am Spannzylinder der Presse 4 aus – Auffangwanne voll';
    const cut = truncateText(title, 50);
    expect([...cut]).toHaveLength(50);
    expect(cut.endsWith('…')).toBe(true);
    expect(truncateText('Kurz', 50)).toBe('Kurz');
    expect(truncateText('🔧'.repeat(50), 50)).toBe('🔧'.repeat(50));
  });
});
