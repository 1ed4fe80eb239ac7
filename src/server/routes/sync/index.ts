import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  mutationGapSchema,
  pullQuerySchema,
  pullResponseSchema,
  stopsBatch,
  SYNC_HEADERS,
  syncBatchRequestSchema,
  syncBatchResponseSchema,
  syncSetAsideRequestSchema,
  syncSetAsideResponseSchema,
  type SyncBatchEntry,
  type SyncBatchResult,
} from '../../../shared/api/sync';
import { dispatchContext } from '../../dispatch-context';
import { badRequest } from '../../http-errors';
import { gapBody, resolveSyncClient, syncClientIdOf } from '../../plugins/mutation-log';
import { setAsideMutation } from '../../services/mutation-log-service';
import { pullChanges, readPullHead, upToDateAnswer } from '../../services/sync-service';
import { errorResponses } from '../responses';

/**
 * How much one `POST /api/sync/batch` does before it answers (docs/sync.md § Batch): once the answers collected
 * reach `answerBytes`, or the batch has run for `ms`, no further entry starts and the batch answers the entries
 * done so far; the device sends the rest again in its next batch. A batch always runs its first entry.
 */
export interface SyncBatchBudget {
  answerBytes: number;
  ms: number;
}

/**
 * 1 MiB of answers (what a request's body may be) and 10 s. A device's batch carries at most 256 KB of bodies, and
 * its answers are mostly the written rows, about as large, so a batch of a device never meets the first; the budget
 * is for a batch whose answers or entries are not what they should be (one of 20 counter updates answered 76 MB and
 * ran 27 s before counter writes answered only their own readings). It keeps the answer, the memory it takes and the
 * time one batch holds the server bounded — on PGlite every other request waits meanwhile — and the batch answers
 * well within the device's 30 s timeout, so a slow batch is not sent again while it still runs.
 */
export const SYNC_BATCH_BUDGET: SyncBatchBudget = { answerBytes: 1024 * 1024, ms: 10_000 };

export interface SyncRoutesOptions {
  /** Lower budgets for tests; default SYNC_BATCH_BUDGET. */
  batchBudget?: Partial<SyncBatchBudget> | undefined;
}

/** What an entry's own request takes over from the batch's: who calls, and how they reached the server. */
const FORWARDED_HEADERS = ['authorization', 'host', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'accept-language', 'user-agent'];

/** The offline mirror's delta sync (docs/sync.md § Pull). */
const syncRoutes: FastifyPluginAsyncZod<SyncRoutesOptions> = async (app, options) => {
  const budget: SyncBatchBudget = { ...SYNC_BATCH_BUDGET, ...options.batchBudget };
  app.get('/sync/pull', {
    // why 'authenticated': a device mirrors what its user may read; the feed is filtered per kind by the user's
    // read permissions in pullChanges (SYNC_KIND_FEATURES), tenant scope as everywhere.
    config: { permission: 'authenticated' },
    schema: {
      tags: ['sync'],
      summary: 'Changes since a cursor, for the offline mirror (X-Client-Id required)',
      querystring: pullQuerySchema,
      response: { 200: pullResponseSchema, ...errorResponses(400, 401, 403) },
    },
    handler: async (request, reply) => {
      // why no zod serializer for this answer: it would parse the whole page (thousands of rows) on every pull,
      // a seventh of a full pull's CPU. The answer is built from the row shapes field by field (sync-service
      // rowData); tests/api/sync-row-shapes.test.ts checks it against pullResponseSchema, which stays the
      // documented schema.
      reply.serializer(JSON.stringify);
      const { cursor, limit } = request.query;
      // The head check first (one statement): a device that is up to date gets its empty page from it alone, and
      // a device already registered to this user is not registered again (docs/sync.md § The head check).
      const clientid = syncClientIdOf(request, true);
      const head = await readPullHead(request.serviceContext.db, request.auth.legalentitynodeid, clientid);
      if (head.clientUser !== request.auth.usernodeid) await resolveSyncClient(request, true);
      return upToDateAnswer(request.auth, head, cursor) ?? pullChanges(request.serviceContext, request.auth, { clientid, cursor, limit });
    },
  });

  app.post('/sync/batch', {
    // why 'authenticated' and dispatchesWrites: the batch is no write of its own; each entry runs as its own
    // request through the whole pipeline (auth, its route's permission and schema, the mutation log).
    config: { permission: 'authenticated', dispatchesWrites: true },
    schema: {
      tags: ['sync'],
      summary: "The outbox's next writes in one request, run in order as if each had come alone (X-Client-Id required)",
      body: syncBatchRequestSchema,
      response: { 200: syncBatchResponseSchema, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => {
      const { mutations, sentAt } = request.body;
      // How far the device's clock is behind the server's: its entries' times are read on the server's clock.
      const clockOffset = sentAt === undefined ? 0 : Date.now() - sentAt;
      for (const entry of mutations) {
        // The path must be in normal form, so the allow-list judges the very path app.inject dispatches: that resolves
        // dot segments (also %2e), and `PUT /api/sites/%2e%2e` passed the list as a site id and ran as `PUT /api/`.
        const path = dispatchedPath(entry.path);
        const refusal = path === undefined ? NORMAL_FORM : app.isLoggedWritePath(entry.method, path) ? undefined : 'Only logged /api writes';
        if (refusal) throw badRequest(`${entry.method} ${entry.path} cannot be sent in a batch`, [{ field: 'mutations', message: refusal }]);
      }
      const clientid = await resolveSyncClient(request, true);
      const results: SyncBatchResult[] = [];
      const socket = request.raw.socket;
      const authorization = request.headers.authorization;
      const caller = authorization === undefined ? undefined : { authorization, auth: request.auth, clientid };
      const started = performance.now();
      let answerBytes = 0;
      await dispatchContext.run({ socket, ...(caller ? { caller } : {}) }, async () => {
        for (const entry of mutations) {
          // The caller is gone (its answer is lost anyway): the rest comes again with the resend.
          if (socket?.destroyed) return;
          // The budget is spent: the entries done so far are answered, the device sends the rest again (each entry
          // is its own transaction and has its answer logged, so nothing is lost or applied twice).
          if (results.length > 0 && (answerBytes >= budget.answerBytes || performance.now() - started >= budget.ms)) {
            request.log.info({ clientid, ran: results.length, sent: mutations.length, answerBytes, ms: Math.round(performance.now() - started) }, 'sync batch answered early: budget spent');
            return;
          }
          const { result, bytes } = await runEntry(app, request, clientid, entry, clockOffset);
          results.push(result);
          answerBytes += bytes;
          if (stopsBatch(result.status, result.body)) return;
        }
      });
      return { results };
    },
  });

  app.post('/sync/set-aside', {
    // why 'authenticated': a device gives up an id of its own outbox only (X-Client-Id is bound to the caller, 403
    // for another user's), and what it gives up is its own write, which it keeps and may send again.
    config: { permission: 'authenticated', ownsMutationLog: true },
    schema: {
      tags: ['sync'],
      summary: 'Give up the mutation id the server expects next, after repeated server errors on that write (X-Client-Id required)',
      body: syncSetAsideRequestSchema,
      response: { 200: syncSetAsideResponseSchema, 409: mutationGapSchema, ...errorResponses(400, 401, 403) },
    },
    handler: async (request, reply) => {
      const clientid = await resolveSyncClient(request, true);
      const { mutationId } = request.body;
      const result = await setAsideMutation(request.serviceContext.db, clientid, mutationId);
      switch (result.kind) {
        case 'set-aside':
          request.log.warn({ clientid, mutationId }, 'write set aside by the device after repeated server errors');
          return { mutationId, outcome: 'set-aside' as const };
        case 'answered':
          return { mutationId, outcome: 'answered' as const, ...(result.status === undefined ? {} : { status: result.status }) };
        case 'gap':
          return reply.code(409).send(gapBody(result.expectedMutationId));
      }
    },
  });
};

const NORMAL_FORM = 'Only paths in normal form: no . or .. segments (also as %2e), no encoded slash or backslash, no \\, no empty segment';

/** A path segment that is `.` or `..`, written plainly or percent-encoded (`%2e`, `%2E`), as URL parsing reads it. */
const DOT_SEGMENT = /^(\.|%2e){1,2}$/i;

/**
 * The path part (before `?`) of an entry's path, if it is in normal form: then it is the path the entry is
 * dispatched to, exactly as written. Undefined for a path whose meaning depends on who reads it — a dot segment
 * (URL parsing resolves it, also as %2e), a backslash (URL parsing reads it as a slash), an encoded slash or
 * backslash (the router decodes it into a parameter's value, where it reads as a path again), an empty segment — or
 * whose `new URL(…).pathname` differs from it in any other way (a `#`, a character URL parsing would encode). The
 * device builds every path with encodeURIComponent (mutationPath), whose output is in normal form, so no path a
 * device sends is refused.
 */
function dispatchedPath(path: string): string | undefined {
  const part = path.split('?', 1)[0]!;
  if (!part.startsWith('/') || /%2f|%5c|\\/i.test(part)) return undefined;
  const segments = part.split('/').slice(1);
  if (segments.some((segment) => segment === '' || DOT_SEGMENT.test(segment))) return undefined;
  return URL.canParse(part, 'http://x') && new URL(part, 'http://x').pathname === part ? part : undefined;
}

/**
 * One entry as its own request with X-Client-Id and X-Mutation-Id (and X-Made-At on the server's clock: `clockOffset`),
 * through the same pipeline as over the network; `bytes`: the size of its answer's body.
 */
async function runEntry(app: FastifyInstance, batch: FastifyRequest, clientid: string, entry: SyncBatchEntry, clockOffset: number): Promise<{ result: SyncBatchResult; bytes: number }> {
  const headers: Record<string, string> = { [SYNC_HEADERS.clientId]: clientid, [SYNC_HEADERS.mutationId]: String(entry.mutationId) };
  if (entry.madeAt !== undefined) headers[SYNC_HEADERS.madeAt] = String(Math.max(0, entry.madeAt + clockOffset));
  for (const name of FORWARDED_HEADERS) {
    const value = batch.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const hasBody = entry.body !== undefined;
  if (hasBody) headers['content-type'] = 'application/json';
  const response = await app.inject({
    method: entry.method,
    url: entry.path,
    headers,
    remoteAddress: batch.raw.socket?.remoteAddress,
    ...(hasBody ? { payload: JSON.stringify(entry.body) } : {}),
  });
  const text = response.body;
  let body: unknown = null;
  if (text.length > 0) {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      body = text;
    }
  }
  return {
    result: { mutationId: entry.mutationId, status: response.statusCode, body, replayed: response.headers[SYNC_HEADERS.replayed.toLowerCase()] === 'true' },
    bytes: response.rawPayload.length,
  };
}

export default syncRoutes;
