/**
 * The notification form's rules without React: which form the route and its navigation state ask for, where
 * back/cancel lead, the DD.MM.YYYY + HH:mm fields as epoch ms (5-minute step, spec part 1 §9), and validation
 * (title, type and machine required; due date not before the date of the report). The uploader rules are shared:
 * src/client/lib/attachment-files.ts.
 */
import { EARLIEST_DEVICE_TIME_MS } from '../../../shared/domain/device-time';
import { isUsableNotificationType } from '../../../shared/domain/notification';
import { parseTypedDay } from '../../../shared/domain/typed-day';
import { carriedOrigin, detailsStateOf, type NotificationOrigin } from '../../lib/notification-origin';
import type { NotificationDraftValues } from '../../stores/notification-draft-store';

export type NotificationFormOrigin = 'machine' | 'notification' | 'aufgabe' | 'dashboard';

export interface NotificationFormTarget {
  mode: 'add' | 'edit';
  from: NotificationFormOrigin;
  /** The notification edited (edit mode). */
  notificationnodeid: string | null;
  /** A machine preset by the machine overview or the board (add mode). */
  equipmentnodeid: string | null;
  /** Date and time preset by the caller (DD.MM.YYYY, HH:mm), e.g. a slot on the board. */
  date: string | null;
  time: string | null;
  /**
   * Edit: where the details screen it was opened from had been opened from (state `notificationOrigin`,
   * lib/notification-origin.ts), handed back to the details on save and cancel so their back link still leads there.
   */
  origin: NotificationOrigin | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuidOrNull = (value: unknown): string | null => (typeof value === 'string' && UUID.test(value) ? value : null);
const stringOrNull = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const ORIGINS: readonly NotificationFormOrigin[] = ['machine', 'notification', 'aufgabe', 'dashboard'];

/** A nodeid from a state field that is either the id or a record carrying `nodeid` (the spec's `equip`, `notification`). */
function nodeidOf(value: unknown): string | null {
  if (value && typeof value === 'object' && 'nodeid' in value) return uuidOrNull((value as { nodeid: unknown }).nodeid);
  return uuidOrNull(value);
}

/**
 * The route decides add or edit (/edit-notification needs a notification); state `pageType` agrees or is absent.
 * The notification comes from `?nodeid=` (what the details screen links with) or state `notification`; a machine
 * from `?equipmentnodeid=` or state `equip`. Null: /edit-notification without a notification.
 */
export function resolveNotificationForm(pathname: string, search: string, state: unknown): NotificationFormTarget | null {
  const query = new URLSearchParams(search);
  const record = state && typeof state === 'object' ? (state as Record<string, unknown>) : {};
  const edit = pathname.startsWith('/edit-notification');
  const notificationnodeid = uuidOrNull(query.get('nodeid')) ?? nodeidOf(record.notification) ?? uuidOrNull(record.nodeid);
  if (edit && !notificationnodeid) return null;
  const from = ORIGINS.includes(record.from as NotificationFormOrigin) ? (record.from as NotificationFormOrigin) : edit ? 'notification' : 'dashboard';
  return {
    mode: edit ? 'edit' : 'add',
    from,
    notificationnodeid: edit ? notificationnodeid : null,
    equipmentnodeid: uuidOrNull(query.get('equipmentnodeid')) ?? nodeidOf(record.equip) ?? uuidOrNull(record.equipmentnodeid),
    date: stringOrNull(record.date),
    time: stringOrNull(record.time),
    origin: carriedOrigin(state),
  };
}

/** Where cancel and back lead: the screen the form was opened from. */
export function notificationFormReturnPath(target: NotificationFormTarget, equipmentnodeid: string | null): string {
  if (target.mode === 'edit' || target.from === 'notification') return target.notificationnodeid ? `/notification-details?nodeid=${target.notificationnodeid}` : '/dashboard';
  if (target.from === 'machine' && equipmentnodeid) return `/machine-overview?nodeid=${equipmentnodeid}`;
  if (target.from === 'aufgabe') return '/aufgabeplanung';
  return '/dashboard';
}

/**
 * The navigation state for the way back (`notificationFormReturnPath`): to the details, the origin the form was
 * given (their back link leads there again, not to the notifications dashboard); else none.
 */
export function notificationFormReturnState(target: NotificationFormTarget): { from: string; equipmentNodeId: string | null } | undefined {
  if (!(target.mode === 'edit' || target.from === 'notification') || !target.notificationnodeid) return undefined;
  return detailsStateOf(target.origin);
}

/**
 * The details' navigation state after a save. An edit's is notificationFormReturnState's. A new notification's back
 * link leads where the form's own led: the machine it was saved for, on the overview tab that lists it, or the
 * planning board; from anywhere else the details' default, the notifications dashboard. (A probe: "Meldung mit
 * Details" on a machine, saved, showed "Zu den Meldungen" on the new notification.)
 */
export function savedNotificationState(target: NotificationFormTarget, equipmentnodeid: string | null): { from: string; equipmentNodeId: string | null } | undefined {
  if (target.mode === 'edit' || target.from === 'notification') return notificationFormReturnState(target);
  if (target.from === 'machine' && equipmentnodeid) return detailsStateOf({ from: 'overview', equipmentNodeId: equipmentnodeid });
  if (target.from === 'aufgabe') return detailsStateOf({ from: 'aufgabe', equipmentNodeId: null });
  return undefined;
}

/** The key the kept draft is filed under, so a draft is only restored into the form it was typed in. */
export function draftKey(target: NotificationFormTarget): string {
  return target.mode === 'edit' ? `edit:${target.notificationnodeid}` : `add:${target.equipmentnodeid ?? ''}`;
}

// ---------------------------------------------------------------- dates and times

/** Spec part 1 §9: the time input's step is 300 seconds. */
export const TIME_STEP_MINUTES = 5;
const TIME_INPUT = /^([01]\d|2[0-3]):([0-5]\d)$/;
const pad = (value: number) => String(value).padStart(2, '0');

/**
 * '05.03.2026' (also '5.3.2026', '2026-03-05': the app's typed-day rule, parseTypedDay, as in the history and
 * dashboard filters) → a local midnight, or null for anything that is no calendar date (31.02., letters, '05.03.26').
 */
export function parseDateInput(text: string): Date | null {
  const typed = parseTypedDay(text);
  return typed.kind === 'date' ? new Date(typed.year, typed.month - 1, typed.day) : null;
}

/** Why a typed date is none: empty is the caller's case; 'noSuchDate' for the right form but no calendar day (31.02.). */
function dateError(text: string): 'invalidDate' | 'noSuchDate' {
  const typed = parseTypedDay(text);
  return typed.kind === 'invalid' && typed.reason === 'noSuchDay' ? 'noSuchDate' : 'invalidDate';
}

export function formatDateInput(date: Date): string {
  return `${pad(date.getDate())}.${pad(date.getMonth() + 1)}.${date.getFullYear()}`;
}

/** An HH:mm rounded down to the 5-minute step ('14:33' → '14:30'); anything else unchanged. */
export function snapTime(time: string): string {
  const match = TIME_INPUT.exec(time);
  if (!match) return time;
  const minutes = Number(match[2]) - (Number(match[2]) % TIME_STEP_MINUTES);
  return `${match[1]}:${pad(minutes)}`;
}

/** Now as the form's default date and time, the time rounded down to the 5-minute step. */
export function nowFields(now: Date): { date: string; time: string } {
  return { date: formatDateInput(now), time: snapTime(`${pad(now.getHours())}:${pad(now.getMinutes())}`) };
}

/** The date and time fields as epoch ms (local time), or null when either is invalid. */
export function dateTimeOf(date: string, time: string): number | null {
  const day = parseDateInput(date);
  const match = TIME_INPUT.exec(time.trim());
  if (!day || !match) return null;
  day.setHours(Number(match[1]), Number(match[2]), 0, 0);
  return day.getTime();
}

export function fieldsOfTime(epochMs: number): { date: string; time: string } {
  const date = new Date(epochMs);
  return { date: formatDateInput(date), time: `${pad(date.getHours())}:${pad(date.getMinutes())}` };
}

// ---------------------------------------------------------------- validation

export type NotificationFormError = 'required' | 'typeNotUsable' | 'invalidDate' | 'noSuchDate' | 'invalidTime' | 'timeStep' | 'dueBeforeDate' | 'inFuture' | 'tooEarly';
export type NotificationFormErrors = Partial<Record<'type' | 'title' | 'equipmentnodeid' | 'date' | 'time' | 'dueDate', NotificationFormError>>;

/** What keeps the form from saving; `withDate` false in edit mode (the time of a report is not edited). */
export function validateNotificationForm(values: NotificationDraftValues, withDate: boolean, now: number = Date.now()): NotificationFormErrors {
  const errors: NotificationFormErrors = {};
  if (values.type === null) errors.type = 'required';
  else if (!isUsableNotificationType(values.type)) errors.type = 'typeNotUsable';
  if (values.title.trim() === '') errors.title = 'required';
  if (!values.equipmentnodeid) errors.equipmentnodeid = 'required';
  const date = parseDateInput(values.date);
  if (withDate) {
    if (!date) errors.date = values.date.trim() === '' ? 'required' : dateError(values.date);
    const time = TIME_INPUT.exec(values.time.trim());
    if (!time) errors.time = values.time.trim() === '' ? 'required' : 'invalidTime';
    else if (Number(time[2]) % TIME_STEP_MINUTES !== 0) errors.time = 'timeStep';
    // A fault is reported when it happened, not ahead of time: the server would set a later time to its own now
    // (clampDeviceTime), silently. One time step of slack: the field's time is now rounded to the step.
    const at = dateTimeOf(values.date, values.time);
    if (!errors.date && !errors.time && at !== null && at > now + TIME_STEP_MINUTES * 60_000) errors.date = 'inFuture';
    // A year mistyped into the past (0224 for 2024) would be taken by the server as a clock never set: its own now.
    else if (!errors.date && date && date.getTime() < EARLIEST_DEVICE_TIME_MS) errors.date = 'tooEarly';
  }
  if (values.dueDate.trim() !== '') {
    const due = parseDateInput(values.dueDate);
    if (!due) errors.dueDate = dateError(values.dueDate);
    else if (date && due.getTime() < date.getTime()) errors.dueDate = 'dueBeforeDate';
  }
  return errors;
}

/**
 * The due date field as epoch ms (local midnight of the day), null for none. `stored`: due times the record has
 * held (editing: the one the form was filled with, then the record's now, which a colleague's change taken over
 * shows) — while the field shows the day of one of them, that one is kept as it is, so a due time set elsewhere
 * with a time of day (the web desk, an import, another time zone) is not rewritten to midnight by an edit of the
 * description, which would also overwrite a colleague's new due date (a found bug: every save sent it).
 */
export function dueUntilOf(dueDate: string, ...stored: (number | null | undefined)[]): number | null {
  if (dueDate.trim() === '') return null;
  const day = parseDateInput(dueDate);
  if (!day) return null;
  const onDay = (time: number | null | undefined): time is number => {
    if (typeof time !== 'number') return false;
    const at = new Date(time);
    return at.getFullYear() === day.getFullYear() && at.getMonth() === day.getMonth() && at.getDate() === day.getDate();
  };
  return stored.find(onDay) ?? day.getTime();
}
