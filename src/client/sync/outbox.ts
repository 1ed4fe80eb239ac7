/**
 * The one write path (docs/sync.md § One transaction): every user action writes its mirror change and its
 * outbox entry in ONE Dexie transaction, with the mutation id taken from the per-client counter in that same
 * transaction. A crash, a quota error or a thrown check therefore leaves both or neither.
 */
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import Dexie, { type Table } from 'dexie';
import type { ApplyContext } from '../../shared/mutations/mutation';
import type { LocalDatabase, MirrorKind, MirrorRow, OutboxEntry, StoredFileBytes } from '../db/local-db';

/** New record ids: UUIDv7 (time-ordered, made offline, no remapping when the server gets them). */
export function newNodeId(): string {
  return uuidv7();
}

export const stateKeys = {
  clientId: (usernodeid: string) => `clientId:${usernodeid}`,
  mutationCounter: (clientId: string) => `mutationCounter:${clientId}`,
  cursor: 'cursor',
  lastSyncAt: 'lastSyncAt',
  mirrorOwner: 'mirrorOwner',
  initialSyncDone: 'initialSyncDone',
  lastMutationAck: (clientId: string) => `lastMutationAck:${clientId}`,
  /** Writes a server restored from a backup lost and the acked log no longer had (shown to the user). */
  serverLostWrites: 'serverLostWrites',
  /** Set after such a restore: the next pull empties the mirror and starts from 0. */
  fullResyncNeeded: 'fullResyncNeeded',
  /** The next pull starts at or below this version: a mirror row needs the server's values again (sender.ts). */
  pullFrom: 'pullFrom',
  /** The pull's `scope` the mirror was filled under (kinds the user may not read); a change means a full resync. */
  pullScope: 'pullScope',
  /** The SYNC_FORMAT_VERSION the mirror's rows came in (unset: format 1, which had no stamp); another one means a full resync. */
  mirrorFormat: 'mirrorFormat',
  /** Set once the mirror holds no other user's subscriptions (dropOtherUsersSubscriptions in pull.ts). */
  otherUsersSubscriptionsDropped: 'otherUsersSubscriptionsDropped',
} as const;

/**
 * This device's client id for a user, made once (UUID) and kept. One per device AND user: the server binds a
 * client id to the first user that sends it (another user's id is a 403), and two users on one tablet each keep
 * their own gap-free mutation sequence.
 */
export async function getClientId(db: LocalDatabase, usernodeid: string): Promise<string> {
  return db.transaction('rw', db.syncState, () => clientIdIn(db, usernodeid));
}

/** getClientId's read-or-make, inside a rw transaction that includes syncState (the write's own, outbox.ts). */
async function clientIdIn(db: LocalDatabase, usernodeid: string): Promise<string> {
  const key = stateKeys.clientId(usernodeid);
  const existing = await db.syncState.get(key);
  if (typeof existing?.value === 'string') return existing.value;
  const clientId = uuidv4();
  await db.syncState.put({ key, value: clientId });
  return clientId;
}

export async function readState<T>(db: LocalDatabase, key: string): Promise<T | undefined> {
  return (await db.syncState.get(key))?.value as T | undefined;
}

export async function writeState(db: LocalDatabase, key: string, value: unknown): Promise<void> {
  await db.syncState.put({ key, value });
}

/**
 * Makes the next pull deliver every change after `version` again (the lowest request wins). For a mirror row
 * whose fields only the server can put right: one the answer of a replay was older than, or one a refused write
 * is taken back out of. Must run inside a rw transaction that includes syncState.
 */
export async function requestPullFrom(db: LocalDatabase, version: number): Promise<void> {
  const current = await readState<number>(db, stateKeys.pullFrom);
  const from = Math.max(0, version);
  if (current === undefined || from < current) await writeState(db, stateKeys.pullFrom, from);
}

/** What a write queues: the entry's request and mirror row (`OutboxEntry`), and the change to make to that row. */
export interface MutationRequest extends Pick<OutboxEntry, 'action' | 'method' | 'path' | 'body' | 'kind' | 'nodeid' | 'upload' | 'subjectNames'> {
  /**
   * The mirror change: these fields are merged into the row (created when `creates`). A function gets the row as
   * it is inside the write's transaction (a declaration's `apply`, src/client/sync/mutate.ts).
   */
  values: Record<string, unknown> | ((existing: MirrorRow | undefined, context: ApplyContext) => Record<string, unknown>);
  creates?: boolean;
  dependsOn?: string[];
  /** When the user made the change (the panel's "Erfasst am"); a refused change sent again keeps its own. Default now. */
  createdAt?: number;
}

export interface WriteContext {
  db: LocalDatabase;
  usernodeid: string;
  /** Device time for display (createdAt); default Date.now. */
  now?: () => number;
}

export interface EnqueueOptions {
  /** Bytes to store in the same transaction (a photo chosen offline). */
  files?: StoredFileBytes[];
  /** Extra work inside the transaction, after the writes (tests use it to prove all-or-nothing). */
  inTransaction?: () => Promise<void> | void;
  /** Tables `inTransaction` touches besides the write's own. */
  extraTables?: Table[];
  /** The step that says what the user did (the sync panel's text for the whole action); default the first. */
  describedBy?: MutationRequest;
}

/**
 * A change to a record the device no longer has (not a create): a refused change sent again after its record was
 * deleted on the server. It can never be queued again; the sync panel says so instead of "try again later".
 */
export class RecordGoneError extends Error {
  constructor(
    readonly kind: string,
    readonly nodeid: string,
  ) {
    super(`Unknown ${kind} ${nodeid}`);
    this.name = 'RecordGoneError';
  }
}

type Listener = () => void;
const writeListeners = new Set<Listener>();

const errorListeners = new Set<(error: unknown) => void>();

/** Called when a local write failed (the app bar shows a full disk: QuotaExceededError). */
export function onWriteError(listener: (error: unknown) => void): () => void {
  errorListeners.add(listener);
  return () => errorListeners.delete(listener);
}

/** Called after every committed local write (the sender nudges itself). */
export function onLocalWrite(listener: Listener): () => void {
  writeListeners.add(listener);
  return () => writeListeners.delete(listener);
}

/**
 * Several user actions written as one: every `enqueueMutation` inside `write` joins one IndexedDB transaction over
 * the outbox and the mirror, so they are on the device all together or not at all — a tab closed or a disk full
 * halfway leaves nothing half written — and the device commits once instead of once per action (the CSV import:
 * one action per machine). Each action keeps its own ids and user action; `write` may await only database work
 * (no photos: their room is asked of the browser first, outside). The actions inside nudge nobody; this does, after
 * the commit.
 */
export async function writeTogether<T>(context: Pick<WriteContext, 'db'>, write: () => Promise<T>): Promise<T> {
  const { db } = context;
  try {
    return await db.transaction('rw', [db.outbox, db.syncState, db.fileBytes, ...db.mirrorTables()], write).catch(reportWriteError);
  } finally {
    // Also after a failure: a `write` that awaited something else let the transaction commit early, and what it
    // wrote until then must still be sent (an extra nudge finds nothing to send). Outside the transaction: what a
    // listener starts (the sender) must not run inside it.
    Dexie.ignoreTransaction(() => writeListeners.forEach((listener) => listener()));
  }
}

/**
 * Writes mirror changes and their outbox entries atomically; returns the entries as stored.
 * Several mutations in one call (a report with a photo) share the transaction and get consecutive ids.
 */
export async function enqueueMutation(context: WriteContext, mutations: MutationRequest | MutationRequest[], options: EnqueueOptions = {}): Promise<OutboxEntry[]> {
  const { db, usernodeid } = context;
  const now = context.now ?? Date.now;
  const list = Array.isArray(mutations) ? mutations : [mutations];
  // Inside `writeTogether` this call joins its transaction: it may await nothing but the database (asking the
  // browser for room would let the transaction commit early), and it nudges nobody — a sender started now would
  // run inside the open transaction; `writeTogether` nudges once, after the commit.
  const joined = Dexie.currentTransaction !== null && Dexie.currentTransaction !== undefined;
  if (options.files?.length && !joined) await ensureRoomFor(options.files.reduce((sum, file) => sum + file.bytes.byteLength, 0)).catch(reportWriteError);
  const files = options.files ?? [];
  const tables: Table[] = [db.outbox, db.syncState, ...(files.length > 0 ? [db.fileBytes] : []), ...new Set(list.map((m) => db.mirror(m.kind))), ...(options.extraTables ?? [])];
  const stored = await db.transaction('rw', tables, async () => {
    // The client id is read in this transaction, not one of its own: a write is one round of reads, then the puts.
    const clientId = await clientIdIn(db, usernodeid);
    const counterKey = stateKeys.mutationCounter(clientId);
    const [counter, rows] = await Promise.all([db.syncState.get(counterKey), rowsBefore(db, list)]);
    // The ids of one call are consecutive (one counter, one transaction), so the describing step's id is known
    // before it is taken: every entry of the call names it as its user action.
    const first = (typeof counter?.value === 'number' ? counter.value : 0) + 1;
    const userAction = first + Math.max(0, options.describedBy ? list.indexOf(options.describedBy) : 0);
    const written = new Map<string, { kind: MirrorKind; row: MirrorRow }>();
    const entries = list.map((mutation, index) => {
      const key = rowKey(mutation);
      const existing = written.get(key)?.row ?? rows.get(key);
      if (!existing && !mutation.creates) throw new RecordGoneError(mutation.kind, mutation.nodeid);
      const values = typeof mutation.values === 'function' ? mutation.values(existing, { now: now(), usernodeid }) : mutation.values;
      // A later step of the same call on the same row sees this one's change, as it would after a put.
      written.set(key, { kind: mutation.kind, row: { ...(existing ?? {}), ...values, nodeid: mutation.nodeid } });
      return outboxEntry(mutation, values, existing, { mutationId: first + index, clientId, usernodeid, userAction, createdAt: mutation.createdAt ?? now() });
    });
    // One request per row, the counter once, the entries in order; IndexedDB runs them in the order they are made.
    const puts: Promise<unknown>[] = files.map((file) => db.fileBytes.put(file));
    for (const { kind, row } of written.values()) puts.push(db.mirror(kind).put(row));
    puts.push(db.syncState.put({ key: counterKey, value: first + list.length - 1 }));
    const seqs = await Promise.all([...entries.map((entry) => db.outbox.add(entry)), ...puts]);
    entries.forEach((entry, index) => (entry.seq = seqs[index] as number));
    await options.inTransaction?.();
    return entries;
  }).catch(reportWriteError);
  if (!joined) writeListeners.forEach((listener) => listener());
  return stored;
}

const rowKey = (mutation: Pick<MutationRequest, 'kind' | 'nodeid'>) => `${mutation.kind}\u0000${mutation.nodeid}`;

/** The mirror rows a call's steps change, as they are before it: each row read once, all reads at the same time. */
async function rowsBefore(db: LocalDatabase, list: readonly MutationRequest[]): Promise<Map<string, MirrorRow | undefined>> {
  const keys = [...new Map(list.map((mutation) => [rowKey(mutation), mutation])).entries()];
  const rows = await Promise.all(keys.map(([, mutation]) => db.mirror(mutation.kind).get(mutation.nodeid)));
  return new Map(keys.map(([key], index) => [key, rows[index]]));
}

function outboxEntry(
  mutation: MutationRequest,
  values: Record<string, unknown>,
  existing: MirrorRow | undefined,
  ids: Pick<OutboxEntry, 'mutationId' | 'clientId' | 'usernodeid' | 'userAction' | 'createdAt'>,
): OutboxEntry {
  return {
    ...ids,
    action: mutation.action,
    method: mutation.method,
    path: mutation.path,
    body: mutation.body,
    kind: mutation.kind,
    nodeid: mutation.nodeid,
    fields: Object.keys(values),
    values,
    previous: Object.fromEntries(Object.keys(values).map((field) => [field, existing?.[field]])),
    creates: mutation.creates ?? false,
    dependsOn: mutation.dependsOn ?? [],
    ...(mutation.upload ? { upload: mutation.upload } : {}),
    ...(mutation.subjectNames ? { subjectNames: mutation.subjectNames } : {}),
    attempts: 0,
    lastError: null,
  };
}

function reportWriteError(error: unknown): never {
  errorListeners.forEach((listener) => listener(error));
  throw error;
}

/** Room kept free beside a file's bytes: the rows and outbox entries of the same write, and the engine's overhead. */
const STORAGE_RESERVE = 512 * 1024;

/**
 * Refuses a write of file bytes the device has no room for, before anything is written, with the error the browser
 * would raise (QuotaExceededError): the browser's own refusal comes only when the transaction commits, after the
 * photo was copied. It helps where the estimate is the real limit (Firefox, Safari); Chromium pads the quota it
 * reports (usage + 10 GiB, against fingerprinting), so there the write's own quota error is what the user sees.
 * Without the Storage API (tests) the write just tries.
 */
export async function ensureRoomFor(bytes: number, storage: Pick<StorageManager, 'estimate'> | undefined = globalThis.navigator?.storage): Promise<void> {
  const estimate = await storage?.estimate?.().catch(() => undefined);
  if (!estimate || estimate.quota === undefined || estimate.usage === undefined) return;
  if (estimate.quota - estimate.usage >= bytes + STORAGE_RESERVE) return;
  throw new DOMException(`${bytes} bytes do not fit: ${estimate.usage} of ${estimate.quota} bytes used`, 'QuotaExceededError');
}

/** Which user action an entry belongs to (docs/client.md § Sync state): entries of one action share the key. */
export function userActionKey(entry: Pick<OutboxEntry, 'clientId' | 'mutationId' | 'userAction'>): string {
  return `${entry.clientId}:${entry.userAction ?? entry.mutationId}`;
}

/** How many things the user did that are not yet at the server: one report with a photo is one, not three. */
export function countUserActions(entries: readonly Pick<OutboxEntry, 'clientId' | 'mutationId' | 'userAction'>[]): number {
  return new Set(entries.map(userActionKey)).size;
}

/** Pending entries of one client in send order (mutation id order); with `limit`, only the first ones; with `after`, only those behind that mutation id. */
export function pendingEntries(db: LocalDatabase, clientId: string, limit?: number, after = 0): Promise<OutboxEntry[]> {
  const entries = db.outbox.where('[clientId+mutationId]').between([clientId, after], [clientId, Infinity], after === 0);
  return (limit === undefined ? entries : entries.limit(limit)).toArray();
}

/**
 * Pending entries of one kind, by the `[kind+nodeid]` index. A live query over it reads again only when that kind's
 * entries change, not for every write or acknowledgement of the queue, which can hold a thousand writes offline.
 */
export function pendingEntriesOfKind(db: LocalDatabase, kind: MirrorKind): Promise<OutboxEntry[]> {
  return db.outbox.where('[kind+nodeid]').between([kind, Dexie.minKey], [kind, Dexie.maxKey]).toArray();
}

/** Nodeids of one kind with a write still in the outbox. */
export async function pendingIdsOfKind(db: LocalDatabase, kind: MirrorKind): Promise<Set<string>> {
  return new Set((await pendingEntriesOfKind(db, kind)).map((entry) => entry.nodeid));
}

/** Which of these file keys a pending entry still needs (the outbox's `*dependsOn` index; no entry is read). */
export async function filesStillNeeded(db: LocalDatabase, fileKeys: readonly string[]): Promise<Set<string>> {
  if (fileKeys.length === 0) return new Set();
  return new Set((await db.outbox.where('dependsOn').anyOf(fileKeys).keys()) as string[]);
}

/** Field names still pending for a record: a pull must not overwrite them. */
export async function pendingFields(db: LocalDatabase, kind: MirrorKind, nodeid: string): Promise<Set<string>> {
  const entries = await db.outbox.where('[kind+nodeid]').equals([kind, nodeid]).toArray();
  return new Set(entries.flatMap((entry) => entry.fields));
}
