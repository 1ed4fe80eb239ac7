/**
 * The logged-in session (spec part 2 §3): tokens, ids, plans, days left, and what the UI needs to mirror
 * permissions (the user's profile) and greet the user. Held in memory and persisted encrypted through the
 * session vault (src/client/lib/session-vault.ts). Restored on app start before the router renders.
 */
import { z } from 'zod';
import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { planSchema, profileSchema, sessionSchema, type RefreshResponse, type Session } from '../../shared/api/auth';
import { computeTrialState } from '../../shared/domain/trial';
import { can, type FeatureKey, type PermissionFlag, type PermissionSubject } from '../../shared/permissions';
import { createKeyStore } from '../db/key-store';
import type { TokenSource } from '../lib/api-client';
import { createSessionVault, SESSION_STORAGE_KEY, type SessionVault } from '../lib/session-vault';

/** What is persisted. `v` changes when the shape does; an older blob is then discarded (log in again). */
export const storedSessionSchema = sessionSchema
  .pick({
    accesstoken: true,
    refreshtoken: true,
    usernodeid: true,
    userid: true,
    legalentitynodeid: true,
    clientid: true,
    clientinfo: true,
    superuser: true,
    autologoutweb: true,
    userinfo: true,
    baseinfo: true,
  })
  .extend({
    v: z.literal(1),
    plans: z.array(planSchema),
    /** Trial days left (shared/domain/trial.ts); null without a free plan. */
    daysLeft: z.number().int().nullable(),
    /** The user's general chat room (GET /api/chatrooms), loaded after login; null until known. */
    chatroomnodeid: z.string().nullable(),
    /** The profile chosen from the login's `profiles` by `userinfo.profileid`; null if it was missing. */
    profile: profileSchema.nullable(),
  });
export type StoredSession = z.infer<typeof storedSessionSchema>;

/** Builds the stored session from the login answer. */
export function toStoredSession(session: Session, now: number = Date.now()): StoredSession {
  const { daysLeft } = computeTrialState(session.plans, now);
  return {
    v: 1,
    accesstoken: session.accesstoken,
    refreshtoken: session.refreshtoken,
    usernodeid: session.usernodeid,
    userid: session.userid,
    legalentitynodeid: session.legalentitynodeid,
    clientid: session.clientid,
    clientinfo: session.clientinfo,
    superuser: session.superuser,
    autologoutweb: session.autologoutweb,
    userinfo: session.userinfo,
    baseinfo: session.baseinfo,
    plans: session.plans,
    daysLeft,
    chatroomnodeid: null,
    profile: session.profiles.find((profile) => profile.id === session.userinfo.profileid) ?? null,
  };
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
        const parsed = storedSessionSchema.safeParse(raw);
        session = parsed.success ? parsed.data : null;
        if (raw !== null && !parsed.success) await persist((vault) => vault.clear());
      } catch {
        session = null; // IndexedDB unavailable (private mode, blocked): start logged out
      }
      set({ status: 'ready', session });
    },

    async start(session) {
      set({ session, endReason: null, status: 'ready' });
      await persist((vault) => vault.save(session));
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
  const parsed = storedSessionSchema.safeParse(raw);
  const before = store.getState().session;
  if (parsed.success) {
    if (before?.accesstoken !== parsed.data.accesstoken || before.refreshtoken !== parsed.data.refreshtoken) store.setState({ session: parsed.data });
  } else if (before) {
    store.setState({ session: null, endReason: 'logout' });
  }
}

/** Adapts a session store to the API client's token interface. */
export function sessionTokenSource(store: SessionStore, vault?: () => SessionVault): TokenSource {
  return {
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

let appVault: SessionVault | null = null;
/** Created on first use, so importing this module in Node (tests) does not touch localStorage. */
export function getAppSessionVault(): SessionVault {
  appVault ??= createSessionVault({ storage: window.localStorage, keyStore: createKeyStore() });
  return appVault;
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
