import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createKeyStore } from '../../src/client/db/key-store';
import { createSessionVault, SESSION_STORAGE_KEY } from '../../src/client/lib/session-vault';
import { createSessionStore, sessionCan } from '../../src/client/stores/session-store';
import { toStoredSession } from '../../src/client/stores/stored-session';
import { MemoryStorage } from './support/memory-storage';
import { sessionFixture } from './support/session-fixture';

// Real WebCrypto (Node's globalThis.crypto.subtle), real IndexedDB semantics (fake-indexeddb, tests/unit/setup.ts).
let storage: MemoryStorage;
let keyStore: ReturnType<typeof createKeyStore>;

beforeEach(() => {
  storage = new MemoryStorage();
  keyStore = createKeyStore(`keys-${crypto.randomUUID()}`);
});

afterEach(async () => {
  await keyStore.database.delete();
});

/** A fresh vault + store over the same storage and key database: what a page reload sees. */
function reload() {
  const vault = createSessionVault({ storage, keyStore });
  return { vault, store: createSessionStore(() => vault) };
}

describe('encrypted session persistence', () => {
  it('stores no plain token or personal data in localStorage', async () => {
    const { store } = reload();
    const session = toStoredSession(sessionFixture());
    await store.getState().start(session);

    const blob = storage.getItem(SESSION_STORAGE_KEY);
    expect(blob).not.toBeNull();
    for (const secret of [session.accesstoken, session.refreshtoken, session.userinfo.email, session.userinfo.givenname, session.usernodeid]) {
      expect(blob).not.toContain(secret);
    }
    const envelope = JSON.parse(blob!) as Record<string, unknown>;
    expect(Object.keys(envelope).sort()).toEqual(['data', 'iv', 'v']);
    expect(Buffer.from(envelope.iv as string, 'base64')).toHaveLength(12);
    expect(storage.length).toBe(1);
  });

  it('keeps the key non-extractable in IndexedDB', async () => {
    await reload().store.getState().start(toStoredSession(sessionFixture()));
    const key = await keyStore.get('session');
    expect(key).toBeInstanceOf(CryptoKey);
    expect(key!.extractable).toBe(false);
    expect(key!.algorithm).toMatchObject({ name: 'AES-GCM', length: 256 });
    await expect(crypto.subtle.exportKey('raw', key!)).rejects.toThrow();
  });

  it('is stored before the signed-in screens show it: a reload right after the login finds it (walkthrough: logged out again)', async () => {
    const { store } = reload();
    const session = toStoredSession(sessionFixture());
    let storedWhenShown: string | null | undefined;
    const unsubscribe = store.subscribe((state) => {
      if (state.session && storedWhenShown === undefined) storedWhenShown = storage.getItem(SESSION_STORAGE_KEY);
    });
    await store.getState().start(session);
    unsubscribe();
    expect(storedWhenShown).not.toBeNull();
    expect(storedWhenShown).toBeDefined();
    const again = reload().store;
    await again.getState().restore();
    expect(again.getState().session?.usernodeid).toBe(session.usernodeid);
  });

  it('round-trips through a reload', async () => {
    const session = toStoredSession(sessionFixture());
    await reload().store.getState().start(session);

    const { store } = reload();
    expect(store.getState().status).toBe('restoring');
    await store.getState().restore();
    expect(store.getState().status).toBe('ready');
    expect(store.getState().session).toEqual(session);
  });

  it('persists refreshed tokens with a new IV', async () => {
    const { store } = reload();
    await store.getState().start(toStoredSession(sessionFixture()));
    const before = JSON.parse(storage.getItem(SESSION_STORAGE_KEY)!) as { iv: string };
    await store.getState().setTokens({ accesstoken: 'access-token-2', refreshtoken: 'refresh-token-2' });
    const after = JSON.parse(storage.getItem(SESSION_STORAGE_KEY)!) as { iv: string };
    expect(after.iv).not.toBe(before.iv);

    const next = reload().store;
    await next.getState().restore();
    expect(next.getState().session).toMatchObject({ accesstoken: 'access-token-2', refreshtoken: 'refresh-token-2' });
  });

  it('logout removes the blob and the key', async () => {
    const { store } = reload();
    await store.getState().start(toStoredSession(sessionFixture()));
    await store.getState().end('logout');

    expect(store.getState().session).toBeNull();
    expect(store.getState().endReason).toBe('logout');
    expect(storage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(await keyStore.database.keys.count()).toBe(0);

    const next = reload().store;
    await next.getState().restore();
    expect(next.getState().session).toBeNull();
  });

  it('discards a tampered blob', async () => {
    await reload().store.getState().start(toStoredSession(sessionFixture()));
    const envelope = JSON.parse(storage.getItem(SESSION_STORAGE_KEY)!) as { data: string };
    const bytes = Buffer.from(envelope.data, 'base64');
    bytes[0] = bytes[0]! ^ 0xff;
    storage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ ...envelope, data: bytes.toString('base64') }));

    const { store } = reload();
    await store.getState().restore();
    expect(store.getState().session).toBeNull();
    expect(storage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('cannot decrypt without the key (IndexedDB cleared)', async () => {
    await reload().store.getState().start(toStoredSession(sessionFixture()));
    await keyStore.delete('session');

    const { store } = reload();
    await store.getState().restore();
    expect(store.getState().session).toBeNull();
    expect(storage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('discards a blob of an older shape instead of using it', async () => {
    const vault = createSessionVault({ storage, keyStore });
    await vault.save({ v: 0, token: 'x' });
    const { store } = reload();
    await store.getState().restore();
    expect(store.getState().session).toBeNull();
    expect(storage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });
});

describe('device credentials (the refresh-token binding)', () => {
  it('are made once per browser profile: a reload, a second tab and concurrent first calls get the same client id and secret', async () => {
    const [first, concurrent] = await Promise.all([keyStore.deviceCredentials(), keyStore.deviceCredentials()]);
    expect(concurrent).toEqual(first);
    expect(first.deviceid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first.devicesecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Another tab opens its own connection to the same IndexedDB database.
    const otherTab = createKeyStore(keyStore.database.name);
    expect(await otherTab.deviceCredentials()).toEqual(first);
    otherTab.database.close();
  });

  it('differ between browser profiles (databases)', async () => {
    const elsewhere = createKeyStore(`keys-${crypto.randomUUID()}`);
    const [mine, theirs] = [await keyStore.deviceCredentials(), await elsewhere.deviceCredentials()];
    expect(theirs.deviceid).not.toBe(mine.deviceid);
    expect(theirs.devicesecret).not.toBe(mine.devicesecret);
    await elsewhere.database.delete();
  });

  it('survive logout: they name the device, not the session', async () => {
    const before = await keyStore.deviceCredentials();
    const { store } = reload();
    await store.getState().start(toStoredSession(sessionFixture()));
    await store.getState().end('logout');
    expect(await keyStore.deviceCredentials()).toEqual(before);
  });
});

describe('toStoredSession', () => {
  it('picks the profile by userinfo.profileid and mirrors its permissions', () => {
    const session = toStoredSession(sessionFixture());
    expect(session.profile?.id).toBe('technician');
    expect(sessionCan(session, 'equipment', 'update')).toBe(true);
    expect(sessionCan(session, 'user', 'create')).toBe(false);
    expect(sessionCan(null, 'equipment', 'read')).toBe(false);
  });

  it('lets admins do everything', () => {
    const session = toStoredSession(sessionFixture({ userinfo: { ...sessionFixture().userinfo, admin: true } }));
    expect(sessionCan(session, 'user', 'create')).toBe(true);
  });

  it('computes daysLeft for the free plan', () => {
    const now = Date.UTC(2026, 2, 1);
    const plan = { nodeid: '0190f5a0-0000-7000-8000-000000000009', name: 'free', quotas: [{ type: 'TERM', quota: '30d' }], startingfrom: now - 10 * 86_400_000, noticeperiod: '1m', status: { isvalid: true } };
    expect(toStoredSession(sessionFixture({ plans: [plan] }), now).daysLeft).toBe(20);
    expect(toStoredSession(sessionFixture(), now).daysLeft).toBeNull();
  });
});
