/// <reference lib="webworker" />
// The app's service worker (built by vite-plugin-pwa, strategy injectManifest). It makes the shell work with no
// network: every built asset is precached, and any navigation that is not an API call is answered with the
// cached index.html so the client router can take over. API responses are never cached here: offline data
// lives in the client's Dexie mirror (docs/sync.md), not in the HTTP cache.
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

/** What workbox-window's `Workbox.messageSkipWaiting()` posts (src/client/app/register-sw.ts). */
const SKIP_WAITING_TYPE = 'SKIP_WAITING';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<string | { url: string; revision: string | null }> };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [/^\/api(\/|$)/] }));

// why only on request: a new version must not take over a tab in the middle of a form; the page asks for it
// (update prompt, a later issue) with the message workbox-window's messageSkipWaiting() sends.
self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data: unknown = event.data;
  if (typeof data === 'object' && data !== null && (data as { type?: unknown }).type === SKIP_WAITING_TYPE) {
    void self.skipWaiting();
  }
});

// Background Sync (Chromium): the page registers the tag 'outbox' after every local write. When the browser
// fires it (network back), the worker does not send anything itself — the outbox logic, tokens and locks live
// in the page — it wakes the open pages, whose sync engine then runs (src/client/sync/sync-engine.ts).
// With no page open there is nothing to do; the next app start sends. Replay never depends on this event.
const BACKGROUND_SYNC_TAG = 'outbox';
const SYNC_MESSAGE_TYPE = 'SYNC_OUTBOX';

interface SyncEventLike extends ExtendableEvent {
  readonly tag: string;
}

self.addEventListener('sync' as keyof ServiceWorkerGlobalScopeEventMap, (event) => {
  const syncEvent = event as SyncEventLike;
  if (syncEvent.tag !== BACKGROUND_SYNC_TAG) return;
  syncEvent.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      for (const client of windows) client.postMessage({ type: SYNC_MESSAGE_TYPE });
    }),
  );
});

clientsClaim();
