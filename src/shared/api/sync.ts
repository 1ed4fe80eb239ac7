import { z } from 'zod';
import { ATTACHMENT_TARGET_KINDS, type AttachmentTargetKind } from '../domain/attachment';
import { readsOtherUsersDetails } from '../domain/user';
import { can, type FeatureKey, type PermissionSubject } from '../permissions';
import { SYNC_KINDS, type SyncKind } from './sync-kinds';
import { queryInteger } from './fields';

/**
 * The offline sync contract (docs/sync.md), shared by the client's outbox and pull and by the
 * server's mutation log and pull route. Bump SYNC_FORMAT_VERSION when a change's shape changes in a way an
 * older client would misread (Actual's SYNC_FORMAT_VERSION): a device whose mirror was filled under another
 * format (its stamp, or none for format 1) empties it once and pulls from 0, keeping its outbox, dead letters
 * and file bytes; a pull answering another format than the app's own does the same.
 *
 * 2: `data` is exactly the kind's row shape (src/shared/rows), and write routes answer that row.
 */
export const SYNC_FORMAT_VERSION = 2;

// The kinds live in a module without zod (the pull page worker's check needs them, not zod).
export { SYNC_KINDS, type SyncKind } from './sync-kinds';
export const syncKindSchema = z.enum(SYNC_KINDS);

/**
 * What a user must be allowed to read (every feature listed, `read` flag) to get a kind in the pull, so a device
 * never holds rows its user may not see (docs/sync.md § Pull by permission). An empty list: every signed-in user
 * of the tenant — reference data, the plant's structure and people's display names, which every screen needs,
 * and who follows which plant, area and pool (the dashboard shows the own ones; user administration others').
 */
export const SYNC_KIND_FEATURES = {
  units: [],
  attachmentcategories: [],
  manufacturers: [],
  users: [],
  sites: [],
  shiftmodels: [],
  shifts: [],
  areas: [],
  equipmentpools: [],
  subscriptions: [],
  brands: [],
  equipmenttypes: [],
  equipmentclasses: [],
  files: [],
  equipment: [],
  countertypes: ['equipment.counter'],
  counters: ['equipment.counter'],
  counterreadings: ['equipment.counter'],
  maintenancecategories: ['equipment.maintenancetask'],
  maintenancetasks: ['equipment.maintenancetask'],
  notifications: ['notification'],
  notificationassignments: ['notification'],
  workflows: ['notification', 'notification.workflow'],
  workflowsteps: ['notification', 'notification.workflow'],
  faqs: ['equipment.faq'],
  reports: ['notification', 'notification.report'],
  costtypes: ['notification', 'notification.cost'],
  costs: ['notification', 'notification.cost'],
  attachments: ['equipment.attachment'],
  chatrooms: ['notification'],
  chatmessages: ['notification'],
} as const satisfies Record<SyncKind, readonly FeatureKey[]>;

/** Whether a user may read rows of `kind`: the pull's rule, and the file downloads' (docs/security.md § Files). */
export function canReadKind(subject: PermissionSubject, kind: SyncKind): boolean {
  return SYNC_KIND_FEATURES[kind].every((feature: FeatureKey) => can(subject, feature, 'read'));
}

/** The kinds a user may read, in SYNC_KINDS order. */
export function readableSyncKinds(subject: PermissionSubject): SyncKind[] {
  return SYNC_KINDS.filter((kind) => canReadKind(subject, kind));
}

/** The kind of record an attachment hangs on (`targetkind`), as the sync kind whose read permission guards it. */
export const ATTACHMENT_TARGET_SYNC_KINDS = {
  equipment: 'equipment',
  equipmenttype: 'equipmenttypes',
  notification: 'notifications',
  workflowstep: 'workflowsteps',
  faq: 'faqs',
  report: 'reports',
  maintenancetask: 'maintenancetasks',
} as const satisfies Record<AttachmentTargetKind, SyncKind>;

/**
 * The target kinds whose attachments a user may read with their files: read of attachments and of what the
 * attachment hangs on. A damage photo is part of its notification, so `equipment.attachment` alone does not show
 * it to someone who may not read notifications (GET /api/attachments/{id}, GET /api/files/{nodeid}/download).
 */
export function readableAttachmentTargets(subject: PermissionSubject): AttachmentTargetKind[] {
  if (!canReadKind(subject, 'attachments')) return [];
  return ATTACHMENT_TARGET_KINDS.filter((target) => canReadKind(subject, ATTACHMENT_TARGET_SYNC_KINDS[target]));
}

/**
 * The users rows' field that carries a colleague's e-mail address. The users kind is display data for every
 * signed-in user, the address is not: a caller who may not read other users' details (`readsOtherUsersDetails`, the
 * rule of GET /api/users/:id) gets it on their own row only, every other row carries '' — not left out, because
 * the row shape (`userRowSchema`) and the mirrors of devices with an older app expect the field. Its name in the
 * pull's `scope` says that the rows came so.
 */
export const WITHHELD_USER_EMAIL = 'users.email';

/**
 * The scope's name for the attachments on records of `target` a user may read attachments but not those records
 * (`attachments.notification`): the pull leaves those attachment rows out, as the downloads refuse their files.
 */
export function withheldAttachments(target: AttachmentTargetKind): string {
  return `attachments.${target}`;
}

/**
 * What a cost may be booked on besides a notification (whose read the costs kind needs already), as the sync kind
 * whose read guards the costs booked there: a report's costs need reports, a maintenance task's maintenance tasks.
 */
export const COST_SOURCE_SYNC_KINDS = ['reports', 'maintenancetasks'] as const satisfies readonly SyncKind[];
export type CostSourceSyncKind = (typeof COST_SOURCE_SYNC_KINDS)[number];

/** The sources of COST_SOURCE_SYNC_KINDS whose costs a user who may read costs may not read (none without costs read). */
export function withheldCostSources(subject: PermissionSubject): CostSourceSyncKind[] {
  if (!canReadKind(subject, 'costs')) return [];
  return COST_SOURCE_SYNC_KINDS.filter((source) => !canReadKind(subject, source));
}

/** The scope's name for the costs booked on records of `source` the user may not read (`costs.reports`): the pull leaves them out. */
export function withheldCosts(source: CostSourceSyncKind): string {
  return `costs.${source}`;
}

/**
 * The scope's name for the procedures of maintenance tasks (workflows and steps of a task), withheld from a user who
 * may read solutions but not maintenance tasks: the pull leaves them out (`withholdsProcedures`).
 */
export const WITHHELD_PROCEDURES = 'workflows.maintenancetasks';

/** Whether the user reads workflows but not maintenance tasks, so the tasks' procedures are withheld. */
export function withholdsProcedures(subject: PermissionSubject): boolean {
  return canReadKind(subject, 'workflows') && !canReadKind(subject, 'maintenancetasks');
}

/**
 * The pull's `scope`: the kinds left out for the user's permissions, comma-separated in SYNC_KINDS order, then the
 * attachments left out by what they hang on (`withheldAttachments`, ATTACHMENT_TARGET_KINDS order), then the costs
 * left out by what they are booked on (`withheldCosts`), then `workflows.maintenancetasks` when the procedures of
 * maintenance tasks are (`WITHHELD_PROCEDURES`), then `users.email` when colleagues' addresses are withheld ('' when nothing is left out). A device that sees it change
 * drops its mirror and pulls from 0: rows of a kind no longer readable go, rows of a kind newly readable (older
 * than its cursor) come, and so do the users rows with or without the addresses — their versions did not change,
 * so an incremental pull would not send them again.
 */
export function syncScope(subject: PermissionSubject): string {
  const readable = new Set(readableSyncKinds(subject));
  const left: string[] = SYNC_KINDS.filter((kind) => !readable.has(kind));
  if (readable.has('attachments')) {
    const targets = new Set(readableAttachmentTargets(subject));
    for (const target of ATTACHMENT_TARGET_KINDS) if (!targets.has(target)) left.push(withheldAttachments(target));
  }
  for (const source of withheldCostSources(subject)) left.push(withheldCosts(source));
  if (withholdsProcedures(subject)) left.push(WITHHELD_PROCEDURES);
  if (!readsOtherUsersDetails(subject)) left.push(WITHHELD_USER_EMAIL);
  return left.join(',');
}

/** Request headers of the outbox and the replay marker of the answer. Header names are case-insensitive. */
export const SYNC_HEADERS = {
  clientId: 'X-Client-Id',
  mutationId: 'X-Mutation-Id',
  /** When the user made a queued write on the device (epoch ms): the record history shows it beside the server's time. */
  madeAt: 'X-Made-At',
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
/** The latest time JavaScript dates hold (epoch ms). */
const MAX_EPOCH_MS = 8_640_000_000_000_000;
/** When a queued write was made on its device, epoch milliseconds (the outbox entry's `createdAt`). */
export const madeAtSchema = z.number().int().min(0).max(MAX_EPOCH_MS);

export const PULL_LIMIT_DEFAULT = 1000;
export const PULL_LIMIT_MAX = 5000;
/**
 * The page size a device asks for while it pulls from cursor 0 (initial sync, reset). Each page costs the server
 * two queries per kind whatever its size, so on the quick big plant (21,719 rows) 19 pages of 1,000 took 9.3 s of
 * server time and 5 pages of 5,000 4.7 s (docs/decisions.md, "Initial sync"); the client applies a page in chunks,
 * so a larger page does not make its tasks longer. Incremental pulls keep PULL_LIMIT_DEFAULT.
 */
export const PULL_LIMIT_INITIAL = PULL_LIMIT_MAX;

/**
 * `GET /api/sync/pull?cursor=C&limit=N` (X-Client-Id required). Cursor 0 = from the beginning. Both are decimal
 * digits (`queryInteger`): `cursor=`, `cursor=0x10` or `limit=1e3` is a 400 naming the parameter, not a pull from 0.
 */
export const pullQuerySchema = z.object({
  cursor: queryInteger(0).default(0),
  /**
   * Rows wanted per page. A page ends only between two versions, so a version with more rows than this (the
   * seeded demo is one version) comes whole and the page is larger.
   */
  limit: queryInteger(1, PULL_LIMIT_MAX).default(PULL_LIMIT_DEFAULT),
});
export type PullQuery = z.infer<typeof pullQuerySchema>;

/** One row written (upsert `data`, the kind's row shape) or deleted (`deleted: true`, no `data`) at `version`. */
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
  /**
   * What is left out for the user's read permissions (`syncScope`): kinds, and `users.email` when colleagues'
   * addresses are withheld. A change means: drop the mirror, pull from 0.
   */
  scope: z.string().optional(),
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

/** The batch route below /api (what the client's API client is given). */
export const SYNC_BATCH_PATH = 'sync/batch';
/** Most entries one `POST /api/sync/batch` carries. */
export const SYNC_BATCH_MAX = 100;
/** Most characters of entry bodies a device puts in one batch: well below the server's body limit (1 MiB). */
export const SYNC_BATCH_MAX_BYTES = 256 * 1024;
/** The write methods an outbox entry may use; the batch runs nothing else. */
export const SYNC_BATCH_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** One queued write as the batch carries it: what the single request would have sent, its id instead of the header. */
export const syncBatchEntrySchema = z.object({
  mutationId: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  method: z.enum(SYNC_BATCH_METHODS),
  /** The full path, `/api/...`. */
  path: z.string().min(5).max(2048),
  body: z.unknown().optional(),
  /** When the user made the write, on the device's clock: the entry runs with it as X-Made-At (see `sentAt`). */
  madeAt: madeAtSchema.optional(),
});
export type SyncBatchEntry = z.infer<typeof syncBatchEntrySchema>;

/**
 * `POST /api/sync/batch` (X-Client-Id required): the outbox's next entries in one request (docs/sync.md § Batch).
 * The server runs them in order, each exactly as if it had arrived alone with X-Mutation-Id.
 */
export const syncBatchRequestSchema = z.object({
  mutations: z.array(syncBatchEntrySchema).min(1).max(SYNC_BATCH_MAX),
  /**
   * The device's clock when it sent the batch (epoch ms). The entries' `madeAt` are read on the server's clock by
   * the difference, so a tablet whose clock is off by a day still records when its changes were made; without it
   * `madeAt` is taken as it is.
   */
  sentAt: madeAtSchema.optional(),
});
export type SyncBatchRequest = z.infer<typeof syncBatchRequestSchema>;

/** The answer one entry got: the status and body its single request would have had; `replayed` = Idempotent-Replayed. */
export const syncBatchResultSchema = z.object({
  mutationId: z.number().int().min(1),
  status: z.number().int(),
  body: z.unknown(),
  replayed: z.boolean(),
});
export type SyncBatchResult = z.infer<typeof syncBatchResultSchema>;

/**
 * One result per entry the server ran; ends early with the first result that stops the sender (`stopsBatch`), or
 * without one when the server's budget for a batch is spent (docs/sync.md § Batch): the device sends the rest again.
 */
export const syncBatchResponseSchema = z.object({ results: z.array(syncBatchResultSchema) });
export type SyncBatchResponse = z.infer<typeof syncBatchResponseSchema>;

/**
 * An answer after which the device does not send the next entry: a retry of this one (5xx, 401, 408, 425, 429) or
 * a resend from an earlier id (409 with `expectedMutationId`). Every other answer is final for its entry — stored
 * by the server's mutation log — and the next entry follows.
 */
export function stopsBatch(status: number, body: unknown): boolean {
  if (status >= 500 || status === 401 || status === 408 || status === 425 || status === 429) return true;
  return status === 409 && mutationGapSchema.safeParse(body).success;
}

/** The set-aside route below /api (docs/sync.md § Setting aside a write the server keeps failing on). */
export const SYNC_SET_ASIDE_PATH = 'sync/set-aside';

/**
 * `POST /api/sync/set-aside` (X-Client-Id required): the device gives up the mutation id the server expects next,
 * because the server fails on that write every time (a 5xx that is no outage). Under the device's lock in the
 * mutation log the server either stores a refusal for the id, so the writes queued behind it go on, or — the id
 * was answered meanwhile — says so, and the device sends it again to get that answer. 409 {expectedMutationId} when
 * the id is not the next one.
 */
export const syncSetAsideRequestSchema = z.object({
  mutationId: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
});
export type SyncSetAsideRequest = z.infer<typeof syncSetAsideRequestSchema>;

export const syncSetAsideResponseSchema = z.object({
  mutationId: z.number().int().min(1),
  /** `set-aside`: the refusal is stored (now or before); `answered`: the id had another answer already (status), a resend gets it. */
  outcome: z.enum(['set-aside', 'answered']),
  status: z.number().int().optional(),
});
export type SyncSetAsideResponse = z.infer<typeof syncSetAsideResponseSchema>;

/**
 * The answer stored for a mutation id set aside: what a late resend of that id gets (a refusal, final). `setAside`
 * tells the device's refused change what happened (the sync panel's text), whichever tab settles it.
 */
export const SET_ASIDE_REFUSAL = {
  statusCode: 422,
  error: 'Unprocessable Entity',
  message: 'Set aside by the device after repeated server errors; it may send the write again under a new mutation id',
  setAside: true,
} as const;

/**
 * The server's refusal of a device it does not know yet because the user registered too many new devices within
 * 24 hours (`NEW_DEVICES_PER_DAY`): 429 with this detail on `X-Client-Id`. Not a hiccup: the device cannot sync until
 * the day has passed or an administrator raises the limit, and the app says so instead of "server not answering".
 */
export const TOO_MANY_NEW_DEVICES = { status: 429, field: 'X-Client-Id', message: 'Too many new devices' } as const;

export function isTooManyNewDevices(status: number, details: readonly { field?: string; message?: string }[]): boolean {
  return status === TOO_MANY_NEW_DEVICES.status && details.some((detail) => detail.field === TOO_MANY_NEW_DEVICES.field && detail.message === TOO_MANY_NEW_DEVICES.message);
}

/** A refused change's error: the user set it aside (the device's own mark, or the server's stored refusal). */
export function isSetAsideRefusal(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { setAside?: unknown }).setAside === true;
}
