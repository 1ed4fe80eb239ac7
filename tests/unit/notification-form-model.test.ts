import { describe, expect, it } from 'vitest';
import {
  dateTimeOf,
  dueUntilOf,
  notificationFormReturnPath,
  notificationFormReturnState,
  nowFields,
  savedNotificationState,
  parseDateInput,
  resolveNotificationForm,
  snapTime,
  validateNotificationForm,
} from '../../src/client/features/notification-form/notification-form-model';
import { notificationDraftStore, takeNotificationDraft, takeNotificationDraftBase, type NotificationDraftValues } from '../../src/client/stores/notification-draft-store';

const N = '0190f5a0-0000-7000-8000-0000000000d1';
const M = '0190f5a0-0000-7000-8000-0000000000b1';

describe('which form the route and its state ask for', () => {
  it('edit from the details screen: ?nodeid= with state { pageType, from }', () => {
    expect(resolveNotificationForm('/edit-notification', `?nodeid=${N}`, { pageType: 'edit', from: 'notification' })).toEqual({ mode: 'edit', from: 'notification', notificationnodeid: N, equipmentnodeid: null, date: null, time: null, origin: null });
  });

  it('edit with the notification only in the state (the spec’s `notification` record)', () => {
    expect(resolveNotificationForm('/edit-notification', '', { notification: { nodeid: N }, equip: { nodeid: M } })).toMatchObject({ mode: 'edit', notificationnodeid: N, equipmentnodeid: M, from: 'notification' });
  });

  it.each([['', null], ['?nodeid=kaputt', null]])('edit without a notification (%s) is no form', (search, state) => {
    expect(resolveNotificationForm('/edit-notification', search, state)).toBeNull();
  });

  it('add from the machine with the machine in the query; from the board with date and time', () => {
    expect(resolveNotificationForm('/create-notification', `?equipmentnodeid=${M}`, { pageType: 'add', from: 'machine' })).toMatchObject({ mode: 'add', from: 'machine', equipmentnodeid: M, notificationnodeid: null });
    expect(resolveNotificationForm('/create-notification', '', { from: 'aufgabe', equip: M, date: '03.12.2026', time: '07:30' })).toMatchObject({ from: 'aufgabe', equipmentnodeid: M, date: '03.12.2026', time: '07:30' });
    expect(resolveNotificationForm('/create-notification', '', null)).toMatchObject({ mode: 'add', from: 'dashboard', equipmentnodeid: null });
  });

  it.each([
    [{ from: 'machine' }, `/machine-overview?nodeid=${M}`],
    [{ from: 'aufgabe' }, '/aufgabeplanung'],
    [{ from: 'dashboard' }, '/dashboard'],
  ])('add from %j goes back to %s', (state, path) => {
    expect(notificationFormReturnPath(resolveNotificationForm('/create-notification', `?equipmentnodeid=${M}`, state)!, M)).toBe(path);
  });

  it('edit goes back to the notification', () => {
    expect(notificationFormReturnPath(resolveNotificationForm('/edit-notification', `?nodeid=${N}`, null)!, M)).toBe(`/notification-details?nodeid=${N}`);
  });

  it('edit hands the details back where they were opened from (machine overview → details → edit → save or cancel)', () => {
    const state = { pageType: 'edit', from: 'notification', nodeid: N, notificationOrigin: { from: 'overview', equipmentNodeId: M } };
    const target = resolveNotificationForm('/edit-notification', `?nodeid=${N}`, state)!;
    expect(target.origin).toEqual({ from: 'overview', equipmentNodeId: M });
    expect(notificationFormReturnState(target)).toEqual({ from: 'overview', equipmentNodeId: M });
    // Opened without one (by its address, or from details opened by their address): the details use what they remembered.
    expect(notificationFormReturnState(resolveNotificationForm('/edit-notification', `?nodeid=${N}`, { pageType: 'edit', from: 'notification' })!)).toBeUndefined();
    expect(notificationFormReturnState(resolveNotificationForm('/edit-notification', `?nodeid=${N}`, { notificationOrigin: { from: 42 } })!)).toBeUndefined();
    // An add from the machine goes back to the machine, with no details state.
    expect(notificationFormReturnState(resolveNotificationForm('/create-notification', `?equipmentnodeid=${M}`, { from: 'machine', notificationOrigin: { from: 'overview' } })!)).toBeUndefined();
  });

  it("a new notification's details lead back where the form was opened from: the machine's overview, the planning board", () => {
    const fromMachine = resolveNotificationForm('/create-notification', `?equipmentnodeid=${M}`, { pageType: 'add', from: 'machine', equip: M })!;
    // The machine it was saved for (the form may have changed it), on the overview tab that lists it.
    expect(savedNotificationState(fromMachine, M)).toEqual({ from: 'overview', equipmentNodeId: M });
    expect(savedNotificationState(fromMachine, N)).toEqual({ from: 'overview', equipmentNodeId: N });
    expect(savedNotificationState(resolveNotificationForm('/create-notification', '', { from: 'aufgabe' })!, M)).toEqual({ from: 'aufgabe', equipmentNodeId: null });
    // From the dashboard: the details' default, the notifications dashboard.
    expect(savedNotificationState(resolveNotificationForm('/create-notification', '', { from: 'dashboard' })!, M)).toBeUndefined();
    // An edit goes back to the details with the origin they were opened from, as before.
    const edit = resolveNotificationForm('/edit-notification', `?nodeid=${N}`, { from: 'notification', notificationOrigin: { from: 'history', equipmentNodeId: M } })!;
    expect(savedNotificationState(edit, M)).toEqual({ from: 'history', equipmentNodeId: M });
  });
});

describe('dates and times', () => {
  it.each([
    ['05.03.2026', [2026, 2, 5]],
    ['5.3.2026', [2026, 2, 5]],
    ['29.02.2028', [2028, 1, 29]],
    // The app's typed-day rule, as in the history and dashboard filters: the ISO form too.
    ['2026-03-05', [2026, 2, 5]],
  ])('%s is a date', (text, [year, month, day]) => {
    expect(parseDateInput(text)).toEqual(new Date(year!, month!, day!));
  });

  // A two-digit year is not guessed at (docs/decisions.md, machine history): while "05.03.2026" is typed, "05.03.20"
  // would otherwise be a day of 2020 for a moment.
  it.each(['31.02.2026', '05.03.26', '05.03.226', '05.03.', '', 'heute'])('%j is no date', (text) => {
    expect(parseDateInput(text)).toBeNull();
  });

  it.each([
    ['14:33', '14:30'],
    ['14:35', '14:35'],
    ['00:04', '00:00'],
    ['23:59', '23:55'],
    ['25:00', '25:00'],
  ])('%s on the 5-minute step is %s', (time, snapped) => {
    expect(snapTime(time)).toBe(snapped);
  });

  it('now: today’s date and the time rounded down to 5 minutes; both together as local epoch ms', () => {
    const fields = nowFields(new Date(2026, 10, 25, 9, 43, 12));
    expect(fields).toEqual({ date: '25.11.2026', time: '09:40' });
    expect(dateTimeOf(fields.date, fields.time)).toBe(new Date(2026, 10, 25, 9, 40).getTime());
    expect(dateTimeOf('25.11.2026', '9:40')).toBeNull();
    expect(dueUntilOf('')).toBeNull();
    expect(dueUntilOf('01.12.2026')).toBe(new Date(2026, 11, 1).getTime());
    // Editing: a due time set elsewhere with a time of day stays while the field shows its day (found: every save
    // of the form rewrote it to midnight, and so undid a colleague's new due date).
    const filled = new Date(2026, 11, 15, 8).getTime();
    expect(dueUntilOf('15.12.2026', filled)).toBe(filled);
    expect(dueUntilOf('15.12.2026 ', filled)).toBe(filled);
    expect(dueUntilOf('5.1.2027', new Date(2027, 0, 5, 9).getTime())).toBe(new Date(2027, 0, 5, 9).getTime());
    expect(dueUntilOf('16.12.2026', filled)).toBe(new Date(2026, 11, 16).getTime());
    expect(dueUntilOf('', filled)).toBeNull();
    // A colleague's new due date taken over ("Übernehmen") keeps its time too: the record's value now is the second.
    const theirs = new Date(2026, 11, 18, 14, 30).getTime();
    expect(dueUntilOf('18.12.2026', filled, theirs)).toBe(theirs);
    expect(dueUntilOf('15.12.2026', filled, theirs)).toBe(filled);
    expect(dueUntilOf('19.12.2026', filled, theirs)).toBe(new Date(2026, 11, 19).getTime());
  });
});

describe('validation', () => {
  const valid: NotificationDraftValues = { type: 0, title: 'Spindel blockiert', description: '', errorcode: '', equipmentnodeid: M, date: '25.11.2026', time: '09:40', dueDate: '', files: [] };

  it('a complete form has no errors', () => {
    expect(validateNotificationForm(valid, true)).toEqual({});
  });

  it('type, title and machine are required; types 4 and 5 are not offered', () => {
    expect(validateNotificationForm({ ...valid, type: null, title: '  ', equipmentnodeid: null }, true)).toEqual({ type: 'required', title: 'required', equipmentnodeid: 'required' });
    expect(validateNotificationForm({ ...valid, type: 4 }, true)).toEqual({ type: 'typeNotUsable' });
  });

  it.each([
    [{ date: '' }, { date: 'required' }],
    // The right form but no calendar day says so (a walkthrough read "Datum als TT.MM.JJJJ eingeben" for 31.02.).
    [{ date: '31.02.2026' }, { date: 'noSuchDate' }],
    [{ date: '03.02.' }, { date: 'invalidDate' }],
    [{ time: '9' }, { time: 'invalidTime' }],
    [{ time: '09:42' }, { time: 'timeStep' }],
    [{ dueDate: '24.11.2026' }, { dueDate: 'dueBeforeDate' }],
    [{ dueDate: '25.11.2026' }, {}],
    [{ dueDate: '32.11.2026' }, { dueDate: 'noSuchDate' }],
    [{ dueDate: 'morgen' }, { dueDate: 'invalidDate' }],
  ])('%j → %j', (change, errors) => {
    expect(validateNotificationForm({ ...valid, ...change }, true)).toEqual(errors);
  });

  it('a report dated ahead of now is refused at the field, one time step of slack (found: the server silently set it to its own now)', () => {
    const now = new Date(2026, 10, 25, 9, 40).getTime();
    expect(validateNotificationForm({ ...valid, date: '26.11.2026' }, true, now)).toEqual({ date: 'inFuture' });
    expect(validateNotificationForm({ ...valid, time: '09:50' }, true, now)).toEqual({ date: 'inFuture' });
    expect(validateNotificationForm({ ...valid, time: '09:45' }, true, now)).toEqual({});
    expect(validateNotificationForm({ ...valid, date: '24.11.2026' }, true, now)).toEqual({});
  });

  it('a report dated before 2000 (a mistyped year) is refused at the field: the server would take it as a clock never set', () => {
    const now = new Date(2026, 10, 25, 9, 40).getTime();
    // A year of three or four digits before 1900 is no year the typed-day rule reads at all.
    expect(validateNotificationForm({ ...valid, date: '12.03.0224' }, true, now)).toEqual({ date: 'invalidDate' });
    expect(validateNotificationForm({ ...valid, date: '12.03.1924' }, true, now)).toEqual({ date: 'tooEarly' });
    expect(validateNotificationForm({ ...valid, date: '31.12.1999' }, true, now)).toEqual({ date: 'tooEarly' });
    expect(validateNotificationForm({ ...valid, date: '01.01.2000', dueDate: '' }, true, now)).toEqual({});
  });

  it('in edit mode the report’s date and time are not validated (they are not edited)', () => {
    expect(validateNotificationForm({ ...valid, time: '09:42' }, false)).toEqual({});
  });

});

describe('the draft kept while a suggestion is open', () => {
  const values: NotificationDraftValues = { type: 0, title: 'Spindel', description: '', errorcode: '', equipmentnodeid: M, date: '25.11.2026', time: '09:40', dueDate: '', files: [] };

  it('comes back only when parked (a suggestion opened, the session ended), only into the same form and only to the same user', () => {
    const store = notificationDraftStore.getState();
    store.keep(`add:${M}`, 'user-1', values);
    expect(takeNotificationDraft(`add:${M}`, 'user-1')).toBeNull();
    store.park();
    expect(takeNotificationDraft(`add:${M}`, 'user-1')).toEqual(values);
    expect(takeNotificationDraft(`edit:${N}`, 'user-1')).toBeNull();
    // Another user signing in on the tablet after the session ended does not get the first one's text.
    expect(takeNotificationDraft(`add:${M}`, 'user-2')).toBeNull();
    store.clear();
    expect(takeNotificationDraft(`add:${M}`, 'user-1')).toBeNull();
  });

  it('keeps the notification an edit form was filled from, so a save after a sync still sends only what was typed', () => {
    const store = notificationDraftStore.getState();
    const filledFrom = { nodeid: N, type: 0, status: 0, title: 'Spindel', description: 'vorher', errorcode: null, equipmentnodeid: M, created: 1, dueuntil: null };
    store.keep(`edit:${N}`, 'user-1', values, filledFrom);
    expect(takeNotificationDraftBase(`edit:${N}`, 'user-1')).toBeNull();
    store.park();
    expect(takeNotificationDraftBase(`edit:${N}`, 'user-1')).toEqual(filledFrom);
    expect(takeNotificationDraftBase(`edit:${N}`, 'user-2')).toBeNull();
    store.clear();
  });
});
