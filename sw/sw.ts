/// <reference lib="webworker" />
// The app's service worker (built by vite-plugin-pwa, strategy injectManifest). It makes the shell work with no
// network: every built asset is precached, and any navigation that is not an API call is answered with the
// cached index.html so the client router can take over. API responses are never cached here: offline data
// lives in the client's Dexie mirror (docs/sync-protocol.md), not in the HTTP cache.
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

clientsClaim();
