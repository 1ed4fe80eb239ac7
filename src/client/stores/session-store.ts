/**
 * The logged-in session (spec part 2 §3): tokens, ids, plans, days left, and what the UI needs to mirror
 * permissions (the user's profile) and greet the user. Held in memory and persisted encrypted through the
 * session vault (src/client/lib/session-vault.ts). Restored on app start before the router renders.
 */
import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { DeviceCredentials, RefreshResponse } from '../../shared/api/auth';
import { can, type FeatureKey, type PermissionFlag, type PermissionSubject } from '../../shared/permissions';
import type { KeyStore } from '../db/key-store';
import type { TokenSource } from '../lib/api-client';
import { createSessionVault, SESSION_STORAGE_KEY, type SessionVault } from '../lib/session-vault';
import type { StoredSession } from './stored-session';

export type { StoredSession } from './stored-session';

// why lazy: the schema module carries zod (and the shared auth schemas), the key store carries Dexie; a guest's
// first route needs neither (docs/client.md § What loads when). Both load once, when first needed.
const loadParser = () => import('./stored-session').then((m) => m.parseStoredSession);

/** Starts loading the session's schema while the key store opens and decrypts (a cold start with a stored session). */
export function preloadSessionParser(): void {
  void loadParser().catch(() => undefined); // a failure shows again in restore(), which handles it
}

export type SessionStatus = 'restoring' | 'ready';
/** Why the last session ended: the login screen shows a notice for 'expired'. */
export type SessionEndReason = 'expired' | 'logout';

export interface SessionState {
  status: SessionStatus;
  session: StoredSession | null;
  endReason: SessionEndReason | null;
  /** Loads the persisted session (app start). */
  restore(): Promise<void>;
  /** Starts a session after login and persists it. */
  start(session: StoredSession): Promise<void>;
  /** Stores a refreshed token pair. */
  setTokens(pair: RefreshResponse): Promise<void>;
  /** Updates fields learned after login (chat room, ...). */
  update(patch: Partial<Pick<StoredSession, 'chatroomnodeid' | 'daysLeft'>>): Promise<void>;
  /** Clears memory, the encrypted blob and its key. */
  end(reason: SessionEndReason): Promise<void>;
}

export type SessionStore = StoreApi<SessionState>;

export function createSessionStore(getVault: () => SessionVault): SessionStore {
  // why serialised writes: a token refresh and a logout can overlap; the blob must end in the state of the last call.
  let writes: Promise<unknown> = Promise.resolve();
  const persist = (task: (vault: SessionVault) => Promise<void>): Promise<void> => {
    const next = writes.then(() => task(getVault()));
    writes = next.catch(() => undefined);
    return next;
  };

  return createStore<SessionState>()((set, get) => ({
    status: 'restoring',
    session: null,
    endReason: null,

    async restore() {
      let session: StoredSession | null = null;
      try {
        const raw = await getVault().load();
        if (raw !== null) {
          session = (await loadParser())(raw);
          if (session === null) await persist((vault) => vault.clear());
        }
      } catch {
        session = null; // IndexedDB unavailable (private mode, blocked): start logged out
      }
      set({ status: 'ready', session });
    },

    async start(session) {
      // why stored before it is shown: setting it shows the dashboard, and a reload or a sticker URL opened in the
      // moments after (the save makes a key in IndexedDB, then writes the blob) found nothing and showed the login
      // again. A save that fails (no IndexedDB) still signs in, for this page only.
      try {
        await persist((vault) => vault.save(session));
      } finally {
        set({ session, endReason: null, status: 'ready' });
      }
    },

    async setTokens(pair) {
      const current = get().session;
      if (!current) return;
      const session = { ...current, accesstoken: pair.accesstoken, refreshtoken: pair.refreshtoken };
      set({ session });
      await persist((vault) => vault.save(session));
    },

    async update(patch) {
      const current = get().session;
      if (!current) return;
      const session = { ...current, ...patch };
      set({ session });
      await persist((vault) => vault.save(session));
    },

    async end(reason) {
      const hadSession = get().session !== null;
      // An explicit logout always wins: a refresh that failed during it must not leave a "session expired" notice.
      set({ session: null, endReason: reason === 'logout' || hadSession ? reason : get().endReason });
      await persist((vault) => vault.clear());
    },
  }));
}

/** Re-reads the persisted session, e.g. after another tab refreshed the tokens or logged out. */
export async function reloadFromVault(store: SessionStore, vault: SessionVault): Promise<void> {
  const raw = await vault.load();
  const parsed = raw === null ? null : (await loadParser())(raw);
  const before = store.getState().session;
  if (parsed) {
    if (before?.accesstoken !== parsed.accesstoken || before.refreshtoken !== parsed.refreshtoken) store.setState({ session: parsed });
  } else if (before) {
    store.setState({ session: null, endReason: 'logout' });
  }
}

/** Adapts a session store to the API client's token interface. */
export function sessionTokenSource(store: SessionStore, vault?: () => SessionVault, device?: () => Promise<DeviceCredentials>): TokenSource {
  return {
    ...(device ? { getDevice: device } : {}),
    getAccessToken: () => store.getState().session?.accesstoken ?? null,
    getRefreshToken: () => store.getState().session?.refreshtoken ?? null,
    setTokens: (pair) => store.getState().setTokens(pair),
    endSession: () => store.getState().end('expired'),
    ...(vault ? { reload: () => reloadFromVault(store, vault()) } : {}),
    withRefreshLock: (run) => {
      // why: refresh tokens rotate; two tabs refreshing with the same token would make one of them fail and end
      // the session. The lock plus `reload` lets the second tab pick up the first tab's new pair instead.
      const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
      return locks ? (locks.request('anlagenbuch-token-refresh', run) as Promise<Awaited<ReturnType<typeof run>>>) : run();
    },
  };
}

// ---- the app's instance ------------------------------------------------------------------------------------

type AppKeyStore = KeyStore & { deviceCredentials(): Promise<DeviceCredentials> };
let appKeyStore: Promise<AppKeyStore> | null = null;
let appVault: SessionVault | null = null;
/**
 * Created on first use, so importing this module in Node (tests) does not touch IndexedDB or localStorage; loaded
 * on first use, so Dexie arrives only with a stored session, a login or the data mirror.
 */
function getAppKeyStore(): Promise<AppKeyStore> {
  appKeyStore ??= import('../db/key-store').then((m) => m.createKeyStore());
  return appKeyStore;
}
const lazyKeyStore: KeyStore = {
  get: async (id) => (await getAppKeyStore()).get(id),
  put: async (id, key) => (await getAppKeyStore()).put(id, key),
  delete: async (id) => (await getAppKeyStore()).delete(id),
};
export function getAppSessionVault(): SessionVault {
  appVault ??= createSessionVault({ storage: window.localStorage, keyStore: lazyKeyStore });
  return appVault;
}

/** This device's client id and secret (made once, kept in IndexedDB), sent on login and refresh. */
export async function getDeviceCredentials(): Promise<DeviceCredentials> {
  return (await getAppKeyStore()).deviceCredentials();
}

export const sessionStore = createSessionStore(getAppSessionVault);

export function useSessionStore<T>(selector: (state: SessionState) => T): T {
  return useStore(sessionStore, selector);
}

/** Follows logins, refreshes and logouts of other tabs of the app (the `storage` event fires only there). */
export function watchOtherTabs(): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === SESSION_STORAGE_KEY || event.key === null) void reloadFromVault(sessionStore, getAppSessionVault());
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}

/** Permission check against the session's profile (spec part 2 §6); false when logged out. */
/** Who the session's user is for a permission check; null when logged out. */
export function sessionSubject(session: StoredSession | null): PermissionSubject | null {
  return session ? { admin: session.userinfo.admin, features: session.profile?.features ?? {} } : null;
}

export function sessionCan(session: StoredSession | null, feature: FeatureKey, flag: PermissionFlag): boolean {
  const subject = sessionSubject(session);
  return subject !== null && can(subject, feature, flag);
}
