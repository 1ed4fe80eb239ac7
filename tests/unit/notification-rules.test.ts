import { describe, expect, it } from 'vitest';
import {
  ELAPSED_DAYS_FROM_MS,
  NOTIFICATION_COLOURS,
  NOTIFICATION_STATUSES,
  NOTIFICATION_TYPES,
  UNKNOWN_NOTIFICATION_TYPE_LABEL_KEY,
  applyStatusTransition,
  notificationStatusChange,
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
    // Under an hour: just now, then minutes (issue #14: "offen seit 0 Stunden" said nothing).
    [0, 'now', 0],
    [59_999, 'now', 0],
    [60_000, 'minutes', 1],
    [HOUR - 1, 'minutes', 59],
    [HOUR, 'hours', 1],
    [5 * HOUR, 'hours', 5],
    [ELAPSED_DAYS_FROM_MS - 1, 'hours', 47],
    [ELAPSED_DAYS_FROM_MS, 'days', 2],
    [10 * 24 * HOUR + 5 * HOUR, 'days', 10],
    [-HOUR, 'now', 0],
  ])('%i ms shows as %s (%i)', (ms, unit, value) => {
    expect(elapsedDisplay(ms)).toEqual({ unit, value });
  });
});

describe('the status change both sides apply (§4.2 on the row, device times clamped)', () => {
  const CREATED = NOW - 10 * 3_600_000;
  const STARTED = NOW - 5 * 3_600_000;
  const CLOSED = NOW - 3_600_000;
  const rows: Record<NotificationStatus, { status: NotificationStatus; created: number; progressstarted: number | null; closed: number | null }> = {
    0: { status: 0, created: CREATED, progressstarted: null, closed: null },
    1: { status: 1, created: CREATED, progressstarted: STARTED, closed: null },
    2: { status: 2, created: CREATED, progressstarted: STARTED, closed: CLOSED },
  };
  const expected: Record<`${NotificationStatus}->${NotificationStatus}`, object> = {
    '0->0': {},
    '0->1': { status: 1, progressstarted: NOW },
    '0->2': { status: 2, progressstarted: NOW, closed: NOW },
    '1->0': { status: 0, progressstarted: null },
    '1->1': {},
    '1->2': { status: 2, closed: NOW },
    '2->0': { status: 0, progressstarted: null, closed: null },
    '2->1': { status: 1, closed: null },
    '2->2': {},
  };
  const pairs = NOTIFICATION_STATUSES.flatMap((from) => NOTIFICATION_STATUSES.map((to) => [from, to] as const));

  it.each(pairs)('%i → %i without device times: the server now, resets null', (from, to) => {
    expect(notificationStatusChange(rows[from], to, NOW)).toEqual(expected[`${from}->${to}`]);
  });

  it.each(pairs)('%i → %i with the device time of the change: that time where the transition sets one', (from, to) => {
    const device = NOW - 60_000;
    const change = notificationStatusChange(rows[from], to, NOW, { progressstarted: device, closed: device });
    const withDevice = Object.fromEntries(Object.entries(expected[`${from}->${to}`]).map(([field, value]) => [field, value === NOW ? device : value]));
    expect(change).toEqual(withDevice);
  });

  it('a device clock off by a day is clamped to [created, now]', () => {
    expect(notificationStatusChange(rows[0], 2, NOW, { progressstarted: NOW + 86_400_000, closed: NOW + 86_400_000 })).toEqual({ status: 2, progressstarted: NOW, closed: NOW });
    expect(notificationStatusChange(rows[0], 1, NOW, { progressstarted: CREATED - 86_400_000 })).toEqual({ status: 1, progressstarted: CREATED });
  });

  it('closing never lands before the start it sets in the same change', () => {
    expect(notificationStatusChange(rows[0], 2, NOW, { progressstarted: NOW - 1_000, closed: CREATED - 5 })).toEqual({ status: 2, progressstarted: NOW - 1_000, closed: NOW - 1_000 });
  });

  // Found by an attacker's probe: closing a started notification with a device time before its start stored a
  // close earlier than the start (clamped to `created` only).
  it('closing what was started earlier never lands before that start', () => {
    expect(notificationStatusChange(rows[1], 2, NOW, { closed: CREATED + 1 })).toEqual({ status: 2, closed: STARTED });
    expect(notificationStatusChange(rows[1], 2, NOW, { closed: STARTED + 1 })).toEqual({ status: 2, closed: STARTED + 1 });
  });
});
