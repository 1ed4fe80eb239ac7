/**
 * What the offline fault tests look at besides the screen: the device's IndexedDB read raw in the page (so the
 * check does not go through the app code under test) and the server's view through its API as a separate client.
 */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { LOCAL_DATABASE_NAME } from '../../../src/client/db/local-db';
import { DEMO_PASSWORD, DEMO_USERS, type DemoRole } from '../../../src/server/db/seed/demo-users';

export interface ApiSession {
  accesstoken: string;
  usernodeid: string;
}

/** Logs in over the API: a session of its own, independent of the browser's. */
export async function apiLogin(request: APIRequestContext, role: DemoRole): Promise<ApiSession> {
  const response = await request.post('/api/auth/login', { data: { email: DEMO_USERS[role].email, password: DEMO_PASSWORD } });
  expect(response.status()).toBe(200);
  return (await response.json()) as ApiSession;
}

const auth = (session: ApiSession, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${session.accesstoken}`, ...extra });

/** A machine of the demo plant (the first of the first area that has one). */
export async function demoMachine(request: APIRequestContext, session: ApiSession): Promise<{ nodeid: string; name: string }> {
  const response = await request.get('/api/allsitesareasequipments?lang=de', { headers: auth(session) });
  expect(response.status()).toBe(200);
  const tree = (await response.json()) as { sites: { areas: { equipment: { nodeid: string; name: string }[] }[] }[] };
  const machine = tree.sites.flatMap((site) => site.areas).flatMap((area) => area.equipment)[0];
  if (!machine) throw new Error('the demo plant has no machine');
  return machine;
}

/** The server's notification as another user sees it, or null when it does not exist there. */
export async function serverNotification(request: APIRequestContext, role: DemoRole, nodeid: string): Promise<{ nodeid: string; title: string; status: number } | null> {
  // A fresh login per check: the e2e server's access tokens live only E2E_ACCESS_TOKEN_TTL seconds.
  const session = await apiLogin(request, role);
  const response = await request.get(`/api/notifications/${nodeid}?lang=de`, { headers: auth(session) });
  if (response.status() === 404) return null;
  expect(response.status()).toBe(200);
  return (await response.json()) as { nodeid: string; title: string; status: number };
}

/** The last mutation id the server applied for a device's client id (a pull as the user it is bound to). */
export async function serverLastMutationId(request: APIRequestContext, role: DemoRole, clientId: string): Promise<number> {
  const session = await apiLogin(request, role);
  // A cursor ahead of the server answers `reset` with no rows: only `lastMutationId` is wanted here.
  const response = await request.get(`/api/sync/pull?cursor=${Number.MAX_SAFE_INTEGER}`, { headers: auth(session, { 'x-client-id': clientId }) });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { lastMutationId: number }).lastMutationId;
}

export interface LocalOutboxEntry {
  seq: number;
  mutationId: number;
  clientId: string;
  usernodeid: string;
  action: string;
  method: string;
  path: string;
  body: Record<string, unknown>;
  kind: string;
  nodeid: string;
  dependsOn?: string[];
}

export interface LocalSnapshot {
  version: number;
  outbox: LocalOutboxEntry[];
  deadLetters: LocalOutboxEntry[];
  notifications: { nodeid: string; title: string; status: number; version?: number }[];
  syncState: Record<string, unknown>;
  fileBytes: string[];
}

/**
 * Reads the device database with raw IndexedDB (never creating it: an empty database at version 1 would change
 * what the app sees). Null when it does not exist yet.
 */
export async function readLocalDb(page: Page): Promise<LocalSnapshot | null> {
  return page.evaluate(async (name) => {
    const known = await indexedDB.databases();
    if (!known.some((db) => db.name === name)) return null;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    // why: this probe must never hold up an upgrade another tab starts while it reads.
    db.onversionchange = () => db.close();
    const all = (store: string) =>
      new Promise<unknown[]>((resolve, reject) => {
        if (!db.objectStoreNames.contains(store)) return resolve([]);
        const request = db.transaction(store, 'readonly').objectStore(store).getAll();
        request.onsuccess = () => resolve(request.result as unknown[]);
        request.onerror = () => reject(request.error);
      });
    try {
      const state = (await all('syncState')) as { key: string; value: unknown }[];
      return {
        version: db.version,
        outbox: (await all('outbox')) as never[],
        deadLetters: (await all('deadLetters')) as never[],
        notifications: (await all('notifications')) as never[],
        syncState: Object.fromEntries(state.map((row) => [row.key, row.value])),
        fileBytes: ((await all('fileBytes')) as { fileid: string }[]).map((file) => file.fileid),
      };
    } finally {
      db.close();
    }
  }, LOCAL_DATABASE_NAME);
}

/** Waits until the device has sent everything (outbox empty) and returns the database as it then is. */
export async function waitForEmptyOutbox(page: Page, timeout = 30_000): Promise<LocalSnapshot> {
  let snapshot: LocalSnapshot | null = null;
  await expect
    .poll(
      async () => {
        snapshot = await readLocalDb(page);
        return snapshot?.outbox.length;
      },
      { timeout, message: 'the outbox should drain' },
    )
    .toBe(0);
  return snapshot!;
}

/** The device's client id for a user (made by the app at its first write). */
export function clientIdOf(snapshot: LocalSnapshot, usernodeid: string): string {
  const id = snapshot.syncState[`clientId:${usernodeid}`];
  if (typeof id !== 'string') throw new Error(`no client id for ${usernodeid} on the device`);
  return id;
}



/** Puts the page under the service worker, so it (and new pages) still open with the network off. */
export async function takeOfflineReady(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  if (!(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)))) await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
}

/** A large photo that does not compress (random pixels), made by the browser's own PNG encoder. */
export async function randomPhoto(page: Page, side: number): Promise<{ name: string; mimeType: string; buffer: Buffer }> {
  const base64 = await page.evaluate(async (size) => {
    const canvas = document.createElement('canvas');
    canvas.width = size;
    canvas.height = size;
    const context = canvas.getContext('2d')!;
    const image = context.createImageData(size, size);
    for (let offset = 0; offset < image.data.length; offset += 65_536) crypto.getRandomValues(image.data.subarray(offset, offset + 65_536));
    context.putImageData(image, 0, 0);
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((made) => resolve(made!), 'image/png'));
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let binary = '';
    for (let offset = 0; offset < bytes.length; offset += 32_768) binary += String.fromCharCode(...bytes.subarray(offset, offset + 32_768));
    return btoa(binary);
  }, side);
  return { name: 'stoerung.png', mimeType: 'image/png', buffer: Buffer.from(base64, 'base64') };
}
