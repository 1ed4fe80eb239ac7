import { clampDeviceTime } from './device-time';

/**
 * Notification types and statuses of spec part 1 §4.1/§4.2. The numbers are what the API, the database and the
 * device mirror store; labels and colours belong to the UI.
 */
export const NOTIFICATION_TYPES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** Named codes, so code reads `NOTIFICATION_TYPE.plannedMaintenance` rather than a bare 6. */
export const NOTIFICATION_TYPE = {
  downtimeDefect: 0,
  anomaly: 1,
  note: 2,
  task: 3,
  internalMessage: 4,
  manufacturerMessage: 5,
  plannedMaintenance: 6,
  reactiveMaintenance: 7,
  repair: 8,
  improvement: 9,
  downtimeWear: 10,
  downtimeOperatingError: 11,
  malfunctionWithoutDowntime: 12,
} as const satisfies Record<string, NotificationType>;

/** Types 4 and 5 exist in the numbering but are "not used": nobody can create them. */
export const UNUSED_NOTIFICATION_TYPES = [NOTIFICATION_TYPE.internalMessage, NOTIFICATION_TYPE.manufacturerMessage] as const;

export const NOTIFICATION_STATUSES = [0, 1, 2] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

export const NOTIFICATION_STATUS = { open: 0, inProgress: 1, closed: 2 } as const satisfies Record<string, NotificationStatus>;

export function isNotificationType(value: unknown): value is NotificationType {
  return typeof value === 'number' && (NOTIFICATION_TYPES as readonly number[]).includes(value);
}

/** A type a user may pick when creating or editing a notification. */
export function isUsableNotificationType(value: unknown): value is NotificationType {
  return isNotificationType(value) && !(UNUSED_NOTIFICATION_TYPES as readonly number[]).includes(value);
}

export function isNotificationStatus(value: unknown): value is NotificationStatus {
  return typeof value === 'number' && (NOTIFICATION_STATUSES as readonly number[]).includes(value);
}

/** "Status below 2 counts as open" (part 1 §4.2). */
export function isOpenStatus(status: NotificationStatus): boolean {
  return status < NOTIFICATION_STATUS.closed;
}

// ---------------------------------------------------------------- type colours and labels (§4.1)

/**
 * Colour keys of the type badges. Where the spec gives two readings (7 blue or yellow, 12 orange or red) we
 * take the first one of the table; type 6 takes its task category's `colorcode` when the caller has one.
 */
export const NOTIFICATION_COLOURS = ['red', 'amber', 'grey', 'blue', 'purple', 'green', 'orange', 'black'] as const;
export type NotificationColour = (typeof NOTIFICATION_COLOURS)[number];

const TYPE_COLOURS: Record<NotificationType, NotificationColour> = {
  0: 'red',
  1: 'amber',
  2: 'grey',
  3: 'grey',
  4: 'grey',
  5: 'grey',
  6: 'blue',
  7: 'blue',
  8: 'purple',
  9: 'green',
  10: 'red',
  11: 'red',
  12: 'orange',
};

/** i18n key of a type's label; the German texts live in the client's i18n files. */
export const UNKNOWN_NOTIFICATION_TYPE_LABEL_KEY = 'notification.type.unknown';
/** The spec's fixed text for an unknown type (§4.1, §8), shown in black. */
export const UNKNOWN_NOTIFICATION_TYPE_TEXT = 'Unbekannter Typ';

export interface NotificationTypeStyle {
  colour: NotificationColour;
  /** Overrides `colour` for planned maintenance with a category colour (`#RRGGBB`). */
  colorcode?: string;
  labelKey: string;
  known: boolean;
}

/**
 * Badge colour and label key of a notification type. Anything outside 0–12 (an old device, a bad row) is
 * 'Unbekannter Typ' in black instead of a crash.
 */
export function notificationTypeStyle(type: unknown, categoryColorcode?: string | null): NotificationTypeStyle {
  if (!isNotificationType(type)) return { colour: 'black', labelKey: UNKNOWN_NOTIFICATION_TYPE_LABEL_KEY, known: false };
  const style: NotificationTypeStyle = { colour: TYPE_COLOURS[type], labelKey: `notification.type.${type}`, known: true };
  if (type === NOTIFICATION_TYPE.plannedMaintenance && categoryColorcode && /^#[0-9A-Fa-f]{6}$/.test(categoryColorcode)) {
    style.colorcode = categoryColorcode;
  }
  return style;
}

// ---------------------------------------------------------------- status transitions (§4.2)

/**
 * What a status change does to the two timestamps, in epoch ms as the API writes them: a number sets the
 * field, 0 resets it ("0 when not closed"), a missing key leaves it alone.
 */
export interface StatusTimestampChanges {
  progressstarted?: number;
  closed?: number;
}

/**
 * §4.2 as one function: 0→1 starts progress, 0→2 starts and closes, 1→2 closes, 1→0 resets progress, 2→1
 * reopens, 2→0 resets both. The same status again changes nothing. The server calls it with ITS current
 * status (never the one the device saw), inside the write's transaction.
 */
export function applyStatusTransition(current: NotificationStatus, next: NotificationStatus, nowMs: number): StatusTimestampChanges {
  const key = `${current}->${next}` as const;
  switch (key) {
    case '0->1':
      return { progressstarted: nowMs };
    case '0->2':
      return { progressstarted: nowMs, closed: nowMs };
    case '1->2':
      return { closed: nowMs };
    case '1->0':
      return { progressstarted: 0 };
    case '2->1':
      return { closed: 0 };
    case '2->0':
      return { progressstarted: 0, closed: 0 };
    case '0->0':
    case '1->1':
    case '2->2':
      return {};
  }
}

/** A notification's status and times as its row holds them (null = unset). */
export interface NotificationStatusRow {
  status: NotificationStatus;
  created: number;
  progressstarted: number | null;
  closed: number | null;
}

/** What a status change writes into the row. */
export type NotificationStatusFields = Partial<Pick<NotificationStatusRow, 'status' | 'progressstarted' | 'closed'>>;

/**
 * Whether a status change was made against a status the server no longer has and would take the notification
 * back: the device saw `previous`, another device has since moved it on to `current`, and `next` is behind that
 * (a stale "In Bearbeitung" reopening a notification a colleague closed meanwhile, or a stale reset). The first
 * transition wins, so such a change is refused (409, the device shows it with the sync panel's refusals). A change
 * that still moves forward from the server's status (closing what a colleague started) goes through, and one the
 * server already has changes nothing.
 */
export function isStaleStatusChange(current: NotificationStatus, previous: NotificationStatus | undefined, next: NotificationStatus): boolean {
  return previous !== undefined && previous !== current && next < current;
}

/**
 * The one status rule the device and the server both apply (§4.2 with the sync contract's conflict rule):
 * the transition from `current.status` — on the server ITS status, whatever the device saw — to `next`. A time
 * the transition sets is the device's own one when it sent it (a status changed offline happened when the
 * technician changed it), clamped to [created, now]; otherwise `now`. Resets are null. The same status again
 * changes nothing.
 */
export function notificationStatusChange(
  current: NotificationStatusRow,
  next: NotificationStatus,
  now: number,
  device: { progressstarted?: number | null | undefined; closed?: number | null | undefined } = {},
): NotificationStatusFields {
  if (next === current.status) return {};
  const changes = applyStatusTransition(current.status, next, now);
  const stamp = (set: number | undefined, sent: number | null | undefined): number | null | undefined => {
    if (set === undefined) return undefined;
    if (set === 0) return null;
    return clampDeviceTime(sent ? sent : undefined, current.created, now);
  };
  const fields: NotificationStatusFields = { status: next };
  const progressstarted = stamp(changes.progressstarted, device.progressstarted);
  const closed = stamp(changes.closed, device.closed);
  if (progressstarted !== undefined) fields.progressstarted = progressstarted;
  if (closed !== undefined) fields.closed = closed;
  // why: clamping each on its own could put "closed" before "progress started" — when only one was sent, or when
  // closing what was started earlier with a device time before that start.
  const started = fields.progressstarted !== undefined ? fields.progressstarted : current.progressstarted;
  if (started && fields.closed && fields.closed < started) fields.closed = started;
  return fields;
}

// ---------------------------------------------------------------- elapsed time (§4.2, §9)

/** Under 48 hours elapsed time shows in hours, from then on in days. */
export const ELAPSED_DAYS_FROM_MS = 172_800_000;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface ElapsedDisplay {
  /**
   * `now` under a minute ("gerade eben"), `minutes` under an hour: "0 Stunden" for a report made moments ago read
   * as nothing having happened. From one hour on the spec's rule holds (hours under 48 h, else days).
   */
  unit: 'now' | 'minutes' | 'hours' | 'days';
  /** Whole units, rounded down; never negative (a device clock ahead of `from` shows `now`). */
  value: number;
}

/** "Open notifications show elapsed unresolved time: hours, or days when 48 hours or more." Below an hour: minutes. */
export function elapsedDisplay(elapsedMs: number): ElapsedDisplay {
  const ms = Math.max(0, elapsedMs);
  if (ms < MINUTE_MS) return { unit: 'now', value: 0 };
  if (ms < HOUR_MS) return { unit: 'minutes', value: Math.floor(ms / MINUTE_MS) };
  return ms < ELAPSED_DAYS_FROM_MS ? { unit: 'hours', value: Math.floor(ms / HOUR_MS) } : { unit: 'days', value: Math.floor(ms / DAY_MS) };
}

// ---------------------------------------------------------------- reporting and display (§2.2, §4.2, §9)

/** The types a user picks from when reporting (0–12 without the unused 4 and 5), in the spec's order. */
export const REPORTABLE_NOTIFICATION_TYPES: readonly NotificationType[] = NOTIFICATION_TYPES.filter((type) => isUsableNotificationType(type));

/** §9: "notification header title 50" characters. */
export const NOTIFICATION_HEADER_TITLE_MAX = 50;

export interface NotificationTimes {
  status: number;
  created: number | null;
  progressstarted: number | null;
  closed: number | null;
}

/**
 * The status line of §4.2: "opened with creation info, in progress since a date, or closed on a date". A status
 * whose timestamp is missing (an old row) falls back to the creation time.
 */
export function notificationStatusLine(n: NotificationTimes): { kind: 'opened' | 'inProgress' | 'closed'; at: number | null } {
  if (n.status === NOTIFICATION_STATUS.closed) return { kind: 'closed', at: n.closed ?? n.created };
  if (n.status === NOTIFICATION_STATUS.inProgress) return { kind: 'inProgress', at: n.progressstarted ?? n.created };
  return { kind: 'opened', at: n.created };
}

/**
 * How long a notification took or has been open: for a closed one from progress start (or creation) to closing
 * (§4.2 1→2 "Time for this notification"), for an open one from creation to `now` (elapsed unresolved time).
 */
export function notificationElapsed(n: NotificationTimes, now: number): ElapsedDisplay | null {
  if (n.status === NOTIFICATION_STATUS.closed) {
    const from = n.progressstarted ?? n.created;
    return n.closed !== null && from !== null ? elapsedDisplay(n.closed - from) : null;
  }
  return n.created !== null ? elapsedDisplay(now - n.created) : null;
}

// ---------------------------------------------------------------- badge text (§4.1, §8)

/** §8: a badge asked for without any type code at all (null/undefined). */
export const UNDEFINED_BADGE_TYPECODE_TEXT = 'Undefined badge typecode.';
/** §8: the log line of a type code outside 0–12. */
export const NO_TYPE_CODE_LOG = 'No type code defined!';

export type NotificationBadgeText =
  | { kind: 'known'; labelKey: string }
  | { kind: 'unknown'; text: typeof UNKNOWN_NOTIFICATION_TYPE_TEXT; log: typeof NO_TYPE_CODE_LOG }
  | { kind: 'undefined'; text: typeof UNDEFINED_BADGE_TYPECODE_TEXT };

/**
 * What a type badge says (§4.1, §8): a known type its label key; a code that is there but not 0–12 (a number of a
 * newer server, a bad row) 'Unbekannter Typ' in black and the log line 'No type code defined!'; no code at all
 * 'Undefined badge typecode.'. The fixed texts are the spec's and stay in every language.
 */
export function notificationBadgeText(type: unknown): NotificationBadgeText {
  if (type === undefined || type === null) return { kind: 'undefined', text: UNDEFINED_BADGE_TYPECODE_TEXT };
  if (!isNotificationType(type)) return { kind: 'unknown', text: UNKNOWN_NOTIFICATION_TYPE_TEXT, log: NO_TYPE_CODE_LOG };
  return { kind: 'known', labelKey: notificationTypeStyle(type).labelKey };
}

// ---------------------------------------------------------------- details screen (§2.2, §4.2)

/** §9: the details screen returns to the origin this long after a delete. */
export const NOTIFICATION_DELETE_REDIRECT_MS = 3_000;
/** §9: attachment previews shown before "n weitere anzeigen". */
export const ATTACHMENT_PREVIEW_COUNT = 3;

/** Where the details screen was opened from (navigation state `from`, §2.2, §4.2). */
export type NotificationOrigin = 'history' | 'overview' | 'maintenance' | 'aufgabe' | 'maintenance-dashboard' | 'notifications-dashboard';

/**
 * The back link and the after-delete target of §2.2/§4.2: the machine's history (tab 1), overview (tab 0) or
 * maintenance (tab 4) tab, the planning view, the maintenance dashboard, else the notifications dashboard. A
 * machine tab needs the machine; without one it is the notifications dashboard too.
 */
export function notificationOriginPath(from: unknown, equipmentnodeid: string | null | undefined): string {
  const machineTab: Record<string, number> = { history: 1, overview: 0, maintenance: 4 };
  if (typeof from === 'string' && from in machineTab && equipmentnodeid) return `/machine-overview?nodeid=${equipmentnodeid}&tab=${machineTab[from]}`;
  if (from === 'aufgabe') return '/aufgabeplanung';
  if (from === 'maintenance-dashboard') return '/maintenance-dashboard';
  return '/notifications-dashboard';
}

/** §2.2: the remembered notification stays when leaving towards one of these screens (report, details, edit). */
export const NOTIFICATION_KEEP_STATE_PATHS = ['/create-report', '/edit-report', '/notification-details', '/edit-notification', '/create-workflow-step', '/edit-workflow-step'] as const;

export function keepsNotificationState(pathname: string): boolean {
  return (NOTIFICATION_KEEP_STATE_PATHS as readonly string[]).includes(pathname);
}

/**
 * Whether the header shows "Fällig bis" (§2.2 "status or due date"): while the notification is not closed and has a
 * due date. It is shown beside the status line, not instead of it: a job in progress is still due, and hiding its
 * date the moment work starts (as the header did before) left the technician without it (docs/client.md).
 */
export function showsDueDate(status: number, dueuntil: number | null | undefined): boolean {
  return status !== NOTIFICATION_STATUS.closed && typeof dueuntil === 'number' && dueuntil > 0;
}
