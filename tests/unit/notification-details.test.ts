import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import de from '../../src/client/i18n/de.json';
import en from '../../src/client/i18n/en.json';
import { LocalDatabase } from '../../src/client/db/local-db';
import { readMachineHistory } from '../../src/client/sync/machine-history';
import { readNotificationDetail, readOpenNotifications } from '../../src/client/sync/machine-mirror';
import { readNotificationDetailsExtras } from '../../src/client/sync/notification-details';
import { writeState, stateKeys } from '../../src/client/sync/outbox';
import { removeNotification } from '../../src/client/sync/repositories/notifications';
import { forgetNotification, notificationDetailsStore, rememberNotification } from '../../src/client/stores/notification-details-store';
import {
  keepsNotificationState,
  NO_TYPE_CODE_LOG,
  notificationBadgeText,
  notificationOriginPath,
  NOTIFICATION_STATUSES,
  NOTIFICATION_TYPES,
  showsDueDate,
  UNDEFINED_BADGE_TYPECODE_TEXT,
  UNKNOWN_NOTIFICATION_TYPE_TEXT,
} from '../../src/shared/domain/notification';

const USER = '0190f5a0-0000-7000-8000-0000000000aa';
const MACHINE = '0190f5a0-0000-7000-8000-0000000000bb';
const PLANNED = '0190f5a0-0000-7000-8000-0000000000c6';
const FAULT = '0190f5a0-0000-7000-8000-0000000000c0';
const DAY = 86_400_000;

describe('badge texts of §4.1 and §8', () => {
  it.each(NOTIFICATION_TYPES.map((type) => [type]))('type %i shows its label, in German and English', (type) => {
    expect(notificationBadgeText(type)).toEqual({ kind: 'known', labelKey: `notification.type.${type}` });
    expect(de.notification.type[String(type) as keyof typeof de.notification.type]).toMatch(/\S/);
    expect(en.notification.type[String(type) as keyof typeof en.notification.type]).toMatch(/\S/);
  });

  it.each([-1, 13, 99, 2.5, '3', NaN])('the code %j is "Unbekannter Typ" with the log line "No type code defined!"', (type) => {
    expect(notificationBadgeText(type)).toEqual({ kind: 'unknown', text: UNKNOWN_NOTIFICATION_TYPE_TEXT, log: NO_TYPE_CODE_LOG });
    expect(UNKNOWN_NOTIFICATION_TYPE_TEXT).toBe('Unbekannter Typ');
    expect(NO_TYPE_CODE_LOG).toBe('No type code defined!');
  });

  it.each([undefined, null])('no code at all (%j) is "Undefined badge typecode."', (type) => {
    expect(notificationBadgeText(type)).toEqual({ kind: 'undefined', text: UNDEFINED_BADGE_TYPECODE_TEXT });
    expect(UNDEFINED_BADGE_TYPECODE_TEXT).toBe('Undefined badge typecode.');
  });
});

describe('where the details screen returns to (§2.2, §4.2)', () => {
  it.each([
    ['history', `/machine-overview?nodeid=${MACHINE}&tab=1`],
    ['overview', `/machine-overview?nodeid=${MACHINE}&tab=0`],
    ['maintenance', `/machine-overview?nodeid=${MACHINE}&tab=4`],
    ['aufgabe', '/aufgabeplanung'],
    ['maintenance-dashboard', '/maintenance-dashboard'],
    ['notifications-dashboard', '/notifications-dashboard'],
    [undefined, '/notifications-dashboard'],
    ['somewhere', '/notifications-dashboard'],
  ])('from %j → %s', (from, path) => {
    expect(notificationOriginPath(from, MACHINE)).toBe(path);
  });

  it('a machine tab without a machine falls back to the notifications dashboard', () => {
    expect(notificationOriginPath('history', null)).toBe('/notifications-dashboard');
  });

  it.each([
    ['/create-report', true],
    ['/edit-report', true],
    ['/notification-details', true],
    ['/edit-notification', true],
    ['/create-workflow-step', true],
    ['/edit-workflow-step', true],
    ['/dashboard', false],
    ['/machine-overview', false],
    ['/notifications-dashboard', false],
  ])('leaving for %s keeps the remembered notification: %s', (path, keeps) => {
    expect(keepsNotificationState(path)).toBe(keeps);
  });

  it('the store remembers the last shown notification until it is forgotten', () => {
    rememberNotification('n1');
    rememberNotification('n2');
    expect(notificationDetailsStore.getState().rememberedNodeid).toBe('n2');
    forgetNotification();
    expect(notificationDetailsStore.getState().rememberedNodeid).toBeNull();
  });

  it('remembers where the notification was opened from while the user edits it; another notification starts without it', () => {
    const machine = { from: 'overview', equipmentNodeId: 'm1' };
    rememberNotification('n1', machine);
    // Back from /edit-notification: no navigation state, the same notification.
    rememberNotification('n1');
    expect(notificationDetailsStore.getState()).toMatchObject({ rememberedNodeid: 'n1', origin: machine });
    rememberNotification('n2');
    expect(notificationDetailsStore.getState()).toMatchObject({ rememberedNodeid: 'n2', origin: null });
    rememberNotification('n2', { from: 'history', equipmentNodeId: 'm2' });
    forgetNotification();
    expect(notificationDetailsStore.getState()).toMatchObject({ rememberedNodeid: null, origin: null });
  });
});

describe('status or due date in the header (§2.2)', () => {
  it.each(NOTIFICATION_STATUSES.flatMap((status) => [[status, 5 * DAY], [status, null]] as const))('status %i with due date %j', (status, due) => {
    // Beside the status line while not closed: in progress is still due.
    expect(showsDueDate(status, due)).toBe(status !== 2 && due !== null);
  });

  it('closing says "Time for this notification:" in English', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ resources: { en: { translation: en } }, lng: 'en', interpolation: { escapeValue: false } });
    expect(i18n.t('notificationSlice.processingTime', { elapsed: '5 hours' })).toBe('Time for this notification: 5 hours');
  });
});

async function mirror() {
  const db = new LocalDatabase(`notification-details-${Math.random()}`);
  await db.mirror('equipment').put({ nodeid: MACHINE, name: 'BAZ 02 Fräszentrum' });
  await db.mirror('maintenancecategories').put({ nodeid: 'cat', name: { de: 'Gesetzlich' }, colorcode: '#8E24AA' });
  await db.mirror('maintenancetasks').put({
    nodeid: 'task',
    title: 'Jahreswartung',
    safetynotice: { de: 'Hauptschalter aus und abschließen.', en: 'Switch off and lock the main switch.' },
    startingfrom: Date.UTC(2026, 0, 15, 8),
    repetitioninterval: '1m',
    nextdueat: null,
    triggertype: 'time',
    categorynodeid: 'cat',
    equipmentnodeid: MACHINE,
  });
  await db.mirror('notifications').bulkPut([
    { nodeid: PLANNED, equipmentnodeid: MACHINE, status: 0, type: 6, title: 'Jahreswartung', created: DAY, dueuntil: Date.UTC(2026, 10, 30), errorcode: null, maintenancetasknodeid: 'task' },
    { nodeid: FAULT, equipmentnodeid: MACHINE, status: 1, type: 0, title: 'Spindel blockiert', created: DAY, dueuntil: null, errorcode: 'ALM 25000', maintenancetasknodeid: null },
  ]);
  await db.mirror('workflows').put({ nodeid: 'wf', notificationnodeid: FAULT, title: 'Lager getauscht', created: 2 * DAY });
  await writeState(db, stateKeys.initialSyncDone, true);
  return db;
}

describe('what the details screen reads besides the notification', () => {
  it('a planned maintenance: its task category colour, safety notice by language and the next appointment of its series', async () => {
    const db = await mirror();
    const now = new Date(2026, 10, 20, 12);
    const extras = await readNotificationDetailsExtras(db, PLANNED, 'en', now);
    expect(extras).toEqual({
      errorcode: null,
      dueuntil: Date.UTC(2026, 10, 30),
      hasWorkflows: false,
      task: { title: 'Jahreswartung', safetynotice: 'Switch off and lock the main switch.', colorcode: '#8E24AA', repetitioninterval: '1m', nextAppointment: expect.any(Number) as number },
    });
    const next = new Date(extras!.task!.nextAppointment!);
    expect([next.getFullYear(), next.getMonth(), next.getDate()]).toEqual([2026, 11, 15]);
    expect((await readNotificationDetailsExtras(db, PLANNED, 'de', now))!.task!.safetynotice).toBe('Hauptschalter aus und abschließen.');
  });

  it('a fault: its error code and "Maßnahme hinterlegt" once a solution hangs on it; no task', async () => {
    const db = await mirror();
    expect(await readNotificationDetailsExtras(db, FAULT, 'de', new Date())).toEqual({ errorcode: 'ALM 25000', dueuntil: null, hasWorkflows: true, task: null });
    expect(await readNotificationDetailsExtras(db, 'missing', 'de', new Date())).toBeNull();
  });

  it('a one-time or counter task has no next appointment', async () => {
    const db = await mirror();
    await db.mirror('maintenancetasks').update('task', { repetitioninterval: 'onetime' });
    expect((await readNotificationDetailsExtras(db, PLANNED, 'de', new Date()))!.task!.nextAppointment).toBeNull();
    await db.mirror('maintenancetasks').update('task', { repetitioninterval: '1m', triggertype: 'counter' });
    expect((await readNotificationDetailsExtras(db, PLANNED, 'de', new Date()))!.task!.nextAppointment).toBeNull();
  });

  it('deleting queues one deleteNotification and takes the notification off the device at once', async () => {
    const db = await mirror();
    expect((await readMachineHistory(db, MACHINE))!.entries.map((entry) => entry.nodeid)).toContain(FAULT);
    await removeNotification({ db, usernodeid: USER, now: () => 30 * DAY }, FAULT);
    expect(await readNotificationDetail(db, FAULT, 'de')).toEqual({ status: 'missing' });
    expect(await readNotificationDetailsExtras(db, FAULT, 'de', new Date())).toBeNull();
    // The machine's open list and history (where the screen returns to) leave it out at once too.
    expect((await readOpenNotifications(db, MACHINE)).map((n) => n.nodeid)).toEqual([PLANNED]);
    expect((await readMachineHistory(db, MACHINE))!.entries.map((entry) => entry.nodeid)).not.toContain(FAULT);
    const outbox = await db.outbox.toArray();
    expect(outbox.map((entry) => [entry.action, entry.method, entry.path, entry.nodeid])).toEqual([['deleteNotification', 'DELETE', `notifications/${FAULT}`, FAULT]]);
  });
});
