import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/shared/domain/billing';
import {
  NOTIFICATION_STATUSES,
  NOTIFICATION_TYPE,
  NOTIFICATION_TYPES,
  isNotificationStatus,
  isNotificationType,
  isOpenStatus,
  isUsableNotificationType,
} from '../../src/shared/domain/notification';
import { REMINDER_OPTIONS, REPETITION_INTERVALS, allowedReminders, isReminderOption, parseRepetitionInterval } from '../../src/shared/domain/maintenance';
import { endsNextDay, isMinuteOfDay, isWeekday } from '../../src/shared/domain/shift';
import { isAttachmentCategory } from '../../src/shared/domain/attachment';

describe('notification values', () => {
  it('knows types 0–12, of which 4 and 5 cannot be chosen', () => {
    expect(NOTIFICATION_TYPES).toHaveLength(13);
    expect(Object.values(NOTIFICATION_TYPE).sort((a, b) => a - b)).toEqual([...NOTIFICATION_TYPES]);
    for (const type of NOTIFICATION_TYPES) {
      expect(isNotificationType(type)).toBe(true);
      expect(isUsableNotificationType(type)).toBe(type !== 4 && type !== 5);
    }
    for (const bad of [-1, 13, 1.5, '1', null]) expect(isNotificationType(bad)).toBe(false);
  });

  it.each(NOTIFICATION_STATUSES.map((s) => [s]))('status %i counts as open only below 2', (status) => {
    expect(isNotificationStatus(status)).toBe(true);
    expect(isOpenStatus(status)).toBe(status < 2);
  });

  it('rejects unknown statuses', () => {
    expect(isNotificationStatus(3)).toBe(false);
    expect(isNotificationStatus('0')).toBe(false);
  });
});

describe('maintenance values', () => {
  it('reads 1y as 12m and rejects unknown intervals', () => {
    expect(parseRepetitionInterval('1y')).toBe('12m');
    expect(parseRepetitionInterval('48m')).toBe('48m');
    expect(parseRepetitionInterval('onetime')).toBe('onetime');
    expect(parseRepetitionInterval('5m')).toBeUndefined();
  });

  it('narrows reminders as the spec says and allows all otherwise', () => {
    expect(allowedReminders('1w')).toEqual(['2d']);
    expect(allowedReminders('2w')).toEqual(['2d', '1w']);
    expect(allowedReminders('1m')).toEqual(['2d', '1w', '2w']);
    for (const interval of REPETITION_INTERVALS) {
      for (const reminder of allowedReminders(interval)) expect(isReminderOption(reminder)).toBe(true);
    }
    expect(allowedReminders('12m')).toEqual(REMINDER_OPTIONS);
  });
});

describe('shift values', () => {
  it('accepts ISO weekdays and minutes of the day', () => {
    expect([1, 7].every(isWeekday)).toBe(true);
    expect([0, 8, 1.5].some(isWeekday)).toBe(false);
    expect(isMinuteOfDay(0)).toBe(true);
    expect(isMinuteOfDay(1439)).toBe(true);
    expect(isMinuteOfDay(1440)).toBe(false);
    expect(isMinuteOfDay(-1)).toBe(false);
  });

  it('labels a shift ending at an earlier hour as ending the next day', () => {
    expect(endsNextDay(22 * 60, 5 * 60 + 59)).toBe(true);
    expect(endsNextDay(6 * 60, 13 * 60 + 59)).toBe(false);
    // why: the spec compares hours, so 10:30–10:10 stays on the same day.
    expect(endsNextDay(10 * 60 + 30, 10 * 60 + 10)).toBe(false);
  });
});

describe('billing values', () => {
  it('parses quota and term durations', () => {
    expect(parseDuration('30d')).toEqual({ amount: 30, unit: 'd' });
    expect(parseDuration('12M')).toEqual({ amount: 12, unit: 'm' });
    expect(parseDuration(' 1y ')).toEqual({ amount: 1, unit: 'y' });
    expect(parseDuration('12')).toBeUndefined();
    expect(parseDuration('m12')).toBeUndefined();
  });
});

describe('attachment categories', () => {
  it('knows the five documentation categories', () => {
    for (const category of ['operation', 'setup', 'maintenance', 'safety', 'internalinstructions']) expect(isAttachmentCategory(category)).toBe(true);
    expect(isAttachmentCategory('other')).toBe(false);
  });
});
