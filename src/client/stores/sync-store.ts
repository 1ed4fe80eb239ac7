/**
 * What the app shows about offline sync (app bar slot, sync panel, progress bar, logout warning). Fed by the
 * sync engine (sending, errors, progress) and by Dexie live queries over the outbox (counts), both in
 * src/client/sync/; screens only read it.
 */
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

export type SyncErrorKind =
  /** No answer from the server (offline, DNS, timeout). Retried with backoff. */
  | 'network'
  /** 5xx, 408, 429 or an unexpected answer. Retried with backoff. */
  | 'server'
  /** The refresh token is dead: the queue waits for the next login. */
  | 'session'
  /** The device's storage is full: a write could not be saved. */
  | 'quota'
  /** The server does not take this device yet: the user registered too many new devices today (NEW_DEVICES_PER_DAY). */
  | 'devices';

export interface SyncError {
  kind: SyncErrorKind;
  /** Technical detail for the panel ("HTTP 503"). */
  detail?: string;
  /** Device time of the next automatic attempt, for display. */
  retryAt?: number;
}

export interface InitialSyncProgress {
  active: boolean;
  counts: Record<string, number>;
}

export interface SyncStatus {
  online: boolean;
  /** Unsent user actions of the logged-in user (a report with its photo is one, however many requests it takes). */
  pendingCount: number;
  /** Unsent user actions of other users of this device (sent at their next login). */
  otherUsersPendingCount: number;
  deadLetterCount: number;
  /** The user's next change keeps failing on a server error: the ones behind it wait until it is set aside (sync panel). */
  stuck: boolean;
  /** Last successful pull (device time, display only). */
  lastSyncAt: number | null;
  sending: boolean;
  pulling: boolean;
  error: SyncError | null;
  initialSync: InitialSyncProgress;
  /** Writes a server restored from a backup lost and this device could no longer resend. */
  serverLostWrites: number;
  /** navigator.storage.persist() answer; null = not asked / not supported. */
  storagePersisted: boolean | null;
  /** Another tab upgraded the local database: this tab can no longer save and must be reloaded. */
  localDbOutdated: boolean;
}

export const initialSyncStatus: SyncStatus = {
  online: typeof navigator === 'undefined' ? true : navigator.onLine,
  pendingCount: 0,
  otherUsersPendingCount: 0,
  deadLetterCount: 0,
  stuck: false,
  lastSyncAt: null,
  sending: false,
  pulling: false,
  error: null,
  initialSync: { active: false, counts: {} },
  serverLostWrites: 0,
  storagePersisted: null,
  localDbOutdated: false,
};

export const syncStore = createStore<SyncStatus>()(() => initialSyncStatus);

export function setSyncStatus(patch: Partial<SyncStatus>): void {
  syncStore.setState(patch);
}

export function useSyncStatus<T>(selector: (state: SyncStatus) => T): T {
  return useStore(syncStore, selector);
}
