import { createNotificationSchema, deleteNotificationSchema, updateNotificationSchema } from '../api/notifications';
import { deviceCreationTime } from '../domain/device-time';
import { notificationStatusChange, type NotificationStatus } from '../domain/notification';
import type { NotificationRow } from '../rows/notifications';
import { defineCreate, defineDelete, defineUpdate, nodeidParams, sentFields, type SyncRow } from './mutation';

/** Notifications (Meldungen), spec part 1 §2.2, §3, §4.2, §7; feature key `notification`. */

/** The status fields of a row (created may be missing on a row of an old device: then 0). */
function statusRow(row: SyncRow | undefined) {
  return {
    status: (row?.status ?? 0) as NotificationStatus,
    created: typeof row?.created === 'number' ? row.created : 0,
    progressstarted: typeof row?.progressstarted === 'number' && row.progressstarted > 0 ? row.progressstarted : null,
    closed: typeof row?.closed === 'number' && row.closed > 0 ? row.closed : null,
  };
}

/**
 * A status change writes status, progressstarted and closed together. Why all three: the fields an entry writes
 * are the ones a pull may not overwrite while it is pending, and a pending status next to the server's times of
 * another status would show, say, "in progress" with a closing time. The same status again changes nothing.
 */
function statusGroup(current: ReturnType<typeof statusRow>, change: Partial<NotificationRow>): Partial<NotificationRow> {
  if (Object.keys(change).length === 0) return {};
  return { status: current.status, progressstarted: current.progressstarted, closed: current.closed, ...change };
}

/**
 * "Störung melden" and the notification form. `created` is the device's time of the report, clamped to now;
 * a status other than 0 is the §4.2 transition from 0 with the device's times.
 */
export const createNotification = defineCreate({
  name: 'createNotification',
  route: '/notifications',
  body: createNotificationSchema,
  permission: { feature: 'notification', flag: 'create' },
  kind: 'notifications',
  machineField: 'equipmentnodeid',
  apply: (_current, { body }, { now, usernodeid }): Omit<NotificationRow, 'nodeid' | 'legalentitynodeid' | 'version'> => {
    const created = deviceCreationTime(body.created, now);
    const status = notificationStatusChange({ status: 0, created, progressstarted: null, closed: null }, body.status ?? 0, now, body);
    return {
      type: body.type,
      status: status.status ?? 0,
      title: body.title,
      description: body.description,
      errorcode: body.errorcode,
      equipmentnodeid: body.equipmentnodeid,
      dueuntil: body.dueuntil || null,
      created,
      progressstarted: status.progressstarted ?? null,
      closed: status.closed ?? null,
      authornodeid: usernodeid,
      maintenancetasknodeid: null,
    };
  },
  describe: {
    subject: (_args, values) => (typeof values.equipmentnodeid === 'string' ? { kind: 'equipment', nodeid: values.equipmentnodeid } : undefined),
    params: ({ body }) => ({ title: body.title }),
  },
});

/**
 * Field edits and status changes (the status-update payload of §3). Only the fields sent change; with
 * `onlyStatusUpdate` the other fields are context and ignored. The status is the §4.2 transition from the
 * row's current status — on the server its own; a change against a status the server has since left that would
 * take the notification back is refused there (`isStaleStatusChange`, 409).
 */
export const updateNotification = defineUpdate({
  name: 'updateNotification',
  aliases: ['updateNotificationStatus'],
  actionOf: ({ body }) => (body.onlyStatusUpdate ? 'updateNotificationStatus' : 'updateNotification'),
  route: '/notifications/:nodeid',
  params: nodeidParams,
  body: updateNotificationSchema,
  permission: { feature: 'notification', flag: 'update' },
  kind: 'notifications',
  apply: (current, { body }, { now }) => {
    const fields: Partial<NotificationRow> = body.onlyStatusUpdate
      ? {}
      : { ...sentFields(body, ['title', 'type', 'description', 'errorcode', 'equipmentnodeid']), ...(body.dueuntil !== undefined && { dueuntil: body.dueuntil || null }) };
    const status = body.status === undefined ? {} : statusGroup(statusRow(current), notificationStatusChange(statusRow(current), body.status, now, body));
    return { ...fields, ...status };
  },
  describe: {
    // why the title from the body first and no subject row: the status-update payload carries the title the device
    // showed, so a change refused because the notification is gone (410) still names it. A field edit sends only
    // what changed: its title is the written row's (the mirror's, with this entry's values).
    subject: () => undefined,
    params: ({ body }, values) => ({ title: body.title ?? (typeof values.title === 'string' ? values.title : null), status: body.status ?? (typeof values.status === 'number' ? values.status : null) }),
  },
});

/** Deletes a notification with everything that exists only through it (the ownership tree on the server). */
export const deleteNotification = defineDelete({
  name: 'deleteNotification',
  route: '/notifications/:nodeid',
  params: nodeidParams,
  body: deleteNotificationSchema,
  permission: { feature: 'notification', flag: 'delete' },
  kind: 'notifications',
});

export const notificationMutations = [createNotification, updateNotification, deleteNotification] as const;

