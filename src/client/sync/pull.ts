/**
 * Pulls the change feed into the mirror (`GET /api/sync/pull`, src/shared/api/sync.ts). From cursor 0 it is the
 * initial sync (progress: counts per kind); afterwards it is incremental. Each page is applied in one transaction
 * together with its cursor, so a killed tab resumes from the last whole page: by the page worker that read it
 * (page-apply.ts), or here with Dexie where no worker runs (applyChanges).
 *
 * - A field a still-pending outbox entry changed is never overwritten: the pending value wins until the server
 *   acknowledged the write (the optimistic view survives the pull).
 * - Tombstones delete the row (deletes win over edits; a pending edit of it will come back as a dead letter).
 * - `reset` (cursor older than tombstone retention), another SYNC_FORMAT_VERSION (of the answer, or of the rows
 *   already in the mirror: an app update that changed the row shapes) or another `scope` (the user's read
 *   permissions changed): the mirror is emptied and pulled again from 0. The outbox, dead letters and file
 *   bytes are untouched, and rows created by pending writes are put back at once, so nothing the user entered
 *   disappears from the screens.
 */
import { PULL_LIMIT_DEFAULT, PULL_LIMIT_INITIAL, SYNC_FORMAT_VERSION, SYNC_HEADERS, type SyncChange } from '../../shared/api/sync';
import { MIRROR_KIND_NAMES, isMirrorKind, type LocalDatabase, type MirrorKind } from '../db/local-db';
import { ApiError, toApiError, type ApiClient } from '../lib/api-client';
import { readState, stateKeys, writeState } from './outbox';
import type { ApplyTarget } from './page-apply';
import { pageNeedsReset, pendingValues, planPage, stampAfter, type MirrorStamp } from './page-plan';
import { createPageReader, InvalidPageError, PageNotFetchedError, readPageHere, type PageReader, type ReadPage } from './pull-page';

export interface PullProgress {
  /** True while pulling from cursor 0 (initial sync or after a reset). */
  initial: boolean;
  /** Rows received per kind so far in this pull. */
  counts: Record<string, number>;
  done: boolean;
}

export interface PullDeps {
  db: LocalDatabase;
  api: Pick<ApiClient, 'send' | 'prepare'>;
  clientId: string;
  limit?: number;
  onProgress?: (progress: PullProgress) => void;
  now?: () => number;
  /** Parses and checks a page's body; default: the app's worker (tests: on the main thread). */
  readPage?: PageReader;
}

export interface PullResult {
  /** When the pull completed (stored as the last sync): the app bar shows it at once, not after its next read. */
  syncedAt: number;
  changes: number;
  reset: boolean;
  cursor: number;
  lastMutationId: number;
}

const MAX_RESETS = 2;

/**
 * Rows per `bulkPut`/`bulkDelete` call. The browser clones every row of a call in one main-thread task (~0.45 ms
 * a row at 4× CPU throttle on a busy machine), so a page of 1,000 rows in one call blocked the tab for ~0.5 s;
 * the next chunk is issued from an earlier one's success event, in the same transaction (inPipeline). A Chromium
 * trace of the initial sync at 4× (issue #11) showed chunks of 100 rows as most of the tasks over 100 ms, nearly
 * all of their time in IndexedDB's `put` (`putRequestSetup`: the clone). Every row is its own request to the
 * database process whatever the chunk, and with the next chunk issued while the one before is written the round
 * trip is hidden, so chunks of 50 cost no more than chunks of 100 and halve those tasks.
 */
const WRITE_CHUNK = 50;

/**
 * The main thread's writer of a page (where no page worker writes it): the page's plan (page-plan.ts: last change
 * per record, pending outbox values merged in) and its cursor in one Dexie transaction, per kind `bulkPut` of the
 * rows and `bulkDelete` of the tombstones in chunks, no await per row (a put per row cost 4× a bulk put in
 * Chromium).
 */
export async function applyChanges(db: LocalDatabase, changes: SyncChange[], cursor: number): Promise<void> {
  const kinds = [...new Set(changes.map((change) => change.kind).filter(isMirrorKind))];
  await db.transaction('rw', [db.outbox, db.syncState, ...kinds.map((kind) => db.mirror(kind))], async () => {
    // Only the outbox's index of records is needed when it is empty (the usual case in an initial sync).
    const pending = (await db.outbox.count()) === 0 ? undefined : pendingValues(await db.outbox.toArray());
    const { puts, deletes } = planPage(changes, pending, isMirrorKind);
    await Promise.all([writeState(db, stateKeys.cursor, cursor), writeState(db, stateKeys.mirrorFormat, SYNC_FORMAT_VERSION)]);
    const writes: (() => Promise<unknown>)[] = [];
    for (const [kind, nodeids] of deletes) {
      for (const [start, end] of chunks(nodeids.length, writes.length)) writes.push(() => db.mirror(kind as MirrorKind).bulkDelete(nodeids.slice(start, end)));
    }
    for (const [kind, rows] of puts) {
      for (const [start, end] of chunks(rows.length, writes.length)) writes.push(() => db.mirror(kind as MirrorKind).bulkPut(rows.slice(start, end)));
    }
    await inPipeline(writes);
  });
}

/**
 * [start, end) of each chunk of `length` rows. The first two chunks of a page are half size: they are issued in
 * one task (inPipeline), so that task stays the size of every later one.
 */
function chunks(length: number, issued: number): [number, number][] {
  const bounds: [number, number][] = [];
  for (let start = 0; start < length; ) {
    const size = issued + bounds.length < PIPELINE_DEPTH ? WRITE_CHUNK / PIPELINE_DEPTH : WRITE_CHUNK;
    bounds.push([start, Math.min(length, start + size)]);
    start += size;
  }
  return bounds;
}

/** Chunks in flight at once (inPipeline). */
export const PIPELINE_DEPTH = 2;

/**
 * Runs the chunk writes of one transaction in order with PIPELINE_DEPTH of them in flight: the next chunk is issued
 * as soon as the one before the previous has succeeded, so the database process writes a chunk (its rows and
 * indexes) while the main thread clones the next. One at a time, each waited for the other: a 4× throttled trace
 * of the initial sync showed the main thread and the database taking turns (issue #11).
 */
async function inPipeline(writes: (() => Promise<unknown>)[]): Promise<void> {
  const inFlight: Promise<unknown>[] = [];
  for (const write of writes) {
    if (inFlight.length >= PIPELINE_DEPTH) await inFlight.shift();
    const started = write();
    // why: a failure aborts the transaction and is thrown where this write is awaited; until then it must not
    // count as unhandled.
    started.catch(() => undefined);
    inFlight.push(started);
  }
  for (const started of inFlight) await started;
}

/** Empties the mirror for a full resync, keeping outbox, dead letters and bytes; re-creates pending creates. */
export async function resetMirror(db: LocalDatabase, owner?: string): Promise<void> {
  await db.transaction('rw', [db.outbox, db.syncState, ...db.mirrorTables()], async () => {
    for (const kind of MIRROR_KIND_NAMES) await db.mirror(kind).clear();
    const mirrorUser = owner ?? (await readState<string>(db, stateKeys.mirrorOwner));
    // Only the mirror's user's pending creates: another user's stay in the outbox but not on this user's screens.
    const entries = (await db.outbox.toArray()).filter((entry) => mirrorUser === undefined || entry.usernodeid === mirrorUser);
    const pending = pendingValues(entries);
    for (const entry of entries) {
      if (!entry.creates || !isMirrorKind(entry.kind)) continue;
      await db.mirror(entry.kind).put({ ...(pending.get(`${entry.kind}:${entry.nodeid}`) ?? {}), nodeid: entry.nodeid });
    }
    await writeState(db, stateKeys.cursor, 0);
    await writeState(db, stateKeys.mirrorFormat, SYNC_FORMAT_VERSION);
    await writeState(db, stateKeys.initialSyncDone, false);
    // An empty mirror has no scope yet and needs no row fetched again.
    await db.syncState.bulkDelete([stateKeys.pullScope, stateKeys.pullFrom]);
    if (owner !== undefined) await writeState(db, stateKeys.mirrorOwner, owner);
  });
}

/**
 * The mirror holds one user's view. When another user logs in on this device, it is emptied and pulled again
 * (the other user's pending writes stay in the outbox and are sent at their next login).
 */
export async function ensureMirrorOwner(db: LocalDatabase, usernodeid: string): Promise<void> {
  const owner = await readState<string>(db, stateKeys.mirrorOwner);
  if (owner === usernodeid) {
    await dropOtherUsersSubscriptions(db, usernodeid);
    return;
  }
  if (owner === undefined && (await readState<number>(db, stateKeys.cursor)) === undefined) {
    await writeState(db, stateKeys.mirrorOwner, usernodeid);
    return;
  }
  await resetMirror(db, usernodeid);
}

/**
 * Whom another user follows is no longer in the change feed, and neither are the tombstones of those rows
 * (docs/sync.md § Pull by permission): rows an older server sent would stay in the mirror until a full resync.
 * They are dropped once; no screen reads them (the dashboard reads the user's own), but the device should not
 * keep them either.
 */
async function dropOtherUsersSubscriptions(db: LocalDatabase, usernodeid: string): Promise<void> {
  if (await readState<boolean>(db, stateKeys.otherUsersSubscriptionsDropped)) return;
  await db.transaction('rw', [db.mirror('subscriptions'), db.syncState], async () => {
    await db.mirror('subscriptions').where('usernodeid').notEqual(usernodeid).delete();
    await writeState(db, stateKeys.otherUsersSubscriptionsDropped, true);
  });
}

/** A mirror that was filled (it has a cursor) under another SYNC_FORMAT_VERSION than this app's. */
async function mirrorOfAnotherFormat(db: LocalDatabase): Promise<boolean> {
  if ((await readState<number>(db, stateKeys.cursor)) === undefined) return false;
  return ((await readState<number>(db, stateKeys.mirrorFormat)) ?? 1) !== SYNC_FORMAT_VERSION;
}

/** The page reader of this app: a worker where the browser can start one, else the main thread. */
let appPageReader: PageReader | undefined;
function defaultPageReader(): PageReader {
  if (appPageReader) return appPageReader;
  if (typeof Worker === 'undefined') return readPageHere;
  try {
    appPageReader = createPageReader(new Worker(new URL('./pull-page.worker.ts', import.meta.url), { type: 'module', name: 'pull-page' }), readPageHere);
  } catch {
    appPageReader = readPageHere;
  }
  return appPageReader;
}

/**
 * What the page worker needs to write a page into this device database itself (page-apply.ts): the page is written
 * only after `storedCursor` and on a mirror stamped `mirror`. The index names come from Dexie's schema.
 */
function applyTarget(db: LocalDatabase, storedCursor: number | undefined, mirror: MirrorStamp): ApplyTarget {
  const indexes: Record<string, string[]> = {};
  for (const kind of MIRROR_KIND_NAMES) indexes[kind] = db.mirror(kind).schema.indexes.map((index) => index.name);
  return {
    database: db.name,
    storedCursor,
    mirror,
    formatVersion: SYNC_FORMAT_VERSION,
    keys: { cursor: stateKeys.cursor, mirrorFormat: stateKeys.mirrorFormat, pullScope: stateKeys.pullScope },
    indexes,
  };
}

async function fetchPage(deps: PullDeps, cursor: number, initial: boolean, apply: ApplyTarget): Promise<ReadPage> {
  const request = {
    searchParams: { cursor, limit: deps.limit ?? (initial ? PULL_LIMIT_INITIAL : PULL_LIMIT_DEFAULT) },
    headers: { [SYNC_HEADERS.clientId]: deps.clientId },
  };
  const reader = deps.readPage ?? defaultPageReader();
  let rejectedToken: string | undefined;
  if (reader.fetchAndRead) {
    // The worker sends the request, so the body is loaded and decoded off the main thread too.
    const prepared = deps.api.prepare('sync/pull', request);
    try {
      return await reader.fetchAndRead(prepared, apply);
    } catch (cause) {
      if (cause instanceof InvalidPageError) throw new ApiError({ kind: 'invalid-response', statusCode: 200, message: 'Pull answer does not match the contract', cause });
      if (cause instanceof PageNotFetchedError && cause.reason === 'no-answer') throw new ApiError({ kind: 'network', statusCode: 0, message: cause.message, cause });
      // Not OK (an expired token, a server error) or the worker died: asked again below, where the API client
      // refreshes the token once (before it sends, after the worker's 401) and reads the error's message. A
      // write's failure (apply-failed) is thrown as is.
      if (!(cause instanceof PageNotFetchedError)) throw cause;
      if (cause.status === 401 && prepared.bearer) rejectedToken = prepared.bearer;
    }
  }
  const response = await deps.api.send('GET', 'sync/pull', rejectedToken ? { ...request, rejectedToken } : request);
  if (!response.ok) throw await toApiError(response);
  // Only the bytes are read here: parsing, the contract check and (in the worker) the write happen in the page
  // reader (pull-page.ts).
  const body = await response.arrayBuffer();
  try {
    return await reader(body, apply);
  } catch (cause) {
    throw new ApiError({ kind: 'invalid-response', statusCode: response.status, message: 'Pull answer does not match the contract', cause });
  }
}

/** Pulls until `hasMore` is false. Throws ApiError when the server cannot be reached (the engine retries). */
export async function pull(deps: PullDeps): Promise<PullResult> {
  const { db } = deps;
  if (await readState<boolean>(db, stateKeys.fullResyncNeeded)) {
    await resetMirror(db);
    await writeState(db, stateKeys.fullResyncNeeded, false);
  }
  // Rows pulled by an app of another format are in a shape this code does not read: start over, once.
  const formatChanged = await mirrorOfAnotherFormat(db);
  if (formatChanged) await resetMirror(db);
  // A row the sender could not put right (a stale replayed answer, a refused write) is fetched again.
  const pullFrom = await readState<number>(db, stateKeys.pullFrom);
  let storedCursor = await readState<number>(db, stateKeys.cursor);
  let cursor = Math.min(storedCursor ?? 0, pullFrom ?? Infinity);
  // What the mirror was filled under. (No scope stored but a cursor: a mirror filled before pulls were filtered,
  // which holds every kind.)
  const knownScope = await readState<string>(db, stateKeys.pullScope);
  let stamp: MirrorStamp = { scope: knownScope, filled: knownScope !== undefined || cursor > 0 };
  let initial = cursor === 0;
  let counts: Record<string, number> = {};
  let total = 0;
  let resets = formatChanged ? 1 : 0;
  let lastMutationId = 0;
  // The first page of an initial sync can take a while (the whole plant): show the progress bar from the start.
  if (initial) deps.onProgress?.({ initial, counts: {}, done: false });
  // The next page, requested while the current one is written.
  let ahead: Promise<ReadPage> | undefined;
  for (;;) {
    const page = await (ahead ?? fetchPage(deps, cursor, initial, applyTarget(db, storedCursor, stamp)));
    ahead = undefined;
    const { head } = page;
    // The server asks for a reset, the page is of another format, or the user's read permissions changed since the
    // mirror was filled (rows of kinds no longer readable must go, rows of newly readable kinds older than the
    // cursor must come): the mirror is emptied and pulled from 0. A worker that writes pages decided it already.
    if ('changes' in page ? pageNeedsReset(head, stamp, SYNC_FORMAT_VERSION) : page.applied === null) {
      resets += 1;
      if (resets > MAX_RESETS) throw new ApiError({ kind: 'invalid-response', statusCode: 200, message: 'Pull keeps asking for a reset' });
      await resetMirror(db);
      cursor = 0;
      storedCursor = 0;
      stamp = { scope: undefined, filled: false };
      initial = true;
      counts = {};
      deps.onProgress?.({ initial, counts, done: false });
      continue;
    }
    // The server's time for the next page and its reading overlap this page's writes. The next request carries
    // this page's cursor, as it would after the write; nothing of it is written before this page's transaction
    // (the worker writes a page only after the cursor it was asked after).
    const next = stampAfter(stamp, head.scope);
    if (head.hasMore) {
      ahead = fetchPage(deps, head.cursor, initial, applyTarget(db, head.cursor, next));
      // why: a failure is thrown where the page is awaited; until then it must not count as unhandled.
      ahead.catch(() => undefined);
    }
    if ('changes' in page) {
      await applyChanges(db, page.changes, head.cursor);
      if (head.scope !== undefined && head.scope !== stamp.scope) await writeState(db, stateKeys.pullScope, head.scope);
    } else {
      await page.applied;
    }
    stamp = next;
    storedCursor = head.cursor;
    for (const [kind, count] of Object.entries(page.counts)) counts[kind] = (counts[kind] ?? 0) + count;
    total += Object.values(page.counts).reduce((sum, count) => sum + count, 0);
    cursor = head.cursor;
    lastMutationId = head.lastMutationId;
    deps.onProgress?.({ initial, counts: { ...counts }, done: !head.hasMore });
    if (!head.hasMore) break;
  }
  const syncedAt = (deps.now ?? Date.now)();
  await db.transaction('rw', db.syncState, async () => {
    await writeState(db, stateKeys.lastSyncAt, syncedAt);
    // Written once: every screen reads it first, and a write of the same value would make each of them read again.
    if ((await readState<boolean>(db, stateKeys.initialSyncDone)) !== true) await writeState(db, stateKeys.initialSyncDone, true);
    await writeState(db, stateKeys.lastMutationAck(deps.clientId), lastMutationId);
    // Done with it, unless the sender asked for an even earlier version while this pull ran.
    if (pullFrom !== undefined && (await readState<number>(db, stateKeys.pullFrom)) === pullFrom) await db.syncState.delete(stateKeys.pullFrom);
  });
  return { syncedAt, changes: total, reset: resets > 0, cursor, lastMutationId };
}
