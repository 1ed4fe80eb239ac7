/**
 * Runs sending and pulling in the browser (docs/sync.md § One sender, § Triggers).
 *
 * - Triggers: start, `online`, the tab becoming visible, a timer, every local write (in any tab: BroadcastChannel
 *   nudge), and the service worker's Background Sync event (Chromium; it posts {type: 'SYNC_OUTBOX'} to the
 *   pages). Replay never depends on Background Sync: the other triggers cover every browser.
 * - One tab at a time: a Web Lock ('anlagenbuch-sync', ifAvailable). A tab that finds it taken leaves the work to
 *   the holder; if the holder makes no progress for several rounds (frozen tab keeps its lock), this tab sends
 *   anyway — the server's mutation log makes a double send harmless. The tab that ran tells the others how it went
 *   (`outcome` on the channel), so a tab that left the run to it does not keep showing its own last failure.
 * - A run: send the outbox (sender.ts), then pull (pull.ts). Transient failures are retried after the backoff
 *   the sender computed; the state is published to the sync store for the app bar.
 */
import Dexie from 'dexie';
import type { LocalDatabase } from '../db/local-db';
import { isQuotaExceeded } from '../db/local-db';
import { isApiError, type ApiClient } from '../lib/api-client';
import { isTooManyNewDevices } from '../../shared/api/sync';
import { setSyncStatus, syncStore, type SyncError } from '../stores/sync-store';
import { watchSyncCounts } from './live-status';
import { getClientId, onLocalWrite, onWriteError, pendingEntries } from './outbox';
import { ensureMirrorOwner, pull } from './pull';
import { createWorkerFilePut, type FilePut } from './file-put';
import { createSender, type BackoffOptions, type DrainOutcome, type SetAsideOutcome } from './sender';

export const SYNC_LOCK_NAME = 'anlagenbuch-sync';
export const SYNC_CHANNEL_NAME = 'anlagenbuch-sync';
/** What sw/sw.ts posts to the pages on a Background Sync event. */
export const SW_SYNC_MESSAGE = 'SYNC_OUTBOX';
export const BACKGROUND_SYNC_TAG = 'outbox';
const TIMER_MS = 60_000;
/** How long "Zurückstellen" waits for another tab's run to let go of the lock before it says it cannot now. */
const SET_ASIDE_LOCK_WAIT_MS = 30_000;
/** Rounds a lock may be held elsewhere without the queue moving before this tab sends anyway. */
const STALE_LEADER_ROUNDS = 3;

export interface SyncEngineDeps {
  db: LocalDatabase;
  api: ApiClient;
  getUser(): string | null;
  /** Base of relative signed upload URLs; default location.origin. */
  origin?: string;
  /** Backoff of the sender (tests shorten it). */
  backoff?: BackoffOptions;
  /**
   * Called after a pull that brought changes, without waiting for it: the app fetches the new files of the machines
   * kept offline (a document added at the desk is on the tablet before the technician walks into the hall).
   */
  afterChanges?(): void;
}

/**
 * What the tabs tell each other on SYNC_CHANNEL_NAME: a local write (`nudge`: run, the outbox has something new), or
 * how a run went (`outcome`: the error it left, none after a good one). The last pull's time needs no message: every
 * tab reads it from the shared local database (live-status.ts).
 */
type SyncChannelMessage = { type: 'nudge' } | { type: 'outcome'; usernodeid: string; error: SyncError | null };

/** The errors a run answers for every tab: the connection and the server are the same for all of them. */
const isSharedError = (error: SyncError | null): boolean => error === null || error.kind === 'network' || error.kind === 'server';

interface SyncManagerLike {
  register(tag: string): Promise<void>;
}

/**
 * File uploads in a worker (file-put.ts), started on the first upload, not with the app: most runs send no file.
 * Where the browser cannot start it, on this thread.
 */
function putFileInWorker(database: string, onThisThread: FilePut): FilePut {
  let put: FilePut | undefined;
  return (url, key, timeoutMs) => {
    if (!put) {
      try {
        put = createWorkerFilePut(new Worker(new URL('./file-put.worker.ts', import.meta.url), { type: 'module', name: 'file-put' }), database, onThisThread);
      } catch {
        put = onThisThread;
      }
    }
    return put(url, key, timeoutMs);
  };
}

export function createSyncEngine(deps: SyncEngineDeps) {
  const { db } = deps;
  const sender = createSender({
    db,
    api: deps.api,
    getUser: deps.getUser,
    origin: deps.origin ?? (typeof location === 'undefined' ? undefined : location.origin),
    ...(deps.backoff ? { backoff: deps.backoff } : {}),
    ...(typeof Worker === 'undefined' ? {} : { putFileVia: (onThisThread: FilePut) => putFileInWorker(db.name, onThisThread) }),
  });
  let running: Promise<void> | null = null;
  let again = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let busyRounds = 0;
  let lastHead: number | undefined;
  let stopped = true;
  const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(SYNC_CHANNEL_NAME);

  function publishOutcome(outcome: DrainOutcome): void {
    switch (outcome.type) {
      case 'backoff': {
        const network = /fetch|network|timeout|abort/i.test(outcome.error) || (typeof navigator !== 'undefined' && !navigator.onLine);
        setSyncStatus({ error: { kind: network ? 'network' : 'server', detail: outcome.error, retryAt: Date.now() + outcome.retryInMs } });
        clearTimeout(retryTimer);
        retryTimer = setTimeout(runIfOnline, outcome.retryInMs);
        break;
      }
      case 'session-expired':
        setSyncStatus({ error: { kind: 'session' } });
        break;
      default:
        if (syncStore.getState().error?.kind !== 'quota') setSyncStatus({ error: null });
    }
  }

  async function runOnce(): Promise<void> {
    const user = deps.getUser();
    if (!user) return;
    // "Wird gesendet" only when something waits: every visibility or timer run found an empty outbox, and its two
    // app-bar renders (on, off) came before the pull's request (W2, docs/sync.md § Applying a pulled page).
    const toSend = (await pendingEntries(db, await getClientId(db, user), 1)).length > 0;
    if (toSend) setSyncStatus({ sending: true });
    let outcome: DrainOutcome;
    try {
      outcome = (await sender.drain()).outcome;
    } finally {
      if (toSend) setSyncStatus({ sending: false });
    }
    publishOutcome(outcome);
    if (outcome.type === 'session-expired' || outcome.type === 'no-session') return;
    const clientId = await getClientId(db, user);
    await ensureMirrorOwner(db, user);
    setSyncStatus({ pulling: true });
    try {
      const result = await pull({
        db,
        api: deps.api,
        clientId,
        onProgress: (progress) => setSyncStatus({ initialSync: { active: progress.initial && !progress.done, counts: progress.counts } }),
      });
      // The counts (live-status.ts) would show it after their next read, paced behind the pull's writes.
      setSyncStatus({ lastSyncAt: result.syncedAt });
      if (result.changes > 0) deps.afterChanges?.();
      if (outcome.type === 'idle') setSyncStatus({ error: null });
    } catch (error) {
      setSyncStatus({ initialSync: { active: false, counts: syncStore.getState().initialSync.counts } });
      if (deps.getUser() === null) setSyncStatus({ error: { kind: 'session' } });
      else if (isApiError(error) && isTooManyNewDevices(error.statusCode, error.details)) setSyncStatus({ error: { kind: 'devices', detail: error.message } });
      else if (outcome.type === 'idle') setSyncStatus({ error: { kind: isApiError(error) && error.isNetworkError ? 'network' : 'server', detail: error instanceof Error ? error.message : String(error) } });
    } finally {
      setSyncStatus({ pulling: false });
    }
  }

  /** Tells the other tabs how this tab's run went (they left it to this one: the lock). */
  function broadcastOutcome(): void {
    const usernodeid = deps.getUser();
    const { error } = syncStore.getState();
    if (!channel || !usernodeid || !isSharedError(error)) return;
    const message: SyncChannelMessage = { type: 'outcome', usernodeid, error };
    channel.postMessage(message);
  }

  /**
   * Another tab's outcome, taken over where it answers for this tab too (isSharedError): a tab that found the lock
   * taken kept "Keine Verbindung zum Server" from its own last run beside "Synchronisiert" until its next timer run
   * (a probe with two tabs saw it for a minute). A full storage, an ended session or a refused device stays until
   * this tab's own run clears it.
   */
  function adoptOutcome(message: Extract<SyncChannelMessage, { type: 'outcome' }>): void {
    const state = syncStore.getState();
    if (message.usernodeid !== deps.getUser() || !isSharedError(state.error) || !isSharedError(message.error)) return;
    setSyncStatus({ error: message.error });
  }

  /** Runs under the tab lock when the browser has Web Locks; see the header for the stale-leader rule. */
  async function withLock(): Promise<void> {
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
    if (!locks) {
      await runOnce();
      return broadcastOutcome();
    }
    const got = await locks.request(SYNC_LOCK_NAME, { ifAvailable: true }, async (lock) => {
      if (!lock) return false;
      await runOnce();
      broadcastOutcome();
      return true;
    });
    if (got) {
      busyRounds = 0;
      return;
    }
    const user = deps.getUser();
    const head = user ? (await pendingEntries(db, await getClientId(db, user), 1))[0]?.mutationId : undefined;
    busyRounds = head !== undefined && head === lastHead ? busyRounds + 1 : 0;
    lastHead = head;
    if (busyRounds >= STALE_LEADER_ROUNDS) {
      busyRounds = 0;
      await runOnce();
      broadcastOutcome();
    }
  }

  /**
   * A run of a trigger (timer, backoff, visibility, another tab): not while the browser knows it has no network —
   * it could only fail, a request and a failed attempt each time; the `online` event starts the run when the
   * network is back. "Jetzt synchronisieren" always runs (the user asked, and sees the outcome).
   */
  function runIfOnline(): void {
    if (typeof navigator !== 'undefined' && navigator.onLine === false) return;
    void run();
  }

  /** Starts a run, or marks that another one is needed after the current. */
  function run(): Promise<void> {
    // An outdated tab (another tab upgraded the database) has closed its database; it waits for the reload.
    if (stopped || syncStore.getState().localDbOutdated) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await withLock();
        } while (again && !stopped);
      } catch (error) {
        if (isQuotaExceeded(error)) setSyncStatus({ error: { kind: 'quota' } });
        else console.warn('sync run failed', error);
      } finally {
        running = null;
      }
    })();
    return running;
  }

  function registerBackgroundSync(): void {
    if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
    void navigator.serviceWorker.ready
      .then((registration) => (registration as ServiceWorkerRegistration & { sync?: SyncManagerLike }).sync?.register(BACKGROUND_SYNC_TAG))
      .catch(() => undefined); // not supported or not permitted: the other triggers cover it
  }

  function start(): () => void {
    stopped = false;
    const cleanups: (() => void)[] = [];
    const on = <K extends keyof WindowEventMap>(target: Window, type: K, listener: () => void) => {
      target.addEventListener(type, listener);
      cleanups.push(() => target.removeEventListener(type, listener));
    };
    on(window, 'online', () => {
      setSyncStatus({ online: true });
      void run();
    });
    on(window, 'offline', () => setSyncStatus({ online: false }));
    const onVisible = () => {
      if (document.visibilityState === 'visible') runIfOnline();
    };
    document.addEventListener('visibilitychange', onVisible);
    cleanups.push(() => document.removeEventListener('visibilitychange', onVisible));
    const timer = setInterval(runIfOnline, TIMER_MS);
    cleanups.push(() => clearInterval(timer));
    cleanups.push(
      onLocalWrite(() => {
        if (syncStore.getState().error?.kind === 'quota') setSyncStatus({ error: null });
        channel?.postMessage({ type: 'nudge' } satisfies SyncChannelMessage);
        registerBackgroundSync();
        // Offline, a run per write would read the queue and count a failed attempt against its head each time.
        // why outside any transaction: a listener called in one (a write inside another's) would run the sender in
        // it; without Web Locks nothing else puts the run into a task of its own.
        Dexie.ignoreTransaction(() => runIfOnline());
      }),
    );
    cleanups.push(onWriteError((error) => isQuotaExceeded(error) && setSyncStatus({ error: { kind: 'quota' } })));
    if (channel) {
      // why an outcome starts no run: the tab that ran has just sent and pulled, and each run's outcome would start
      // a run in the other tab, whose outcome starts one here, without end.
      const onMessage = (event: MessageEvent<SyncChannelMessage>) => (event.data?.type === 'outcome' ? adoptOutcome(event.data) : runIfOnline());
      channel.addEventListener('message', onMessage);
      cleanups.push(() => channel.removeEventListener('message', onMessage));
    }
    if (typeof navigator !== 'undefined' && 'serviceWorker' in navigator) {
      const onSwMessage = (event: MessageEvent) => {
        if ((event.data as { type?: unknown } | null)?.type === SW_SYNC_MESSAGE) void run();
      };
      navigator.serviceWorker.addEventListener('message', onSwMessage);
      cleanups.push(() => navigator.serviceWorker.removeEventListener('message', onSwMessage));
    }
    cleanups.push(watchSyncCounts(db, deps.getUser));
    setSyncStatus({ online: typeof navigator === 'undefined' ? true : navigator.onLine });
    void run();
    return () => {
      stopped = true;
      clearTimeout(retryTimer);
      cleanups.forEach((cleanup) => cleanup());
    };
  }

  /**
   * "Zurückstellen" in the sync panel (sender.ts `setAside`): after this tab's run, under the tab lock — waited for
   * (at most SET_ASIDE_LOCK_WAIT_MS: a frozen tab may hold it), so the senders that keep to the lock do not send
   * the entry meanwhile. What holds for any sender is the server's lock (docs/sync.md § Setting aside). Then a run
   * sends what waited behind it.
   */
  async function setAside(seq: number): Promise<SetAsideOutcome> {
    await running;
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
    try {
      return locks ? await locks.request(SYNC_LOCK_NAME, { signal: AbortSignal.timeout(SET_ASIDE_LOCK_WAIT_MS) }, () => sender.setAside(seq)) : await sender.setAside(seq);
    } finally {
      void run();
    }
  }

  return {
    start,
    /** "Jetzt synchronisieren": run now, resolve when done. */
    syncNow: run,
    setAside,
  };
}

export type SyncEngine = ReturnType<typeof createSyncEngine>;
