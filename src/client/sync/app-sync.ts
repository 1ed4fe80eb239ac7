/**
 * Entry to the app's sync runtime (app-sync-runtime.ts), loaded on first use: the engine, Dexie and the panel's
 * actions are a lazy chunk, so the shell that renders the login stays small. Screens import from here.
 */
import { useEffect } from 'react';
import { useSessionStore } from '../stores/session-store';
import type { SetAsideOutcome } from './sender';
import type { RetryAllOutcome } from './dead-letters';

const loadRuntime = () => import('./app-sync-runtime');

/** Starts syncing for the logged-in user and stops on logout (the queue stays on the device). */
export function useSyncEngineLifecycle(): void {
  const usernodeid = useSessionStore((state) => state.session?.usernodeid ?? null);
  useEffect(() => {
    if (!usernodeid) return undefined;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void loadRuntime().then((runtime) => {
      if (cancelled) return;
      stop = runtime.getAppSyncEngine().start();
      void runtime.requestPersistentStorage();
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [usernodeid]);
}

/**
 * Loads the sync runtime and opens the local database ahead of the engine's start (a login was submitted): on a
 * fresh device the open creates every table. Best effort: the engine's start loads and opens them anyway.
 */
export function preloadSyncRuntime(): void {
  void loadRuntime()
    .then((runtime) => runtime.openLocalDb())
    .catch(() => undefined);
}

export async function syncNow(): Promise<void> {
  await (await loadRuntime()).syncNow();
}

export async function retryRefusedChange(id: number): Promise<void> {
  await (await loadRuntime()).retryRefusedChange(id);
}

/** "Alle erneut senden": every refused change of the user queued again; how many could not be. */
export async function retryAllRefusedChanges(usernodeid: string): Promise<RetryAllOutcome> {
  return (await loadRuntime()).retryAllRefusedChanges(usernodeid);
}

/** Gives a refused report whose machine is gone another machine and sends it again with what was written on it. */
export async function reassignRefusedChange(id: number, equipmentnodeid: string): Promise<void> {
  await (await loadRuntime()).reassignRefusedChange(id, equipmentnodeid);
}

export async function discardRefusedChange(id: number): Promise<void> {
  await (await loadRuntime()).discardRefusedChange(id);
}

/** "Zurückstellen": the write the server keeps failing on is set aside among the refused changes (sender.ts `setAside`). */
export async function setAsideStuckChange(seq: number): Promise<SetAsideOutcome> {
  return (await loadRuntime()).setAsideStuckChange(seq);
}

/**
 * Whether "Erneut senden" failed because the change's record is gone from the device (outbox.ts `RecordGoneError`):
 * by name, so the panel in the shell does not load the outbox to ask.
 */
export function isRecordGone(error: unknown): boolean {
  return error instanceof Error && error.name === 'RecordGoneError';
}
