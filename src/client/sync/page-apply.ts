/**
 * A pulled page written by the pull page worker itself (docs/sync.md § Applying a pulled page): the worker that
 * parsed and checked the page opens the device database with plain IndexedDB and writes the page and its cursor
 * in one transaction, so the main thread neither receives the rows nor clones them into IndexedDB. At the size of
 * a big plant that clone was most of the initial sync's main-thread time at tablet speed (W1 at full size, 4× CPU:
 * 99 of 172 s in `bulkPut`, ~500 tasks over 50 ms).
 *
 * The rules are page-plan.ts's, shared with the main thread's writer (pull.ts `applyChanges`). Two things only this
 * writer needs:
 * - The page is written only if the stored cursor is still the one it was asked after (`storedCursor`): a page
 *   fetched ahead is never written over a page before it that failed.
 * - Dexie does not see plain IndexedDB writes, so the worker announces them as Dexie announces a write made in
 *   another tab (its `storagemutated` message on the BroadcastChannel every Dexie instance of the origin listens
 *   to): the screens' live queries read again and Dexie drops its cached results of those tables.
 *
 * Imported by the worker: no Dexie, no zod.
 */
import type { SyncChange } from '../../shared/api/sync';
import type { OutboxEntry } from '../db/local-db';
import { pendingValues, planPage, type MirrorStamp } from './page-plan';

/** What the worker needs to write a page into the device database (built by pull.ts from the Dexie schema). */
export interface ApplyTarget {
  /** The device database's name (its Dexie name). */
  database: string;
  /** The stored cursor when the page was asked for (undefined: none stored). */
  storedCursor: number | undefined;
  /** What the mirror was filled under when the page is written (page-plan.ts pageNeedsReset). */
  mirror: MirrorStamp;
  /** This app's SYNC_FORMAT_VERSION (passed, so the worker's bundle does not take the contract's zod schemas). */
  formatVersion: number;
  /** The sync state's keys (outbox.ts stateKeys). */
  keys: { cursor: string; mirrorFormat: string; pullScope: string };
  /** Index names per mirror table (Dexie's schema), for the announcement; a kind not listed is not written. */
  indexes: Record<string, string[]>;
}

/** Store names of the device database (local-db.ts). */
const OUTBOX = 'outbox';
const SYNC_STATE = 'syncState';

/** Dexie's cross-instance change message (dexie.mjs STORAGE_MUTATED_DOM_EVENT_NAME), versioned by its name. */
export const DEXIE_MUTATION_CHANNEL = 'x-storagemutated-1';

/** The page was asked for after a cursor that is no longer the stored one: not written (the pull starts again). */
export class StalePageError extends Error {
  constructor() {
    super('pulled page is stale: the stored cursor moved');
    this.name = 'StalePageError';
  }
}

function request<T>(operation: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    operation.onsuccess = () => resolve(operation.result);
    operation.onerror = () => reject(operation.error ?? new Error('IndexedDB request failed'));
  });
}

/** What a page's transaction wrote: the mirror tables, and the keys of the sync state. */
export interface PageWrites {
  tables: string[];
  stateKeys: string[];
}

/**
 * Writes `changes` (one checked page) and its cursor in one readwrite transaction on `db`; resolves when it has
 * committed, with what it wrote. Every put is issued at once (no main thread to keep free here). Awaiting
 * the reads inside the transaction is safe: the promises resolve in the request's success event, while the
 * transaction is active.
 */
export function writePage(db: IDBDatabase, changes: SyncChange[], head: { cursor: number; scope?: string }, target: ApplyTarget): Promise<PageWrites> {
  const isKind = (kind: string) => Object.hasOwn(target.indexes, kind) && db.objectStoreNames.contains(kind);
  const kinds = [...new Set(changes.map((change) => change.kind).filter(isKind))];
  const transaction = db.transaction([OUTBOX, SYNC_STATE, ...kinds], 'readwrite');
  let failure: unknown;
  const stateKeys: string[] = [];
  const committed = new Promise<void>((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onabort = () => reject(transaction.error ?? failure ?? new Error('IndexedDB transaction aborted'));
  });
  const writes = (async () => {
    const state = transaction.objectStore(SYNC_STATE);
    const outbox = transaction.objectStore(OUTBOX);
    const [stored, queued] = await Promise.all([request(state.get(target.keys.cursor)), request(outbox.count())]);
    if ((stored as { value?: unknown } | undefined)?.value !== target.storedCursor) throw new StalePageError();
    const pending = queued === 0 ? undefined : pendingValues((await request(outbox.getAll())) as OutboxEntry[]);
    const { puts, deletes } = planPage(changes, pending, isKind);
    state.put({ key: target.keys.cursor, value: head.cursor });
    state.put({ key: target.keys.mirrorFormat, value: target.formatVersion });
    stateKeys.push(target.keys.cursor, target.keys.mirrorFormat);
    if (head.scope !== undefined && head.scope !== target.mirror.scope) {
      state.put({ key: target.keys.pullScope, value: head.scope });
      stateKeys.push(target.keys.pullScope);
    }
    for (const [kind, nodeids] of deletes) {
      const store = transaction.objectStore(kind);
      for (const nodeid of nodeids) store.delete(nodeid);
    }
    for (const [kind, rows] of puts) {
      const store = transaction.objectStore(kind);
      for (const row of rows) store.put(row);
    }
  })();
  // A failed read or a stale cursor aborts the transaction; its error is the one reported.
  writes.catch((error: unknown) => {
    failure = error;
    try {
      transaction.abort();
    } catch {
      // already finished
    }
  });
  return committed.then(() => ({ tables: kinds, stateKeys }));
}

/** Dexie's RangeSet (dexie.mjs) as the structured clone it receives: a search tree of key ranges, in key order. */
interface RangeNode {
  d: number;
  from: unknown;
  to: unknown;
  r?: RangeNode;
}

/** Every key: Dexie's `new RangeSet(-Infinity, [[[]]])`, what it announces for a table it cannot say more about. */
const everything = (): RangeNode => ({ d: 1, from: -Infinity, to: [[[]]] });

/** Exactly `keys` (strings): a chain of single-key ranges in key order, each node's `d` the depth below it. */
function onlyKeys(first: string, ...more: string[]): RangeNode {
  const [last, ...before] = [...new Set([first, ...more])].sort().reverse() as [string, ...string[]];
  let node: RangeNode = { d: 1, from: last, to: last };
  for (const key of before) node = { d: node.d + 1, from: key, to: key, r: node };
  return node;
}

/**
 * What a page's transaction changed, as Dexie announces a commit: every key and index of the mirror tables it
 * wrote, and in the sync state only the keys it wrote — a screen that reads `initialSyncDone` does not read
 * again for a pull's cursor (an up-to-date pull writes no mirror table at all).
 */
export function mutatedParts(database: string, writes: PageWrites, indexes: Record<string, string[]>): Record<string, RangeNode> {
  const parts: Record<string, RangeNode> = {};
  for (const table of writes.tables) {
    parts[`idb://${database}/${table}/`] = everything();
    parts[`idb://${database}/${table}/:dels`] = everything();
    for (const index of indexes[table] ?? []) parts[`idb://${database}/${table}/${index}`] = everything();
  }
  const [first, ...more] = writes.stateKeys;
  if (first !== undefined) parts[`idb://${database}/${SYNC_STATE}/`] = onlyKeys(first, ...more);
  return parts;
}

/** Tells every Dexie instance of the origin (this page's, other tabs') what a page's transaction changed. */
export function announceWrites(database: string, writes: PageWrites, indexes: Record<string, string[]>): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(DEXIE_MUTATION_CHANNEL);
  channel.postMessage(mutatedParts(database, writes, indexes));
  channel.close();
}

/**
 * The worker's connections, one per database name, opened without a version (whatever the page opened: the page
 * owns the schema). A database that does not exist is not created. A connection gives way at once when the page
 * upgrades the schema, and is opened again for the next page.
 */
const connections = new Map<string, Promise<IDBDatabase>>();

export function openDeviceDatabase(indexedDB: IDBFactory, database: string): Promise<IDBDatabase> {
  const open = connections.get(database);
  if (open) return open;
  const opening = new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(database);
    request.onupgradeneeded = () => request.transaction?.abort();
    request.onerror = () => reject(request.error ?? new Error('IndexedDB open failed'));
    request.onsuccess = () => {
      const db = request.result;
      const forget = () => {
        connections.delete(database);
        db.close();
      };
      db.onversionchange = forget;
      db.onclose = () => connections.delete(database);
      resolve(db);
    };
  });
  connections.set(database, opening);
  opening.catch(() => connections.delete(database));
  return opening;
}

/** The page's applies run one after another in the worker, in the order the pages were read. */
let queue: Promise<unknown> = Promise.resolve();

/** Opens the database, writes the page, announces it. Serialised: a page fetched ahead is written after the one before. */
export function applyPage(indexedDB: IDBFactory, changes: SyncChange[], head: { cursor: number; scope?: string }, target: ApplyTarget): Promise<void> {
  const run = queue.then(async () => {
    const db = await openDeviceDatabase(indexedDB, target.database);
    announceWrites(target.database, await writePage(db, changes, head, target), target.indexes);
  });
  queue = run.catch(() => undefined);
  return run;
}
