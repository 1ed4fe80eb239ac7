/**
 * Dexie live queries feeding the sync store: pending user actions and dead letters of the logged-in user, last sync,
 * writes lost by a restored server. They fire on every change of the tables, also from other tabs.
 */
import { liveQuery } from 'dexie';
import type { LocalDatabase } from '../db/local-db';
import { setSyncStatus } from '../stores/sync-store';
import { countUserActions, readState, stateKeys } from './outbox';

export function watchSyncCounts(db: LocalDatabase, getUser: () => string | null): () => void {
  const subscription = liveQuery(async () => {
    const user = getUser();
    const entries = await db.outbox.toArray();
    const letters = await db.deadLetters.toArray();
    return {
      pendingCount: countUserActions(entries.filter((entry) => entry.usernodeid === user)),
      otherUsersPendingCount: countUserActions(entries.filter((entry) => entry.usernodeid !== user)),
      deadLetterCount: letters.filter((letter) => letter.usernodeid === user).length,
      lastSyncAt: (await readState<number>(db, stateKeys.lastSyncAt)) ?? null,
      serverLostWrites: (await readState<number>(db, stateKeys.serverLostWrites)) ?? 0,
    };
  }).subscribe({
    next: (counts) => setSyncStatus(counts),
    error: (error: unknown) => console.warn('sync status query failed', error),
  });
  return () => subscription.unsubscribe();
}
