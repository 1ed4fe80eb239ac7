import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createKeyStore } from '../../src/client/db/key-store';
import { ApiError, createApiClient, type TokenSource } from '../../src/client/lib/api-client';
import { createSessionVault, SESSION_STORAGE_KEY } from '../../src/client/lib/session-vault';
import { createSessionStore, sessionTokenSource } from '../../src/client/stores/session-store';
import { toStoredSession } from '../../src/client/stores/stored-session';
import { MemoryStorage } from './support/memory-storage';
import { memoryTokens } from './support/memory-tokens';
import { sessionFixture } from './support/session-fixture';

/**
 * A real HTTP server on 127.0.0.1 playing the auth side of the API: access tokens are valid until a test
 * expires them, refresh tokens rotate on use, and every request is recorded.
 * why a stand-in instead of the Fastify server: these tests need to expire a token at an exact moment, hold a
 * refresh answer back, and drop a connection, which the real server does not offer. The real server's side
 * of the same flow is proven in tests/api/auth.test.ts and, end to end with real expiry, in
 * tests/e2e/shell.spec.ts ("an expired access token is refreshed transparently").
 */
interface Recorded {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

const state = {
  requests: [] as Recorded[],
  validAccess: new Set<string>(),
  validRefresh: new Set<string>(),
  issued: 0,
  refreshDelayMs: 30,
  refreshMode: 'normal' as 'normal' | 'drop-connection',
};

function refreshCalls(): number {
  return state.requests.filter((r) => r.path === '/api/object/refresh-token').length;
}
function callsTo(path: string): Recorded[] {
  return state.requests.filter((r) => r.path === path);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const unauthorized = { statusCode: 401, error: 'Unauthorized', message: 'Token fehlt oder ist abgelaufen.' };

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as unknown) : undefined;
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const body = await readBody(req);
  const authorization = req.headers.authorization;
  state.requests.push({ method: req.method ?? 'GET', path: url.pathname, authorization, body });
  const bearer = authorization?.startsWith('Bearer ') ? authorization.slice(7) : undefined;

  switch (url.pathname) {
    case '/api/object/refresh-token': {
      if (state.refreshMode === 'drop-connection') {
        req.socket.destroy();
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, state.refreshDelayMs));
      const token = (body as { token?: string } | undefined)?.token;
      if (!token || !state.validRefresh.has(token)) return send(res, 401, unauthorized);
      state.validRefresh.delete(token); // rotation: a refresh token works once
      state.issued += 1;
      const pair = { accesstoken: `access-${state.issued + 1}`, refreshtoken: `refresh-${state.issued + 1}` };
      state.validAccess.add(pair.accesstoken);
      state.validRefresh.add(pair.refreshtoken);
      return send(res, 200, pair);
    }
    case '/api/me':
      if (!bearer || !state.validAccess.has(bearer)) return send(res, 401, unauthorized);
      return send(res, 200, { usernodeid: 'u-1', token: bearer });
    case '/api/always-401':
      return send(res, 401, unauthorized);
    case '/api/invalid':
      return send(res, 400, { statusCode: 400, error: 'Bad Request', message: 'Eingabe ungültig', details: [{ field: 'name', message: 'Pflichtfeld' }] });
    case '/api/no-content':
      res.writeHead(204);
      res.end();
      return;
    default:
      return send(res, 404, { statusCode: 404, error: 'Not Found', message: 'Nicht gefunden' });
  }
}

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  state.requests = [];
  state.validAccess = new Set(['access-1']);
  state.validRefresh = new Set(['refresh-1']);
  state.issued = 0;
  state.refreshDelayMs = 30;
  state.refreshMode = 'normal';
});

const meSchema = z.object({ usernodeid: z.string(), token: z.string() });

/** A session started in the real store (encrypted vault over in-memory storage) and a client reading its tokens from it. */
async function signedInThroughStore() {
  const storage = new MemoryStorage();
  const keyStore = createKeyStore(`keys-${crypto.randomUUID()}`);
  const vault = createSessionVault({ storage, keyStore });
  const store = createSessionStore(() => vault);
  await store.getState().start(toStoredSession(sessionFixture({ accesstoken: 'access-1', refreshtoken: 'refresh-1' })));
  return { storage, keyStore, store, api: createApiClient({ baseUrl, tokens: sessionTokenSource(store, () => vault) }) };
}

describe('api client', () => {
  it('sends the access token as bearer header', async () => {
    const tokens = memoryTokens();
    const api = createApiClient({ baseUrl, tokens: tokens.source });
    await expect(api.get('me', { schema: meSchema })).resolves.toEqual({ usernodeid: 'u-1', token: 'access-1' });
    expect(callsTo('/api/me')[0]?.authorization).toBe('Bearer access-1');
  });

  it('prepares a GET for another thread: the URL ky would send to, made absolute, the bearer and the timeout', async () => {
    const tokens = memoryTokens();
    const api = createApiClient({ baseUrl: `${baseUrl}/`, tokens: tokens.source, timeout: 5_000 });
    const prepared = api.prepare('/sync/pull', { searchParams: { cursor: 12, limit: 500 }, headers: { 'x-client-id': 'c-1' } });
    expect(prepared).toEqual({ url: `${baseUrl}/sync/pull?cursor=12&limit=500`, headers: { 'x-client-id': 'c-1', authorization: 'Bearer access-1' }, timeoutMs: 5_000, bearer: 'access-1' });
    // The token of the moment it is prepared: after a refresh, the new one.
    tokens.access = 'access-2';
    expect(api.prepare('me').headers).toEqual({ authorization: 'Bearer access-2' });
    // A relative base ('/api' in the browser) against the page's address.
    vi.stubGlobal('location', new URL('https://anlagen.example/dashboard'));
    try {
      expect(createApiClient({ baseUrl: '/api', tokens: tokens.source }).prepare('sync/pull').url).toBe('https://anlagen.example/api/sync/pull');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a token another thread got a 401 for: refreshes before sending, and sends once', async () => {
    const tokens = memoryTokens();
    state.validAccess = new Set(); // access-1 has expired
    const api = createApiClient({ baseUrl, tokens: tokens.source });
    const response = await api.send('GET', 'me', { rejectedToken: 'access-1' });
    expect(response.status).toBe(200);
    expect(state.requests.map((request) => [request.path, request.authorization])).toEqual([
      ['/api/object/refresh-token', undefined],
      ['/api/me', 'Bearer access-2'],
    ]);
  });

  it('a rejected token that is no longer the current one (refreshed meanwhile): sends with the current one, no refresh', async () => {
    const tokens = memoryTokens();
    tokens.access = 'access-1';
    const api = createApiClient({ baseUrl, tokens: tokens.source });
    expect((await api.send('GET', 'me', { rejectedToken: 'access-0' })).status).toBe(200);
    expect(refreshCalls()).toBe(0);
    expect(callsTo('/api/me').map((request) => request.authorization)).toEqual(['Bearer access-1']);
  });

  it('a rejected token and a refresh that fails: the answer is the 401 of one request, never a second refresh', async () => {
    const tokens = memoryTokens();
    state.validAccess = new Set();
    state.validRefresh = new Set(); // the session ended on the server
    const api = createApiClient({ baseUrl, tokens: tokens.source });
    expect((await api.send('GET', 'me', { rejectedToken: 'access-1' })).status).toBe(401);
    expect(refreshCalls()).toBe(1);
    expect(callsTo('/api/me')).toHaveLength(1);
  });

  it('sends no bearer header for anonymous calls', async () => {
    const api = createApiClient({ baseUrl, tokens: memoryTokens().source });
    await expect(api.get('me', { auth: false })).rejects.toMatchObject({ statusCode: 401 });
    expect(callsTo('/api/me')[0]?.authorization).toBeUndefined();
    expect(refreshCalls()).toBe(0); // a 401 without a session is an answer, not a reason to refresh
  });

  it('on 401 refreshes once, stores the new pair and retries the call', async () => {
    state.validAccess.clear(); // access-1 expired
    const tokens = memoryTokens();
    const api = createApiClient({ baseUrl, tokens: tokens.source });

    await expect(api.get('me', { schema: meSchema })).resolves.toEqual({ usernodeid: 'u-1', token: 'access-2' });
    expect(refreshCalls()).toBe(1);
    expect(callsTo('/api/object/refresh-token')[0]?.body).toEqual({ token: 'refresh-1' });
    expect(callsTo('/api/me').map((r) => r.authorization)).toEqual(['Bearer access-1', 'Bearer access-2']);
    expect({ access: tokens.access, refresh: tokens.refresh }).toEqual({ access: 'access-2', refresh: 'refresh-2' });
  });

  it('sends the device’s client id and secret with the refresh, from the key store the login used', async () => {
    state.validAccess.clear();
    const { keyStore, store } = await signedInThroughStore();
    const device = await keyStore.deviceCredentials();
    const api = createApiClient({ baseUrl, tokens: sessionTokenSource(store, undefined, () => keyStore.deviceCredentials()) });

    await expect(api.get('me', { schema: meSchema })).resolves.toMatchObject({ token: 'access-2' });
    expect(callsTo('/api/object/refresh-token')[0]?.body).toEqual({ token: 'refresh-1', deviceid: device.deviceid, devicesecret: device.devicesecret });
    await keyStore.database.delete();
  });

  it('still refreshes, without device credentials, when the device store fails', async () => {
    state.validAccess.clear();
    const tokens = memoryTokens();
    const api = createApiClient({ baseUrl, tokens: { ...tokens.source, getDevice: () => Promise.reject(new Error('IndexedDB unavailable')) } });

    await expect(api.get('me', { schema: meSchema })).resolves.toMatchObject({ token: 'access-2' });
    expect(callsTo('/api/object/refresh-token')[0]?.body).toEqual({ token: 'refresh-1' });
  });

  it('shares one refresh among three concurrent 401s', async () => {
    state.validAccess.clear();
    state.refreshDelayMs = 100; // all three 401s arrive while the refresh is still in flight
    const tokens = memoryTokens();
    const api = createApiClient({ baseUrl, tokens: tokens.source });

    const results = await Promise.all([api.get('me', { schema: meSchema }), api.get('me', { schema: meSchema }), api.get('me', { schema: meSchema })]);
    expect(results.map((r) => r.token)).toEqual(['access-2', 'access-2', 'access-2']);
    expect(refreshCalls()).toBe(1);
    expect(callsTo('/api/me')).toHaveLength(6);
    expect(tokens.ended).toBe(0);
  });

  it('retries with a token refreshed meanwhile (another call or tab) instead of refreshing again', async () => {
    state.validAccess = new Set(['access-2']);
    let reads = 0;
    const tokens = memoryTokens();
    // The call is sent with access-1; by the time its 401 arrives, the holder already has access-2.
    const source: TokenSource = { ...tokens.source, getAccessToken: () => (reads++ === 0 ? 'access-1' : 'access-2') };
    const api = createApiClient({ baseUrl, tokens: source });
    await expect(api.get('me', { schema: meSchema })).resolves.toMatchObject({ token: 'access-2' });
    expect(refreshCalls()).toBe(0);
  });

  it('does not loop when the retried call gets 401 again', async () => {
    const tokens = memoryTokens();
    const api = createApiClient({ baseUrl, tokens: tokens.source });

    const error = await api.get('always-401').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'http', statusCode: 401, error: 'Unauthorized' });
    expect(callsTo('/api/always-401')).toHaveLength(2);
    expect(refreshCalls()).toBe(1);
    expect(tokens.ended).toBe(0); // the refresh itself worked; the session stays
  });

  it('ends the session when the refresh token is rejected', async () => {
    state.validAccess.clear();
    state.validRefresh.clear();
    const tokens = memoryTokens();
    const api = createApiClient({ baseUrl, tokens: tokens.source });

    await expect(api.get('me')).rejects.toMatchObject({ statusCode: 401 });
    expect(tokens.ended).toBe(1);
    expect(callsTo('/api/me')).toHaveLength(1); // no retry without a token
  });

  it('clears the stored session (store, blob and key) when the refresh fails', async () => {
    state.validAccess.clear();
    state.validRefresh.clear();
    const { storage, keyStore, store, api } = await signedInThroughStore();

    await expect(api.get('me')).rejects.toMatchObject({ statusCode: 401 });
    expect(store.getState().session).toBeNull();
    expect(store.getState().endReason).toBe('expired');
    expect(storage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(await keyStore.database.keys.count()).toBe(0);
    await keyStore.database.delete();
  });

  it('keeps the session when the refresh fails for lack of network (offline technicians)', async () => {
    state.validAccess.clear();
    state.refreshMode = 'drop-connection';
    const tokens = memoryTokens();
    const api = createApiClient({ baseUrl, tokens: tokens.source });

    await expect(api.get('me')).rejects.toMatchObject({ kind: 'network', statusCode: 0 });
    expect(tokens.ended).toBe(0);
    expect(tokens.refresh).toBe('refresh-1');
  });

  it('persists the refreshed pair through the session store', async () => {
    state.validAccess.clear();
    const { storage, keyStore, api } = await signedInThroughStore();

    await api.get('me');
    const reloaded = createSessionStore(() => createSessionVault({ storage, keyStore }));
    await reloaded.getState().restore();
    expect(reloaded.getState().session).toMatchObject({ accesstoken: 'access-2', refreshtoken: 'refresh-2' });
    await keyStore.database.delete();
  });

  it('maps error bodies to ApiError with details', async () => {
    const api = createApiClient({ baseUrl, tokens: memoryTokens().source });
    const error = await api.post('invalid', { json: { name: '' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'http', statusCode: 400, message: 'Eingabe ungültig', details: [{ field: 'name', message: 'Pflichtfeld' }] });
  });

  it('reports a body that breaks the contract as invalid-response', async () => {
    const api = createApiClient({ baseUrl, tokens: memoryTokens().source });
    await expect(api.get('me', { schema: z.object({ usernodeid: z.number() }) })).rejects.toMatchObject({ kind: 'invalid-response', statusCode: 200 });
  });

  it('returns undefined for 204', async () => {
    const api = createApiClient({ baseUrl, tokens: memoryTokens().source });
    await expect(api.delete('no-content')).resolves.toBeUndefined();
  });

  it('reports an unreachable server as a network error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const api = createApiClient({ baseUrl: `http://127.0.0.1:${port}/api`, tokens: memoryTokens().source });
    const error = await api.get('me').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'network', statusCode: 0, isNetworkError: true });
  });
});
