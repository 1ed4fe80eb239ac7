/**
 * Registers the service worker (sw/sw.ts, built to /sw.js) through workbox-window — production builds only, so
 * the dev server never serves stale precached code.
 * Update hook for the (later) update prompt: `onUpdateWaiting(listener)` fires when a new version is installed and
 * waiting; `applyUpdate()` tells it to take over (the worker skips waiting only on this message) and reloads once
 * it controls the page.
 */
import { Workbox } from 'workbox-window';
import { setOfflineReadiness } from './offline-readiness';

type Listener = () => void;

let workbox: Workbox | undefined;
let waiting = false;
const listeners = new Set<Listener>();

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  workbox = new Workbox('/sw.js', { scope: '/' });
  workbox.addEventListener('waiting', () => {
    waiting = true;
    listeners.forEach((listener) => listener());
  });
  workbox
    .register()
    .then((registration) => {
      if (registration) watchFirstInstall(registration);
    })
    .catch((error: unknown) => {
      console.warn('Service worker registration failed', error);
    });
}

/**
 * The first install stores every file of the app before the worker becomes active: until then the device cannot
 * start the app offline (lib/offline-readiness.ts). An install that failed — the connection went in the middle of
 * the download — leaves no worker; it is tried again as soon as the connection is back, not only at the next start.
 */
function watchFirstInstall(registration: ServiceWorkerRegistration): void {
  if (registration.active) {
    setOfflineReadiness('ready');
    return;
  }
  setOfflineReadiness('preparing');
  void navigator.serviceWorker.ready.then(() => setOfflineReadiness('ready'));
  window.addEventListener('online', () => {
    if (registration.active || registration.installing || registration.waiting) return;
    registration.update().catch(() => undefined);
  });
}

/** Subscribes to "a new version is waiting"; calls at once if one already is. Returns the unsubscribe. */
export function onUpdateWaiting(listener: Listener): () => void {
  listeners.add(listener);
  if (waiting) listener();
  return () => listeners.delete(listener);
}

export function applyUpdate(): void {
  if (!workbox || !waiting) return;
  workbox.addEventListener('controlling', () => window.location.reload());
  workbox.messageSkipWaiting();
}
