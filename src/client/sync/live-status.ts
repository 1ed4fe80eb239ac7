/**
 * The sync store's counts: pending user actions and dead letters of the logged-in user, last sync, writes lost by
 * a restored server. Read again after every change of the tables they come from, also from other tabs.
 *
 * Not a Dexie live query: that re-reads the whole outbox after EVERY write, and its readonly transaction holds the
 * outbox the next write needs, so a burst of writes (a replay, an import, writes queued offline one after another)
 * paid for one full outbox read each. Changes are collected for SYNC_COUNTS_SETTLE_MS (longer after a slow read:
 * SYNC_COUNTS_PACE) and read once (docs/decisions.md § One write: one transaction).
 */
import Dexie, { type ObservabilitySet } from 'dexie';
import type { LocalDatabase } from '../db/local-db';
import { setSyncStatus, type SyncStatus } from '../stores/sync-store';
import { countUserActions, readState, stateKeys } from './outbox';
import { mayBeSetAside } from './stuck-entry';

/** How long changes are collected before the counts are read again: short against the eye, long against a burst. */
export const SYNC_COUNTS_SETTLE_MS = 100;

type SyncCounts = Pick<SyncStatus, 'pendingCount' | 'otherUsersPendingCount' | 'deadLetterCount' | 'stuck' | 'lastSyncAt' | 'serverLostWrites'>;

async function readSyncCounts(db: LocalDatabase, user: string | null): Promise<SyncCounts> {
  return db.transaction('r', [db.outbox, db.deadLetters, db.syncState], async () => {
    const entries = await db.outbox.toArray();
    const letters = await db.deadLetters.toArray();
    const own = entries.filter((entry) => entry.usernodeid === user);
    const head = own.reduce<(typeof own)[number] | undefined>((first, entry) => (first === undefined || entry.mutationId < first.mutationId ? entry : first), undefined);
    return {
      pendingCount: countUserActions(own),
      otherUsersPendingCount: countUserActions(entries.filter((entry) => entry.usernodeid !== user)),
      deadLetterCount: letters.filter((letter) => letter.usernodeid === user).length,
      stuck: head !== undefined && mayBeSetAside(head),
      lastSyncAt: (await readState<number>(db, stateKeys.lastSyncAt)) ?? null,
      serverLostWrites: (await readState<number>(db, stateKeys.serverLostWrites)) ?? 0,
    };
  });
}

/** True when a change Dexie reports (this tab's or another's) touches one of the tables the counts come from. */
function touchesCounts(db: LocalDatabase, parts: ObservabilitySet): boolean {
  const prefixes = [db.outbox, db.deadLetters, db.syncState].map((table) => `idb://${db.name}/${table.name}/`);
  return Object.keys(parts).some((part) => prefixes.some((prefix) => part.startsWith(prefix)));
}

/**
 * The next read waits at least this many times as long as the last one took. The read grows with the outbox, and
 * while it runs it holds the outbox, which every write waits for: with 1,000 writes queued offline it was a fifth
 * of the main thread during a burst and each write took 2.5× as long as the first ones (W3, docs/decisions.md
 * § The pending count paces itself). Paced, it takes at most about a tenth, and the count still follows within
 * a second or two.
 */
export const SYNC_COUNTS_PACE = 10;

/**
 * The longest the counts wait after a change, however slow the last read was. A read also waits for any write
 * transaction on its tables: during an initial sync each page's transaction holds the sync state for a second or
 * so, a read took that long, and the paced read after the last page came ~10 s after it — the app bar said
 * "Synchronisiert" 5–6 s after the last page was written (W1, docs/decisions.md § The pending count paces itself).
 */
export const SYNC_COUNTS_MAX_DELAY_MS = 1500;

/** Runs `read` after `delayMs`; returns how to call it off. */
export type ScheduleRead = (read: () => void, delayMs: number) => () => void;

const later: ScheduleRead = (read, delayMs) => {
  const timer = setTimeout(read, delayMs);
  return () => clearTimeout(timer);
};

export function watchSyncCounts(db: LocalDatabase, getUser: () => string | null, schedule: ScheduleRead = later, now: () => number = () => performance.now()): () => void {
  let cancel: (() => void) | undefined;
  let stopped = false;
  // Reads may finish out of order; only the latest one started is shown.
  let latest = 0;
  let lastReadMs = 0;
  const read = () => {
    cancel = undefined;
    const run = ++latest;
    const started = now();
    readSyncCounts(db, getUser()).then(
      (counts) => {
        // The first read also opens the database after a reload (~100 ms at the tablet throttle): paced from it,
        // the count after the first offline save came a second late. Reads after a change say what one costs.
        const took = now() - started;
        if (run > 1) lastReadMs = took;
        if (!stopped && run === latest) setSyncStatus(counts);
      },
      (error: unknown) => console.warn('sync status query failed', error),
    );
  };
  const onChange = (parts: ObservabilitySet) => {
    if (cancel === undefined && !stopped && touchesCounts(db, parts)) cancel = schedule(read, Math.min(SYNC_COUNTS_MAX_DELAY_MS, Math.max(SYNC_COUNTS_SETTLE_MS, SYNC_COUNTS_PACE * lastReadMs)));
  };
  Dexie.on.storagemutated.subscribe(onChange);
  read();
  return () => {
    stopped = true;
    cancel?.();
    Dexie.on.storagemutated.unsubscribe(onChange);
  };
}
