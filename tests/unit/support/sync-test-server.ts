/**
 * A real HTTP server on 127.0.0.1 that answers the outbox the way docs/sync.md says the API does, alone or in a
 * `POST /api/sync/batch` (entries in order, stopping at a retry or a gap): per client a mutation log (replay of an applied id with `Idempotent-Replayed: true`, 409 {expectedMutationId} on a gap,
 * business 4xx stored and counted, 5xx rolled back), bearer tokens with rotating refresh, the two-step file
 * upload, and a scripted change feed for pulls.
 *
 * why a stand-in and not the Fastify app: these unit tests prove the CLIENT's reading of each answer, fast and
 * deterministically; the real server's mutation log, pull and fault injection are covered by the API tier
 * (tests/api/*) and the end-to-end fault tests.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { TokenSource } from '../../../src/client/lib/api-client';
import { stopsBatch, SYNC_FORMAT_VERSION, type PullResponse, type SyncBatchRequest, type SyncChange } from '../../../src/shared/api/sync';
import { parseMutation, type MutationInput, type SyncRow } from '../../../src/shared/mutations/mutation';
import { createNotification, updateNotification } from '../../../src/shared/mutations/notifications';

const TENANT = '0190f5a0-0000-7000-8000-0000000000ee';
/** The signed-in user of the sync unit tests; the server writes it as a notification's author. */
export const USER = '0190f5a0-0000-7000-8000-0000000000aa';
/** The machine their notifications are about. */
export const MACHINE = '0190f5a0-0000-7000-8000-0000000000bb';

/** A session whose access token the server accepts and that has nothing to refresh with. */
export const fixedTokens: TokenSource = { getAccessToken: () => 'access-1', getRefreshToken: () => null, setTokens: () => undefined, endSession: () => undefined };

export interface Applied {
  clientId: string;
  mutationId: number;
  method: string;
  path: string;
  body: unknown;
}

type Fault = 'drop-after-commit' | 'fail-503' | 'reject-422' | 'reject-403' | 'reject-404' | 'reject-410';

interface StoredResult {
  status: number;
  body: unknown;
  hash: string;
}

export interface SyncTestServer {
  baseUrl: string;
  origin: string;
  /** Writes applied (2xx) in the order the server committed them. */
  applied: Applied[];
  /** Every request as received, and each entry of a batch after its batch (`inBatch`). */
  requests: { method: string; path: string; mutationId: string | undefined; authorization: string | undefined; inBatch?: true; madeAt?: number; sentAt?: number }[];
  uploads: Map<string, Buffer>;
  validAccess: Set<string>;
  validRefresh: Set<string>;
  /** Fault for the next write whose path starts with `path` (once). */
  faults: { path: string; fault: Fault }[];
  uploadFaults: number[];
  /** Runs after a batch's entries ran and before its answer is sent (once; cleared before each test). */
  beforeBatchAnswer: (() => Promise<void>) | undefined;
  /** Makes every URL signed so far expire. */
  expireSignedUrls(): void;
  lastMutation: Map<string, number>;
  stored: Map<string, StoredResult>;
  feed: { changes: SyncChange[]; reset: boolean; pageSize: number; /** The pull's `scope` (the user's read permissions); absent when undefined. */ scope?: string; /** Statuses the next pulls are answered with, each once (message 'Wartung'), or a status with its own body. */ faults?: (number | { status: number; body: unknown })[] };
  close(): Promise<void>;
  clear(): void;
}

async function readRaw(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The server for one test file: listening (with its URLs) once the file's `beforeAll` ran, cleared before each
 * test, closed after the file.
 */
export function useSyncTestServer(): SyncTestServer {
  const { server, listen } = createSyncTestServer();
  beforeAll(listen);
  afterAll(() => server.close());
  beforeEach(() => server.clear());
  return server;
}

function createSyncTestServer(): { server: SyncTestServer; listen: () => Promise<void> } {
  let version = 100;
  const state: Omit<SyncTestServer, 'baseUrl' | 'origin' | 'close' | 'clear' | 'expireSignedUrls'> = {
    applied: [],
    requests: [],
    uploads: new Map(),
    validAccess: new Set(['access-1']),
    validRefresh: new Set(['refresh-1']),
    faults: [],
    uploadFaults: [],
    beforeBatchAnswer: undefined,
    lastMutation: new Map(),
    stored: new Map(),
    feed: { changes: [], reset: false, pageSize: 1000 },
  };
  let issued = 1;
  let signed = 0;
  const notificationRows = new Map<string, Record<string, unknown>>();
  const registeredFiles = new Map<string, string>();
  /** Signatures no longer valid (an expired URL answers 403). */
  const expiredSignatures = new Set<string>();

  /** The route's own work: returns status and body. */
  function route(method: string, path: string, body: Record<string, unknown>): { status: number; body: unknown } {
    version += 1;
    // Notifications answer their row, as the real routes do: the declaration's rule on the stored row.
    if (method === 'POST' && path === '/api/notifications') {
      const args = parseMutation(createNotification, { params: {}, body: body as MutationInput<typeof createNotification>['body'] });
      const row = { nodeid: args.body.nodeid!, legalentitynodeid: TENANT, version, ...createNotification.apply!(undefined, args, { now: Date.now(), usernodeid: USER }) };
      notificationRows.set(row.nodeid, row);
      return { status: 201, body: row };
    }
    if (method === 'PUT' && path.startsWith('/api/notifications/')) {
      const nodeid = path.split('/').pop()!;
      const current = notificationRows.get(nodeid);
      // A notification this server never stored (its create was refused): the write is applied anyway.
      if (!current) return { status: 200, body: { nodeid, status: body.status, version } };
      const args = parseMutation(updateNotification, { params: { nodeid }, body: body as MutationInput<typeof updateNotification>['body'] });
      const row = { ...current, ...updateNotification.apply!(current as SyncRow, args, { now: Date.now(), usernodeid: USER }), version };
      notificationRows.set(nodeid, row);
      return { status: 200, body: row };
    }
    if (method === 'PUT' && path.startsWith('/api/counters/update/')) return { status: 200, body: { nodeid: path.split('/').pop(), values: body.values, version } };
    if (method === 'POST' && path === '/api/files') {
      const extensions = body.extensions as { nodeid: string; mimetype: string }[];
      return {
        status: 201,
        body: extensions.map((e) => {
          // Registering the same nodeid again signs a fresh URL for the same file.
          const fileid = registeredFiles.get(e.nodeid) ?? `f${String(registeredFiles.size + 1).padStart(7, '0')}-0000-7000-8000-000000000000`;
          registeredFiles.set(e.nodeid, fileid);
          signed += 1;
          return { nodeid: e.nodeid, fileid, fileversion: 1, bucketid: 'local', url: `/upload/${fileid}?sig=${signed}`, expiresat: 0, status: state.uploads.has(fileid) ? 'complete' : 'pending', mimetype: e.mimetype };
        }),
      };
    }
    if (method === 'POST' && path === '/api/attachments') {
      const file = body.file as { fileid: string; bucketid?: string };
      if (!state.uploads.has(file.fileid) || file.bucketid !== 'local') return { status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'file not complete' } };
      return { status: 201, body: { ...body, version } };
    }
    // A delete answers only its version, as the real delete routes do.
    if (method === 'DELETE' && path.startsWith('/api/subscriptions/')) return { status: 200, body: { nodeid: path.split('/').pop(), version } };
    return { status: 404, body: { statusCode: 404, error: 'Not Found', message: 'Nicht gefunden' } };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    const raw = await readRaw(req);
    const mutationHeader = req.headers['x-mutation-id'] as string | undefined;
    const authorization = req.headers.authorization;
    state.requests.push({ method, path: url.pathname, mutationId: mutationHeader, authorization });

    if (url.pathname.startsWith('/upload/')) {
      if (expiredSignatures.has(url.searchParams.get('sig') ?? '')) return send(res, 403, { statusCode: 403, error: 'Forbidden', message: 'Upload URL expired' });
      const status = state.uploadFaults.shift();
      if (status) return send(res, status, { statusCode: status, error: 'Upload failed', message: 'fault' });
      state.uploads.set(url.pathname.slice('/upload/'.length), raw);
      return send(res, 200, { ok: true });
    }
    const body = raw.length ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
    if (url.pathname === '/api/object/refresh-token') {
      const token = body.token as string;
      if (!state.validRefresh.has(token)) return send(res, 401, { statusCode: 401, error: 'Unauthorized', message: 'expired' });
      state.validRefresh.delete(token);
      issued += 1;
      const pair = { accesstoken: `access-${issued}`, refreshtoken: `refresh-${issued}` };
      state.validAccess.add(pair.accesstoken);
      state.validRefresh.add(pair.refreshtoken);
      return send(res, 200, pair);
    }
    const bearer = authorization?.startsWith('Bearer ') ? authorization.slice(7) : '';
    if (!state.validAccess.has(bearer)) return send(res, 401, { statusCode: 401, error: 'Unauthorized', message: 'Token abgelaufen' });

    const clientId = req.headers['x-client-id'] as string | undefined;
    if (method === 'GET' && url.pathname === '/api/sync/pull') {
      const fault = state.feed.faults?.shift();
      if (typeof fault === 'object') return send(res, fault.status, fault.body);
      if (fault) return send(res, fault, { statusCode: fault, error: 'Fault', message: 'Wartung' });
      const cursor = Number(url.searchParams.get('cursor') ?? 0);
      const last = clientId ? (state.lastMutation.get(clientId) ?? 0) : 0;
      if (state.feed.reset && cursor > 0) {
        const answer: PullResponse = { formatVersion: SYNC_FORMAT_VERSION, cursor: 0, hasMore: true, lastMutationId: last, reset: true, changes: [] };
        return send(res, 200, answer);
      }
      const newer = state.feed.changes.filter((change) => change.version > cursor).sort((a, b) => a.version - b.version);
      const page = newer.slice(0, state.feed.pageSize);
      const next = page.length ? page[page.length - 1]!.version : cursor;
      const answer: PullResponse = { formatVersion: SYNC_FORMAT_VERSION, cursor: next, hasMore: newer.length > page.length, lastMutationId: last, changes: page, ...(state.feed.scope === undefined ? {} : { scope: state.feed.scope }) };
      return send(res, 200, answer);
    }

    if (method === 'POST' && url.pathname === '/api/sync/batch') {
      if (!clientId) return send(res, 400, { statusCode: 400, error: 'Bad Request', message: 'X-Client-Id required' });
      const results: { mutationId: number; status: number; body: unknown; replayed: boolean }[] = [];
      const batchBody = body as unknown as SyncBatchRequest;
      for (const entry of batchBody.mutations) {
        const path = entry.path.split('?')[0]!;
        state.requests.push({ method: entry.method, path, mutationId: String(entry.mutationId), authorization, inBatch: true, ...(entry.madeAt === undefined ? {} : { madeAt: entry.madeAt }), ...(batchBody.sentAt === undefined ? {} : { sentAt: batchBody.sentAt }) });
        const answer = logged(clientId, entry.mutationId, entry.method, path, (entry.body ?? {}) as Record<string, unknown>);
        if (answer.drop) {
          req.socket.destroy();
          return;
        }
        results.push({ mutationId: entry.mutationId, status: answer.status, body: answer.body ?? null, replayed: answer.replayed });
        if (stopsBatch(answer.status, answer.body)) break;
      }
      const hook = state.beforeBatchAnswer;
      state.beforeBatchAnswer = undefined;
      await hook?.();
      return send(res, 200, { results });
    }
    if (!clientId || !mutationHeader) {
      const result = route(method, url.pathname, body);
      return send(res, result.status, result.body);
    }
    const answer = logged(clientId, Number(mutationHeader), method, url.pathname, body);
    if (answer.drop) {
      req.socket.destroy();
      return;
    }
    return send(res, answer.status, answer.body, answer.replayed ? { 'idempotent-replayed': 'true' } : {});
  }

  /** A write under a mutation id, alone or inside a batch: the mutation log's rules, then the route. */
  function logged(clientId: string, mid: number, method: string, path: string, body: Record<string, unknown>): { status: number; body: unknown; replayed: boolean; drop?: true } {
    const last = state.lastMutation.get(clientId) ?? 0;
    const hash = canonical({ method, path, body });
    if (mid <= last) {
      const stored = state.stored.get(`${clientId}:${mid}`);
      if (!stored || stored.hash !== hash) return { status: 422, body: { statusCode: 422, error: 'Unprocessable Entity', message: 'different request under this mutation id' }, replayed: false };
      return { status: stored.status, body: stored.body, replayed: true };
    }
    if (mid > last + 1) return { status: 409, body: { statusCode: 409, error: 'Conflict', message: 'mutation gap', expectedMutationId: last + 1 }, replayed: false };

    const faultIndex = state.faults.findIndex((f) => path.startsWith(f.path));
    const fault = faultIndex >= 0 ? state.faults.splice(faultIndex, 1)[0]!.fault : undefined;
    if (fault === 'fail-503') return { status: 503, body: { statusCode: 503, error: 'Service Unavailable', message: 'try again' }, replayed: false };
    // A refused write changes nothing: the route does not run.
    const result =
      fault === 'reject-422'
        ? { status: 422, body: { statusCode: 422, error: 'Unprocessable Entity', message: 'Ungültiger Statuswechsel' } }
        : fault === 'reject-403'
          ? { status: 403, body: { statusCode: 403, error: 'Forbidden', message: 'Zugriff verwehrt!' } }
          : fault === 'reject-404'
            ? { status: 404, body: { statusCode: 404, error: 'Not Found', message: 'Equipment not found' } }
            : fault === 'reject-410'
              ? { status: 410, body: { statusCode: 410, error: 'Gone', message: 'Notification was deleted' } }
              : route(method, path, body);
    state.lastMutation.set(clientId, mid);
    state.stored.set(`${clientId}:${mid}`, { status: result.status, body: result.body, hash });
    if (result.status < 300) state.applied.push({ clientId, mutationId: mid, method, path, body });
    return fault === 'drop-after-commit' ? { ...result, replayed: false, drop: true } : { ...result, replayed: false };
  }

  const http: Server = createServer((req, res) => void handle(req, res).catch(() => send(res, 500, { statusCode: 500 })));
  const server: SyncTestServer = Object.assign(state, {
    baseUrl: '',
    origin: '',
    expireSignedUrls() {
      for (let i = 1; i <= signed; i += 1) expiredSignatures.add(String(i));
    },
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
    clear() {
      state.applied.length = 0;
      notificationRows.clear();
      state.requests.length = 0;
      state.uploads.clear();
      state.validAccess = new Set(['access-1']);
      state.validRefresh = new Set(['refresh-1']);
      state.faults.length = 0;
      state.uploadFaults.length = 0;
      state.beforeBatchAnswer = undefined;
      state.lastMutation.clear();
      state.stored.clear();
      state.feed = { changes: [], reset: false, pageSize: 1000 };
      issued = 1;
      signed = 0;
      registeredFiles.clear();
      expiredSignatures.clear();
    },
  });
  const listen = async () => {
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    server.origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    server.baseUrl = `${server.origin}/api`;
  };
  return { server, listen };
}
