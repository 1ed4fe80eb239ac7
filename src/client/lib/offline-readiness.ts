/**
 * Whether this device can start the app without a connection: the service worker has stored the app's files
 * (its precache) and is active. Until then a reload or a screen opened offline has nothing to start from — the
 * browser's own "no internet" page — though the data may be synced already, so the app bar must not say
 * "Synchronisiert" yet (sync-status-slot.tsx). Set by `register-sw.ts`; a module of its own without workbox, so the
 * app bar reads it without loading the registration code.
 *
 * - `unknown`: no service worker here (the dev server, a browser without one, registration refused or pending):
 *   nothing to wait for that the app could tell.
 * - `preparing`: a first install is storing the files (or failed and waits for the connection to try again).
 * - `ready`: an active worker serves the app's files (an update installing beside it does not change that).
 */
import { useSyncExternalStore } from 'react';

export type OfflineReadiness = 'unknown' | 'preparing' | 'ready';

let readiness: OfflineReadiness = 'unknown';
const listeners = new Set<() => void>();

export function offlineReadiness(): OfflineReadiness {
  return readiness;
}

export function setOfflineReadiness(next: OfflineReadiness): void {
  if (next === readiness) return;
  readiness = next;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useOfflineReadiness(): OfflineReadiness {
  return useSyncExternalStore(subscribe, offlineReadiness, offlineReadiness);
}
