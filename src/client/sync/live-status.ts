/**
 * The sync store's counts: pending user actions and dead letters of the logged-in user, last sync, writes lost by
 * a restored server. Read again after every change of the tables they come from, also from other tabs.
 *
 * Not a Dexie live query: that re-reads the whole outbox after EVERY write, and its readonly transaction holds the
 * outbox the next write needs, so a burst of writes (a replay, an import, writes queued offline one after another)
 * paid for one full outbox read each. Changes are collected for SYNC_COUNTS_SETTLE_MS and read once
 * (docs/decisions.md § One write: one transaction).
 */
import Dexie, { type ObservabilitySet } from 'dexie';
import type { LocalDatabase } from '../db/local-db';
import { setSyncStatus, type SyncStatus } from '../stores/sync-store';
import { countUserActions, readState, stateKeys } from './outbox';

/** How long changes are collected before the counts are read again: short against the eye, long against a burst. */
export const SYNC_COUNTS_SETTLE_MS = 100;

type SyncCounts = Pick<SyncStatus, 'pendingCount' | 'otherUsersPendingCount' | 'deadLetterCount' | 'lastSyncAt' | 'serverLostWrites'>;

async function readSyncCounts(db: LocalDatabase, user: string | null): Promise<SyncCounts> {
  return db.transaction('r', [db.outbox, db.deadLetters, db.syncState], async () => {
    const entries = await db.outbox.toArray();
    const letters = await db.deadLetters.toArray();
    return {
      pendingCount: countUserActions(entries.filter((entry) => entry.usernodeid === user)),
      otherUsersPendingCount: countUserActions(entries.filter((entry) => entry.usernodeid !== user)),
      deadLetterCount: letters.filter((letter) => letter.usernodeid === user).length,
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

/** Runs `read` later (after SYNC_COUNTS_SETTLE_MS); returns how to call it off. */
export type ScheduleRead = (read: () => void) => () => void;

const afterSettling: ScheduleRead = (read) => {
  const timer = setTimeout(read, SYNC_COUNTS_SETTLE_MS);
  return () => clearTimeout(timer);
};

export function watchSyncCounts(db: LocalDatabase, getUser: () => string | null, schedule: ScheduleRead = afterSettling): () => void {
  let cancel: (() => void) | undefined;
  let stopped = false;
  // Reads may finish out of order; only the latest one started is shown.
  let latest = 0;
  const read = () => {
    cancel = undefined;
    const run = ++latest;
    readSyncCounts(db, getUser()).then(
      (counts) => {
        if (!stopped && run === latest) setSyncStatus(counts);
      },
      (error: unknown) => console.warn('sync status query failed', error),
    );
  };
  const onChange = (parts: ObservabilitySet) => {
    if (cancel === undefined && !stopped && touchesCounts(db, parts)) cancel = schedule(read);
  };
  Dexie.on.storagemutated.subscribe(onChange);
  read();
  return () => {
    stopped = true;
    cancel?.();
    Dexie.on.storagemutated.unsubscribe(onChange);
  };
}
