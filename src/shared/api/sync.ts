import { z } from 'zod';

/**
 * The offline sync contract (sync-protocol.md, docs/sync.md), shared by the client's outbox and pull and by the
 * server's mutation log and pull route. Bump SYNC_FORMAT_VERSION when a change's shape changes in a way an
 * older client would misread (Actual's SYNC_FORMAT_VERSION): the client then drops its mirror and pulls from 0.
 */
export const SYNC_FORMAT_VERSION = 1;

/**
 * Every entity kind the client mirrors, in the order an initial sync applies them when versions tie (parents
 * before children). `data` of a change is the record in API shape with the spec's field names, dates as epoch
 * milliseconds. `units` and `attachmentcategories` are global reference data: sent only in a pull from cursor 0,
 * with version 0.
 */
export const SYNC_KINDS = [
  'units',
  'attachmentcategories',
  'manufacturers',
  'users',
  'sites',
  'shiftmodels',
  'shifts',
  'areas',
  'equipmentpools',
  'brands',
  'equipmenttypes',
  'equipmentclasses',
  'files',
  'equipment',
  'countertypes',
  'counters',
  'counterreadings',
  'maintenancecategories',
  'maintenancetasks',
  'notifications',
  'notificationassignments',
  'workflows',
  'workflowsteps',
  'faqs',
  'reports',
  'costtypes',
  'costs',
  'attachments',
  'chatrooms',
  'chatmessages',
] as const;
export type SyncKind = (typeof SYNC_KINDS)[number];
export const syncKindSchema = z.enum(SYNC_KINDS);

/** Request headers of the outbox and the replay marker of the answer. Header names are case-insensitive. */
export const SYNC_HEADERS = {
  clientId: 'X-Client-Id',
  mutationId: 'X-Mutation-Id',
  replayed: 'Idempotent-Replayed',
} as const;

/** A device id: any UUID, made once per browser profile. */
export const clientIdSchema = z.uuid({ error: 'X-Client-Id must be a UUID' });
/** Mutation ids count 1, 2, 3, … per client, without gaps. */
export const mutationIdSchema = z.coerce
  .number({ error: 'X-Mutation-Id must be a positive whole number' })
  .int('X-Mutation-Id must be a positive whole number')
  .min(1, 'X-Mutation-Id must be a positive whole number')
  .max(Number.MAX_SAFE_INTEGER, 'X-Mutation-Id is too large');

export const PULL_LIMIT_DEFAULT = 1000;
export const PULL_LIMIT_MAX = 5000;

/** `GET /api/sync/pull?cursor=C&limit=N` (X-Client-Id required). Cursor 0 = from the beginning. */
export const pullQuerySchema = z.object({
  cursor: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  /**
   * Rows wanted per page. A page ends only between two versions, so a version with more rows than this (the
   * seeded demo is one version) comes whole and the page is larger.
   */
  limit: z.coerce.number().int().min(1).max(PULL_LIMIT_MAX).default(PULL_LIMIT_DEFAULT),
});
export type PullQuery = z.infer<typeof pullQuerySchema>;

/** One row written (upsert `data`) or deleted (`deleted: true`, no `data`) at `version`. */
export const syncChangeSchema = z.object({
  kind: syncKindSchema,
  nodeid: z.string(),
  version: z.number().int().min(0),
  deleted: z.literal(true).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type SyncChange = z.infer<typeof syncChangeSchema>;

export const pullResponseSchema = z.object({
  formatVersion: z.number().int(),
  /** Send this as the next `cursor`. Every change up to it is in this or an earlier page. */
  cursor: z.number().int().min(0),
  hasMore: z.boolean(),
  /** The last mutation id this client's outbox got applied (or stored as failed) on the server. */
  lastMutationId: z.number().int().min(0),
  /**
   * The cursor is older than tombstone retention: drop the mirror (keep the outbox) and pull again from 0.
   * `changes` is empty and `cursor` 0 when set.
   */
  reset: z.literal(true).optional(),
  /** In version order; ties in SYNC_KINDS order. */
  changes: z.array(syncChangeSchema),
});
export type PullResponse = z.infer<typeof pullResponseSchema>;

/** 409 when X-Mutation-Id skips ahead: resend from `expectedMutationId`. */
export const mutationGapSchema = z.object({
  statusCode: z.literal(409),
  error: z.string(),
  message: z.string(),
  expectedMutationId: z.number().int().min(1),
});
export type MutationGap = z.infer<typeof mutationGapSchema>;
