/**
 * The app's sync engine over the app's database, API client and session, and the actions the sync panel and
 * the logout dialog call. Loaded on demand through app-sync.ts, so Dexie stays out of the shell chunk.
 */
import { getLocalDb, onLocalDbOutdated } from '../db/local-db';
import { api } from '../lib/api';
import { sessionStore } from '../stores/session-store';
import { setSyncStatus, syncStore } from '../stores/sync-store';
import { refreshOfflineMachines } from './offline-files';
import { createSyncEngine, type SyncEngine } from './sync-engine';
import type { SetAsideOutcome } from './sender';
import type { RetryAllOutcome } from './dead-letters';

let engine: SyncEngine | null = null;

onLocalDbOutdated(() => setSyncStatus({ localDbOutdated: true }));

export function getAppSyncEngine(): SyncEngine {
  engine ??= createSyncEngine({
    db: getLocalDb(),
    api,
    getUser: () => sessionStore.getState().session?.usernodeid ?? null,
    afterChanges: () => void refreshOfflineMachines(),
  });
  return engine;
}

/**
 * Asks the browser not to evict this site's storage under pressure (docs/sync.md § Storage). Chromium
 * grants it to installed / engaged apps; Safari may not. The answer is shown in the sync panel.
 */
export async function requestPersistentStorage(): Promise<void> {
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
  if (!storage?.persist) return;
  try {
    const persisted = (await storage.persisted?.()) || (await storage.persist());
    setSyncStatus({ storagePersisted: persisted });
  } catch {
    setSyncStatus({ storagePersisted: false });
  }
}

/** Opens the app's database (creating or upgrading it) before the engine needs it. */
export async function openLocalDb(): Promise<void> {
  // An outdated tab closed its database for another tab's upgrade; it waits for the reload.
  if (syncStore.getState().localDbOutdated) return;
  await getLocalDb().open();
}

export function syncNow(): Promise<void> {
  return getAppSyncEngine().syncNow();
}

/** "Zurückstellen": the write the server keeps failing on becomes a refused change; the queue goes on. */
export function setAsideStuckChange(seq: number): Promise<SetAsideOutcome> {
  return getAppSyncEngine().setAside(seq);
}

// why lazy: what the panel does with a refused change (and the mutation registry it reads) is needed only once the
// user acts on one; the runtime is on every signed-in start (W8's total).
const deadLetters = () => import('./dead-letters');

export async function retryRefusedChange(id: number): Promise<void> {
  await (await deadLetters()).retryDeadLetter(getLocalDb(), id);
}

/** "Alle erneut senden"; how many refused changes could not be queued again. */
export async function retryAllRefusedChanges(usernodeid: string): Promise<RetryAllOutcome> {
  return (await deadLetters()).retryAllDeadLetters(getLocalDb(), usernodeid);
}

export async function reassignRefusedChange(id: number, equipmentnodeid: string): Promise<void> {
  await (await deadLetters()).reassignDeadLetter(getLocalDb(), id, equipmentnodeid);
}

export async function discardRefusedChange(id: number): Promise<void> {
  await (await deadLetters()).discardDeadLetter(getLocalDb(), id);
}
