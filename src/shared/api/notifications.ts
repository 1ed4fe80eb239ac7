import { z } from 'zod';
import { trimText } from '../domain/text';
import { NOTIFICATION_STATUSES, NOTIFICATION_TYPES, isUsableNotificationType } from '../domain/notification';
import { deleteBodySchema, langField, MAX_EPOCH_MS, MAX_EPOCH_MS_TEXT } from './fields';

/**
 * Notification contracts of spec part 1 §3 and §7 (POST/GET/PUT/DELETE /notifications). One schema per input,
 * shared by the notification form, the status selector, the outbox entry and the routes.
 * Times are epoch milliseconds; "0" means unset for `progressstarted` and `closed`.
 */

const TITLE_MAX = 500;
const TEXT_MAX = 20_000;

/** 31.12.9999: a larger time is no date (past JS's 8.64e15 ms `new Date` is invalid and the write would answer 500). */
const epochMs = z.number().int().nonnegative().max(MAX_EPOCH_MS, MAX_EPOCH_MS_TEXT);

const requiredText = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? 'Required' : 'Must be a text') })
    .overwrite(trimText)
    .min(1, 'Required')
    .max(max, `Must be at most ${max} characters`);

/** Optional free text; empty means none (stored as null). */
const optionalText = (max: number) =>
  z
    .string()
    .overwrite(trimText)
    .max(max, `Must be at most ${max} characters`)
    .nullish()
    .transform((value) => (value ? value : null));

export const notificationTypeSchema = z.literal(NOTIFICATION_TYPES, { error: 'Must be a notification type 0–12' });
export const notificationStatusSchema = z.literal(NOTIFICATION_STATUSES, { error: 'Must be a status 0, 1 or 2' });
/** Types 4 and 5 are "not used": nobody creates them. */
const usableTypeSchema = notificationTypeSchema.refine(isUsableNotificationType, 'Types 4 and 5 are not used');

/**
 * POST /api/notifications. `nodeid` is chosen by the device (UUIDv7) so an offline create needs no id
 * remapping; without one the server makes it. `created` is the device's time of the report (clamped to the
 * server's now); `status` other than 0 applies the §4.2 transition from 0 with the device's timestamps.
 */
export const createNotificationSchema = z.object({
  lang: langField,
  nodeid: z.uuid().optional(),
  type: usableTypeSchema,
  title: requiredText(TITLE_MAX),
  description: optionalText(TEXT_MAX),
  errorcode: optionalText(200),
  equipmentnodeid: z.uuid(),
  dueuntil: epochMs.nullish(),
  status: notificationStatusSchema.optional(),
  created: epochMs.optional(),
  progressstarted: epochMs.optional(),
  closed: epochMs.optional(),
});
export type CreateNotificationInput = z.input<typeof createNotificationSchema>;
export type CreateNotification = z.output<typeof createNotificationSchema>;

/**
 * The detail of the 409 a stale status change gets (`isStaleStatusChange`): the device names this refusal in the
 * user's words (the sync panel) instead of the generic conflict text.
 */
export const STALE_STATUS_DETAIL = { field: 'previousStatus', message: 'The notification has moved on from this status meanwhile' } as const;

/** Whether a refused write's stored error is the stale status change's 409. */
export function isStaleStatusRefusal(error: unknown): boolean {
  const details = typeof error === 'object' && error !== null ? (error as { details?: unknown }).details : undefined;
  return Array.isArray(details) && details.some((detail: unknown) => typeof detail === 'object' && detail !== null && (detail as { field?: unknown }).field === STALE_STATUS_DETAIL.field && (detail as { message?: unknown }).message === STALE_STATUS_DETAIL.message);
}

/**
 * PUT /api/notifications/{nodeid}: the status-update payload of §3 (nodeid, status, previousStatus,
 * onlyStatusUpdate, progressstarted, closed, title, type, description, equipmentnodeid) and ordinary field
 * edits. Only the fields sent change. With `onlyStatusUpdate` the other fields are context and are ignored.
 * `previousStatus` is the status the device saw; the server applies the transition to its own status.
 * `progressstarted`/`closed` are only read for the timestamps the transition sets.
 */
export const updateNotificationSchema = z.object({
  lang: langField,
  nodeid: z.uuid().optional(),
  status: notificationStatusSchema.optional(),
  previousStatus: notificationStatusSchema.optional(),
  onlyStatusUpdate: z.boolean().optional(),
  progressstarted: epochMs.optional(),
  closed: epochMs.optional(),
  title: requiredText(TITLE_MAX).optional(),
  type: notificationTypeSchema.optional(),
  description: optionalText(TEXT_MAX).optional(),
  errorcode: optionalText(200).optional(),
  equipmentnodeid: z.uuid().optional(),
  dueuntil: epochMs.nullish(),
});
export type UpdateNotificationInput = z.input<typeof updateNotificationSchema>;
export type UpdateNotification = z.output<typeof updateNotificationSchema>;

export const notificationParamsSchema = z.object({ nodeid: z.uuid() });

/**
 * GET /api/notifications/{nodeid}/changes: what writes overwrote (the record history, docs/sync.md § Conflicts),
 * newest first — so "nothing is lost" can be checked by a person: who changed which field when, from what to what.
 * `lostStatus`: a status change that changed nothing because another device's transition came first (the status
 * it asked for and the one the device had seen).
 */
export const notificationChangeSchema = z.object({
  version: z.number().int(),
  /** When the server wrote the change. */
  at: z.number().int(),
  /** When the user made it on their device (X-Made-At, sent with every write of the app); null for a write without it. */
  madeAt: z.number().int().nullable(),
  author: z.object({ nodeid: z.uuid(), givenname: z.string(), surname: z.string() }).nullable(),
  changes: z.record(z.string(), z.object({ old: z.unknown(), new: z.unknown() })),
  lostStatus: z.object({ status: z.number().int(), previousStatus: z.number().int().nullable() }).nullable(),
});
export type NotificationChange = z.infer<typeof notificationChangeSchema>;
export const notificationChangesSchema = z.array(notificationChangeSchema);
/** The record history answer holds at most this many writes (the newest). */
export const NOTIFICATION_CHANGES_MAX = 200;

/** DELETE /api/notifications/{nodeid}: an optional body {nodeid} that must equal the path. */
export const deleteNotificationSchema = deleteBodySchema('nodeid');

const namedNode = z.object({ nodeid: z.uuid(), name: z.string() });

/** GET /api/notifications/{nodeid}: the notification of §3 with what the detail header shows. */
export const notificationSchema = z.object({
  nodeid: z.uuid(),
  type: z.number().int(),
  status: notificationStatusSchema,
  title: z.string(),
  description: z.string().nullable(),
  errorcode: z.string().nullable(),
  created: epochMs,
  /** 0 when not started. */
  progressstarted: epochMs,
  /** 0 when not closed. */
  closed: epochMs,
  dueuntil: epochMs.nullable(),
  equipmentnodeid: z.uuid(),
  isnotificationof: z.object({
    nodeid: z.uuid(),
    name: z.string(),
    brand: z.string().nullable(),
    model: z.string().nullable(),
    pool: namedNode.nullable(),
    area: namedNode.nullable(),
  }),
  hasauthor: z.object({ nodeid: z.uuid(), givenname: z.string(), surname: z.string() }).nullable(),
  haschatroom: z.object({ nodeid: z.uuid() }).nullable(),
  maintenancetasknodeid: z.uuid().nullable(),
  /** How many solutions, reports, attachments and costs hang on it ('Maßnahme hinterlegt' when hasworkflow > 0). */
  counts: z.object({ hasworkflow: z.number().int(), hasreport: z.number().int(), hasattachment: z.number().int(), hascost: z.number().int() }),
  version: z.number().int(),
});
export type Notification = z.infer<typeof notificationSchema>;

