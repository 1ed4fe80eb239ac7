import { z } from 'zod';
import { NOTIFICATION_STATUSES } from '../domain/notification';
import { epochMs, nodeidField, nullableTime, tenantRow } from './row';

/** A notification (Meldung) as the feed sends it and the mirror stores it. */
export const notificationRowSchema = tenantRow({
  type: z.number().int(),
  status: z.literal(NOTIFICATION_STATUSES),
  title: z.string(),
  description: z.string().nullable(),
  created: epochMs,
  progressstarted: nullableTime,
  closed: nullableTime,
  dueuntil: nullableTime,
  errorcode: z.string().nullable(),
  equipmentnodeid: nodeidField,
  authornodeid: nodeidField.nullable(),
  maintenancetasknodeid: nodeidField.nullable(),
});
export type NotificationRow = z.infer<typeof notificationRowSchema>;

/** Which users a notification is assigned to (planning board). */
export const notificationAssignmentRowSchema = tenantRow({
  notificationnodeid: nodeidField,
  usernodeid: nodeidField,
  assignedbynodeid: nodeidField.nullable(),
});
