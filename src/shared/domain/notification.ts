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
