import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalDatabase } from '../../src/client/db/local-db';
import { createApiClient } from '../../src/client/lib/api-client';
import { setSyncStatus, syncStore } from '../../src/client/stores/sync-store';
import { createNotification } from '../../src/client/sync/repositories/notifications';
import { readState, stateKeys } from '../../src/client/sync/outbox';
import { createSyncEngine, SYNC_CHANNEL_NAME } from '../../src/client/sync/sync-engine';
import { TOO_MANY_NEW_DEVICES } from '../../src/shared/api/sync';
import { fixedTokens, MACHINE, USER, useSyncTestServer } from './support/sync-test-server';


const server = useSyncTestServer();
beforeEach(() => {
  // why: the engine listens to `online`/`visibilitychange` on window/document, which Node lacks; plain
  // EventTargets carry the same events. The navigator stand-in has no Web Locks, so this also proves the engine
  // works without them; BroadcastChannel (Node's), Dexie (fake-indexeddb) and the HTTP server are real.
  vi.stubGlobal('window', new EventTarget());
  vi.stubGlobal('document', Object.assign(new EventTarget(), { visibilityState: 'visible' }));
  vi.stubGlobal('navigator', { onLine: true });
});
afterEach(() => vi.unstubAllGlobals());

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 3_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('sync engine', () => {
  // why first: an engine of an earlier test, stopped with its last run still on the way, posts that run's outcome on
  // the same channel, and this test's engine would take it over.
  it('tells the other tabs how its run went; a tab that left the run to another takes that over and starts no run for it', async () => {
    const db = new LocalDatabase(`engine-test-${Math.random()}`);
    const api = createApiClient({ baseUrl: server.baseUrl, tokens: fixedTokens });
    const engine = createSyncEngine({ db, api, getUser: () => USER, origin: server.origin });
    const stop = engine.start();
    // The other tab: Node's BroadcastChannel, as a second tab's engine has it.
    const otherTab = new BroadcastChannel(SYNC_CHANNEL_NAME);
    const heard: unknown[] = [];
    otherTab.addEventListener('message', (event) => heard.push((event as MessageEvent).data));
    try {
      await engine.syncNow();
      const told = { type: 'outcome', usernodeid: USER, error: null };
      await until(() => heard.some((message) => JSON.stringify(message) === JSON.stringify(told)));

      // This tab's last run failed; the other tab's run went through: this one no longer says "no connection".
      const before = server.requests.length;
      setSyncStatus({ error: { kind: 'network', detail: 'Failed to fetch' } });
      otherTab.postMessage({ type: 'outcome', usernodeid: USER, error: null });
      await until(() => syncStore.getState().error === null);
      // …and the other tab's failure is this one's too (same connection, same server).
      otherTab.postMessage({ type: 'outcome', usernodeid: USER, error: { kind: 'server', detail: 'HTTP 503' } });
      await until(() => syncStore.getState().error?.kind === 'server');

      // What is this tab's own stays: a full storage; and another user's outcome is not this user's.
      setSyncStatus({ error: { kind: 'quota' } });
      otherTab.postMessage({ type: 'outcome', usernodeid: USER, error: null });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(syncStore.getState().error).toEqual({ kind: 'quota' });
      const network = { kind: 'network' as const };
      setSyncStatus({ error: network });
      otherTab.postMessage({ type: 'outcome', usernodeid: 'someone-else', error: null });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(syncStore.getState().error).toEqual(network);
      // An outcome is no trigger: each run's outcome would start a run in the other tab, and its outcome one here.
      expect(server.requests.length).toBe(before);
    } finally {
      otherTab.close();
      setSyncStatus({ error: null });
      stop();
    }
  });

  it('says "sending" only when the outbox holds something to send', async () => {
    const db = new LocalDatabase(`engine-test-${Math.random()}`);
    const api = createApiClient({ baseUrl: server.baseUrl, tokens: fixedTokens });
    const engine = createSyncEngine({ db, api, getUser: () => USER, origin: server.origin });
    const stop = engine.start();
    await engine.syncNow();
    const sending: boolean[] = [];
    const unsubscribe = syncStore.subscribe((state, previous) => state.sending !== previous.sending && sending.push(state.sending));
    try {
      await engine.syncNow();
      expect(sending).toEqual([]);
      await createNotification({ db, usernodeid: USER }, { type: 0, title: 'Wartet', equipmentnodeid: MACHINE });
      await until(() => server.applied.length === 1 && sending.length === 2);
      expect(sending).toEqual([true, false]);
    } finally {
      unsubscribe();
      stop();
    }
  });

  /** A started engine that synced once and then lost the network (`navigator.onLine` false); the requests so far. */
  async function wentOffline() {
    const db = new LocalDatabase(`engine-test-${Math.random()}`);
    const api = createApiClient({ baseUrl: server.baseUrl, tokens: fixedTokens });
    const network = { onLine: true };
    vi.stubGlobal('navigator', network);
    const engine = createSyncEngine({ db, api, getUser: () => USER, origin: server.origin });
    const stop = engine.start();
    await engine.syncNow();
    network.onLine = false;
    return { db, engine, network, stop, before: server.requests.length };
  }

  it('offline, a local write starts no run (no request, no failed attempt); the `online` event sends it', async () => {
    const { db, network, stop, before } = await wentOffline();
    try {
      await createNotification({ db, usernodeid: USER }, { type: 0, title: 'Offline erfasst', equipmentnodeid: MACHINE });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(server.requests.length).toBe(before);
      expect((await db.outbox.toArray()).map((entry) => entry.attempts)).toEqual([0]);
      network.onLine = true;
      window.dispatchEvent(new Event('online'));
      await until(() => server.applied.length === 1);
    } finally {
      stop();
    }
  });

  it('offline, the automatic triggers (tab shown again, another tab) send no request; "Jetzt synchronisieren" still tries', async () => {
    const { engine, stop, before } = await wentOffline();
    try {
      document.dispatchEvent(new Event('visibilitychange'));
      new BroadcastChannel(SYNC_CHANNEL_NAME).postMessage({ type: 'nudge' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(server.requests.length).toBe(before);
      await engine.syncNow();
      expect(server.requests.length).toBeGreaterThan(before);
    } finally {
      stop();
    }
  });

  it('sends after a local write and pulls, without any other trigger; publishes the status', async () => {
    const db = new LocalDatabase(`engine-test-${Math.random()}`);
    const api = createApiClient({ baseUrl: server.baseUrl, tokens: fixedTokens });
    const engine = createSyncEngine({ db, api, getUser: () => USER, origin: server.origin });
    const stop = engine.start();
    try {
      await until(() => syncStore.getState().lastSyncAt !== null);
      await createNotification({ db, usernodeid: USER }, { type: 0, title: 'Sofort gesendet', equipmentnodeid: MACHINE });
      await until(() => server.applied.length === 1);
      await until(async () => (await db.outbox.count()) === 0 && syncStore.getState().pendingCount === 0 && !syncStore.getState().sending);
      expect(syncStore.getState().error).toBeNull();
    } finally {
      stop();
    }
  });

  it('shows the new last sync as soon as a pull has completed, not after the counts’ next read', async () => {
    const db = new LocalDatabase(`engine-test-${Math.random()}`);
    const api = createApiClient({ baseUrl: server.baseUrl, tokens: fixedTokens });
    const engine = createSyncEngine({ db, api, getUser: () => USER, origin: server.origin });
    const stop = engine.start();
    try {
      await until(() => syncStore.getState().lastSyncAt !== null);
      const first = syncStore.getState().lastSyncAt!;
      await new Promise((resolve) => setTimeout(resolve, 5));
      await engine.syncNow();
      const stored = await readState<number>(db, stateKeys.lastSyncAt);
      expect(stored).toBeGreaterThan(first);
      // The counts read again only after SYNC_COUNTS_SETTLE_MS: this is the engine's own.
      expect(syncStore.getState().lastSyncAt).toBe(stored);
    } finally {
      stop();
    }
  });

  it('tells the app after a pull that brought changes (offline machines refresh their files), not after an empty one', async () => {
    const db = new LocalDatabase(`engine-test-${Math.random()}`);
    const api = createApiClient({ baseUrl: server.baseUrl, tokens: fixedTokens });
    let calls = 0;
    const engine = createSyncEngine({ db, api, getUser: () => USER, origin: server.origin, afterChanges: () => (calls += 1) });
    server.feed.changes = [{ kind: 'equipment', nodeid: MACHINE, version: 1, data: { nodeid: MACHINE, name: 'Hydraulikpresse HP-200' } }];
    const stop = engine.start();
    try {
      await until(() => syncStore.getState().lastSyncAt !== null && calls === 1);
      await engine.syncNow();
      expect(calls).toBe(1);
      server.feed.changes.push({ kind: 'equipment', nodeid: MACHINE, version: 2, data: { nodeid: MACHINE, name: 'Hydraulikpresse HP-250' } });
      await engine.syncNow();
      expect(calls).toBe(2);
    } finally {
      stop();
    }
  });

  it('a device the server does not admit (too many new devices today) says so as something to act on, not as "server not answering"', async () => {
    const db = new LocalDatabase(`engine-test-${Math.random()}`);
    const api = createApiClient({ baseUrl: server.baseUrl, tokens: fixedTokens });
    const engine = createSyncEngine({ db, api, getUser: () => USER, origin: server.origin });
    const refusal = { statusCode: 429, error: 'Too Many Requests', message: 'Too many new devices for this user in the last 24 hours', details: [{ field: TOO_MANY_NEW_DEVICES.field, message: TOO_MANY_NEW_DEVICES.message }] };
    server.feed.faults = [{ status: 429, body: refusal }, { status: 429, body: { statusCode: 429, error: 'Too Many Requests', message: 'slow down' } }];
    const stop = engine.start();
    try {
      await until(() => syncStore.getState().error?.kind === 'devices');
      // Any other 429 is a hiccup, retried by itself.
      await engine.syncNow();
      expect(syncStore.getState().error?.kind).toBe('server');
      await engine.syncNow();
      expect(syncStore.getState().error).toBeNull();
    } finally {
      stop();
    }
  });

  it('a 5xx is retried by the backoff timer, and `online` triggers a run at once', async () => {
    const db = new LocalDatabase(`engine-test-${Math.random()}`);
    const api = createApiClient({ baseUrl: server.baseUrl, tokens: fixedTokens });
    const engine = createSyncEngine({ db, api, getUser: () => USER, origin: server.origin, backoff: { baseMs: 50, maxMs: 200 } });
    server.faults.push({ path: '/api/notifications', fault: 'fail-503' });
    await createNotification({ db, usernodeid: USER }, { type: 0, title: 'Später', equipmentnodeid: MACHINE });
    const stop = engine.start();
    try {
      await until(() => syncStore.getState().error?.kind === 'server');
      await until(() => server.applied.length === 1);
      expect(server.requests.filter((r) => r.path === '/api/notifications')).toHaveLength(2);

      await createNotification({ db, usernodeid: USER }, { type: 0, title: 'Nach dem Funkloch', equipmentnodeid: MACHINE });
      window.dispatchEvent(new Event('online'));
      await until(() => server.applied.length === 2);
    } finally {
      stop();
    }
  });

  it('"Zurückstellen" waits for the sync lock at most 30 s (a frozen tab may hold it), then fails and changes nothing', async () => {
    // why a stand-in: Node has no Web Locks. This one holds the sync lock for another tab for good, and honours
    // `ifAvailable` and `signal` as the browser's LockManager does.
    const locks = {
      request(_name: string, options: { ifAvailable?: boolean; signal?: AbortSignal }, callback: (lock: null) => unknown) {
        if (options.ifAvailable) return Promise.resolve(callback(null));
        return new Promise((_resolve, reject) => {
          const signal = options.signal!;
          if (signal.aborted) reject(signal.reason as Error);
          signal.addEventListener('abort', () => reject(signal.reason as Error));
        });
      },
    };
    vi.stubGlobal('navigator', { onLine: true, locks });
    const waited = new AbortController();
    const timeouts: number[] = [];
    // why: the wait's bound is AbortSignal.timeout's; the test ends it at once instead of after 30 real seconds.
    const timeout = vi.spyOn(AbortSignal, 'timeout').mockImplementation((ms) => {
      timeouts.push(ms);
      return waited.signal;
    });
    const db = new LocalDatabase(`engine-test-${Math.random()}`);
    const api = createApiClient({ baseUrl: server.baseUrl, tokens: fixedTokens });
    const engine = createSyncEngine({ db, api, getUser: () => USER, origin: server.origin });
    try {
      await createNotification({ db, usernodeid: USER }, { type: 0, title: 'Hängt', equipmentnodeid: MACHINE });
      const [entry] = await db.outbox.toArray();
      const outcome = engine.setAside(entry!.seq!);
      const settled = vi.fn();
      outcome.then(settled, settled);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(settled).not.toHaveBeenCalled();
      expect(timeouts).toEqual([30_000]);

      waited.abort(new DOMException('The lock was not granted in time', 'TimeoutError'));
      await expect(outcome).rejects.toMatchObject({ name: 'TimeoutError' });
      expect(server.requests.filter((request) => request.path.includes('set-aside'))).toEqual([]);
      expect(await db.outbox.toArray()).toMatchObject([{ seq: entry!.seq, mutationId: entry!.mutationId }]);
      expect(await db.deadLetters.count()).toBe(0);
    } finally {
      timeout.mockRestore();
    }
  });
});
