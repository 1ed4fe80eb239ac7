import { z } from 'zod';
import { notificationSchema } from './notifications';
import { langField } from './fields';

/**
 * POST /api/notifications/equipments, /unassigned, /assigned (spec part 1 §7): the body is `{equipmentnodeids,
 * lang}`, "other parts not shown". The answers are lists of the notification as GET /notifications/{nodeid} gives
 * it, without the per-record counts, newest first:
 * - equipments: every notification of the machines named (all statuses: the machine's history needs the closed);
 * - unassigned: open notifications (status below 2) nobody is assigned to, of the machines named, or of all the
 *   tenant's machines when the list is empty (the planning board's pool);
 * - assigned: open notifications assigned to the caller, likewise.
 * Machines of another tenant are ignored (never a hint they exist).
 */
export const NOTIFICATION_LIST_MAX = 1_000;

export const notificationListRequestSchema = z.object({
  equipmentnodeids: z.array(z.uuid()).max(5_000, 'At most 5000 machines').default([]),
  lang: langField,
});
export type NotificationListRequest = z.output<typeof notificationListRequestSchema>;

export const notificationListItemSchema = notificationSchema.omit({ counts: true, haschatroom: true }).extend({
  /** Users the notification is assigned to (planning board). */
  isassignedto: z.array(z.uuid()),
});
export type NotificationListItem = z.infer<typeof notificationListItemSchema>;
export const notificationListSchema = z.array(notificationListItemSchema);
