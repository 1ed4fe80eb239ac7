import { describe, expect, it } from 'vitest';
import {
  ELAPSED_DAYS_FROM_MS,
  NOTIFICATION_COLOURS,
  NOTIFICATION_STATUSES,
  NOTIFICATION_TYPES,
  UNKNOWN_NOTIFICATION_TYPE_LABEL_KEY,
  applyStatusTransition,
  elapsedDisplay,
  isOpenStatus,
  notificationTypeStyle,
  type NotificationStatus,
  type NotificationType,
} from '../../src/shared/domain/notification';

const NOW = Date.UTC(2026, 10, 22, 9, 0);

describe('notification type → colour and label (§4.1)', () => {
  const expected: Record<NotificationType, string> = { 0: 'red', 1: 'amber', 2: 'grey', 3: 'grey', 4: 'grey', 5: 'grey', 6: 'blue', 7: 'blue', 8: 'purple', 9: 'green', 10: 'red', 11: 'red', 12: 'orange' };

  it.each(NOTIFICATION_TYPES.map((type) => [type]))('type %i has its colour and its own label key', (type) => {
    const style = notificationTypeStyle(type);
    expect(style).toEqual({ colour: expected[type], labelKey: `notification.type.${type}`, known: true });
    expect(NOTIFICATION_COLOURS).toContain(style.colour);
  });

  it.each([-1, 13, 2.5, '3', null, undefined])('%j is "Unbekannter Typ" in black', (type) => {
    expect(notificationTypeStyle(type)).toEqual({ colour: 'black', labelKey: UNKNOWN_NOTIFICATION_TYPE_LABEL_KEY, known: false });
  });

  it('planned maintenance takes its category colour when there is one; other types ignore it', () => {
    expect(notificationTypeStyle(6, '#FB8C00')).toMatchObject({ colour: 'blue', colorcode: '#FB8C00' });
    expect(notificationTypeStyle(6, 'orange')).not.toHaveProperty('colorcode');
    expect(notificationTypeStyle(0, '#FB8C00')).not.toHaveProperty('colorcode');
  });
});

describe('status transitions (§4.2)', () => {
  const rules: Record<`${NotificationStatus}->${NotificationStatus}`, ReturnType<typeof applyStatusTransition>> = {
    '0->0': {},
    '0->1': { progressstarted: NOW },
    '0->2': { progressstarted: NOW, closed: NOW },
    '1->0': { progressstarted: 0 },
    '1->1': {},
    '1->2': { closed: NOW },
    '2->0': { progressstarted: 0, closed: 0 },
    '2->1': { closed: 0 },
    '2->2': {},
  };
  const pairs = NOTIFICATION_STATUSES.flatMap((from) => NOTIFICATION_STATUSES.map((to) => [from, to] as const));

  it.each(pairs)('%i → %i sets and resets the timestamps of the spec', (from, to) => {
    expect(applyStatusTransition(from, to, NOW)).toEqual(rules[`${from}->${to}`]);
  });

  it.each(NOTIFICATION_STATUSES.map((s) => [s]))('status %i is open only below 2', (status) => {
    expect(isOpenStatus(status)).toBe(status < 2);
  });
});

describe('elapsed time display (§4.2, §9)', () => {
  const HOUR = 3_600_000;
  it.each([
    [0, 'hours', 0],
    [HOUR - 1, 'hours', 0],
    [5 * HOUR, 'hours', 5],
    [ELAPSED_DAYS_FROM_MS - 1, 'hours', 47],
    [ELAPSED_DAYS_FROM_MS, 'days', 2],
    [10 * 24 * HOUR + 5 * HOUR, 'days', 10],
    [-HOUR, 'hours', 0],
  ])('%i ms shows as %s (%i)', (ms, unit, value) => {
    expect(elapsedDisplay(ms)).toEqual({ unit, value });
  });
});
