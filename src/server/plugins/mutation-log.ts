import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { createHash } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { clientIdSchema, madeAtSchema, mutationIdSchema, SYNC_HEADERS, type MutationGap } from '../../shared/api/sync';
import { batchCallerOf } from '../dispatch-context';
import { badRequest, forbidden, tooManyNewDevices } from '../http-errors';
import { registerSyncClient, runMutation, type MutationKey, type MutationOutcome, type MutationResult } from '../services/mutation-log-service';
import { toApiError } from './errors';

/**
 * Every write is one transaction with its answer, and exactly-once for the offline outbox (docs/sync.md § Writes).
 *
 * Every POST/PUT/PATCH/DELETE route under /api runs its handler inside a transaction, and its answer is serialized
 * (the response schema applied) before the commit: an answer that fails, or any 5xx, rolls back everything the
 * handler wrote, so a 5xx never leaves a committed write behind that a retry would then trip over.
 *
 * Those that are not public (login, refresh) nor a session route (logout) are logged writes: a request with
 * X-Client-Id + X-Mutation-Id runs in one transaction that locks the client's row, replays, refuses a gap, or runs
 * the handler and stores its answer; a business error (4xx) rolls that transaction back and is stored in one of its
 * own. Without the headers, a logged write's 4xx rolls back as well; a public or session route's 4xx keeps what it
 * wrote (a refresh token reused revokes its family and answers 401: the revoke must stay).
 *
 * Errors raised before the handler (403 of the permission check, 400 of schema validation) never reach the
 * wrapped handler; an onSend hook gives them the same treatment, in a transaction of their own (there is no
 * business work to bind them to).
 */

/** The state of a request that carries a mutation id. */
export interface PendingMutation {
  clientid: string;
  mutationId: number;
  method: string;
  path: string;
  /** Taken before validation transforms the body, so every path hashes the body as sent. */
  requestHash: string | undefined;
  /** The wrapped handler or the onSend hook dealt with it; the other must not. */
  settled: boolean;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Session routes: a token refresh or logout is never queued in an outbox and must not consume a mutation id. */
const SESSION_ROUTE = /^\/api\/(auth\/|object\/refresh-token$)/;
/** Not the caller's stored outcome: retried with the same id (401 after a token refresh, 408/429 after waiting). */
const RETRYABLE_CLIENT_ERRORS = new Set([401, 408, 429]);
const JSON_TYPE = 'application/json; charset=utf-8';

export default fp(
  async function mutationLog(app: FastifyInstance) {
    app.decorateRequest('syncClientId', undefined);
    app.decorateRequest('mutation', undefined);
    const logged: RoutePattern[] = [];
    const unlogged: RoutePattern[] = [];
    app.decorate('isLoggedWritePath', (method: string, path: string) => {
      const upper = method.toUpperCase();
      const matches = (route: RoutePattern) => route.methods.includes(upper) && route.pattern.test(path);
      return logged.some(matches) && !unlogged.some(matches);
    });

    app.addHook('onRoute', (route) => {
      const ownTransactions = route.config?.dispatchesWrites === true || route.config?.ownsMutationLog === true;
      if (isApiWrite(route)) (isLoggedWrite(route) && !ownTransactions ? logged : unlogged).push(routePatternOf(route));
      if (ownTransactions) return;
      if (isLoggedWrite(route)) {
        route.onRequest = [...hooksOf(route.onRequest), readMutationHeaders];
        route.preValidation = [...hooksOf(route.preValidation), hashRequestAsSent];
        route.onSend = [...hooksOf(route.onSend), recordEarlyOutcome];
        route.handler = wrapHandler(route.handler);
      } else if (isApiWrite(route) && !route.config?.streamsBody) {
        const handler = route.handler;
        route.handler = function answeredHandler(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
          return answerInTransaction(handler, this, request, reply, { keepOnClientError: true });
        };
      }
    });

    async function readMutationHeaders(request: FastifyRequest): Promise<void> {
      const clientid = await resolveSyncClient(request, false);
      const header = request.headers[SYNC_HEADERS.mutationId.toLowerCase()];
      if (header === undefined) {
        if (request.headers[SYNC_HEADERS.madeAt.toLowerCase()] !== undefined) {
          throw badRequest(`${SYNC_HEADERS.madeAt} needs ${SYNC_HEADERS.mutationId}`, [{ field: SYNC_HEADERS.mutationId, message: 'Required' }]);
        }
        return;
      }
      if (clientid === undefined) throw badRequest(`${SYNC_HEADERS.mutationId} needs ${SYNC_HEADERS.clientId}`, [{ field: SYNC_HEADERS.clientId, message: 'Required' }]);
      const parsed = mutationIdSchema.safeParse(typeof header === 'string' ? header.trim() : undefined);
      if (!parsed.success || typeof header !== 'string' || !/^\d+$/.test(header.trim())) {
        throw badRequest(`Invalid ${SYNC_HEADERS.mutationId}`, [{ field: SYNC_HEADERS.mutationId, message: 'Must be a positive whole number' }]);
      }
      readMadeAt(request, clientid);
      request.mutation = { clientid, mutationId: parsed.data, method: request.method, path: pathOf(request), requestHash: undefined, settled: false };
    }

    /**
     * X-Made-At, only with X-Mutation-Id (a write an outbox queued): when the user made it on the device. The caller
     * acts with it (`Actor.madeAt`), so the record history keeps it beside the server's time (never later:
     * `appendHistory`). Not part of the request's hash: a resend is the same write.
     */
    function readMadeAt(request: FastifyRequest, clientid: string): void {
      const header = request.headers[SYNC_HEADERS.madeAt.toLowerCase()];
      if (header === undefined) return;
      const text = typeof header === 'string' ? header.trim() : '';
      const parsed = madeAtSchema.safeParse(/^\d+$/.test(text) ? Number(text) : Number.NaN);
      if (!parsed.success) throw badRequest(`Invalid ${SYNC_HEADERS.madeAt}`, [{ field: SYNC_HEADERS.madeAt, message: 'Must be a time in epoch milliseconds' }]);
      request.auth = { ...request.auth, madeAt: { at: new Date(parsed.data), clientid } };
    }

    async function hashRequestAsSent(request: FastifyRequest): Promise<void> {
      if (request.mutation) request.mutation.requestHash = requestHash(request);
    }

    function wrapHandler(handler: RouteHandlerMethod): RouteHandlerMethod {
      return async function loggedHandler(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
        const mutation = request.mutation;
        if (!mutation) return answerInTransaction(handler, this, request, reply, { keepOnClientError: false });
        mutation.settled = true;

        const base = request.serviceContext;
        const key = keyOf(request, mutation);
        let businessError: unknown;
        let serialized: string | undefined;
        let result: MutationResult;
        try {
          result = await runMutation(base.db, key, {
            apply: async (tx): Promise<MutationOutcome> => {
              // The services' writes join this transaction (no savepoint of their own): fewer round trips while
              // the write holds its row locks and the tenant's version.
              request.serviceContext = { ...base, db: tx, tx };
              try {
                const payload = await runCapturingSend(handler, this, request, reply);
                if (payload === undefined) return { status: reply.statusCode, body: null };
                serialized = reply.serialize(payload) as string;
                // why the text, not a parsed copy: an answer can be large (a counter update's up to 1000 readings),
                // and parsing it back only to stringify it again for the database cost two passes while the write
                // held its locks.
                return { status: reply.statusCode, body: undefined, json: serialized };
              } finally {
                request.serviceContext = base;
              }
            },
          });
        } catch (error) {
          const { body } = toApiError(error as Error);
          if (body.statusCode >= 500 || RETRYABLE_CLIENT_ERRORS.has(body.statusCode)) throw error;
          // A business error rolled back the whole transaction (its failed statement may have aborted it): the
          // outcome is stored in one of its own, which checks the mutation id again — another request with the
          // same id may have been applied in between, and then its answer is the one to give.
          businessError = error;
          serialized = undefined;
          result = await runMutation(base.db, key, { apply: async () => ({ status: body.statusCode, body }) });
        }

        switch (result.kind) {
          case 'applied':
            if (businessError !== undefined) throw businessError;
            reply.code(result.outcome.status);
            return serialized === undefined ? reply.send() : reply.type(JSON_TYPE).send(serialized);
          case 'replayed':
            return sendReplay(reply, result.outcome);
          case 'mismatch':
            return reply.code(422).type(JSON_TYPE).send(JSON.stringify(mismatchBody(mutation)));
          case 'gap':
            return reply.code(409).type(JSON_TYPE).send(JSON.stringify(gapBody(result.expectedMutationId)));
        }
      };
    }

    /**
     * A 4xx answered before the handler ran (permission, validation, malformed JSON): recorded like a business
     * error, or replaced by the stored answer, the 422 or the 409 the handler path would have given.
     */
    async function recordEarlyOutcome(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
      const mutation = request.mutation;
      if (!mutation || mutation.settled) return payload;
      mutation.settled = true;
      const status = reply.statusCode;
      if (status < 400 || status >= 500 || RETRYABLE_CLIENT_ERRORS.has(status)) return payload;
      // The connection was cut while the body was arriving (a 400 for a truncated body): nobody reads this answer,
      // and the device resends the whole body under the same id, which must then be processed — recorded, it
      // would be refused as "a different request" and become a dead letter for a mere network fault.
      if (request.raw.socket?.destroyed === true) return payload;

      const body = typeof payload === 'string' && payload.length > 0 ? (JSON.parse(payload) as unknown) : null;
      const result = await runMutation(app.serviceContext.db, keyOf(request, mutation), { apply: async () => ({ status, body }) });
      switch (result.kind) {
        case 'applied':
          return payload;
        case 'replayed':
          reply.code(result.outcome.status).header(SYNC_HEADERS.replayed, 'true').type(JSON_TYPE);
          return result.outcome.body === null ? '' : JSON.stringify(result.outcome.body);
        case 'mismatch':
          reply.code(422);
          return JSON.stringify(mismatchBody(mutation));
        case 'gap':
          reply.code(409);
          return JSON.stringify(gapBody(result.expectedMutationId));
      }
    }
  },
  { name: 'mutation-log', dependencies: ['errors', 'auth', 'permissions'] },
);

/**
 * The caller's device from X-Client-Id: bound to the caller on first use, 403 for another user's id, 400 for a
 * malformed one. Undefined when the header is absent and not `required`. Needs request.auth (authenticated routes).
 */
export async function resolveSyncClient(request: FastifyRequest, required: true): Promise<string>;
export async function resolveSyncClient(request: FastifyRequest, required: boolean): Promise<string | undefined>;
export async function resolveSyncClient(request: FastifyRequest, required: boolean): Promise<string | undefined> {
  if (request.syncClientId !== undefined) return request.syncClientId;
  const clientid = syncClientIdOf(request, required);
  if (clientid === undefined) return undefined;
  // An entry of a sync batch under the batch's device and caller: registered to them before the first entry ran.
  const batch = batchCallerOf(request.headers.authorization);
  if (batch && batch.clientid === clientid && batch.auth.usernodeid === request.auth.usernodeid) {
    request.syncClientId = clientid;
    return clientid;
  }
  const registration = await registerSyncClient(request.serviceContext.db, request.auth, clientid, request.server.config.newDevicesPerDay);
  if (registration === 'too-many') throw tooManyNewDevices();
  if (registration !== 'ok') throw forbidden();
  request.syncClientId = clientid;
  return clientid;
}

/**
 * The X-Client-Id header, checked (400 when malformed, or missing and required) but not registered: for a caller
 * that learns the registration from a query it runs anyway (the pull's head check) and registers only when needed.
 */
export function syncClientIdOf(request: FastifyRequest, required: true): string;
export function syncClientIdOf(request: FastifyRequest, required: boolean): string | undefined;
export function syncClientIdOf(request: FastifyRequest, required: boolean): string | undefined {
  const header = request.headers[SYNC_HEADERS.clientId.toLowerCase()];
  if (header === undefined) {
    if (required) throw badRequest(`${SYNC_HEADERS.clientId} required`, [{ field: SYNC_HEADERS.clientId, message: 'Required' }]);
    return undefined;
  }
  const parsed = clientIdSchema.safeParse(typeof header === 'string' ? header.trim().toLowerCase() : undefined);
  if (!parsed.success) throw badRequest(`Invalid ${SYNC_HEADERS.clientId}`, [{ field: SYNC_HEADERS.clientId, message: 'Must be a UUID' }]);
  return parsed.data;
}

function isApiWrite(route: RouteOptions): boolean {
  const methods = [route.method].flat().map((m) => String(m).toUpperCase());
  return route.url.startsWith('/api/') && methods.some((m) => WRITE_METHODS.has(m));
}

interface RoutePattern {
  methods: string[];
  pattern: RegExp;
}

/** The paths a route answers: its URL with each `:param` standing for one path segment. */
function routePatternOf(route: RouteOptions): RoutePattern {
  const source = route.url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return { methods: [route.method].flat().map((m) => String(m).toUpperCase()), pattern: new RegExp(`^${source}$`) };
}

function isLoggedWrite(route: RouteOptions): boolean {
  return isApiWrite(route) && !route.config?.public && !SESSION_ROUTE.test(route.url);
}

/**
 * A write without a mutation id: the handler runs in a transaction of its own and its answer is serialized inside
 * it; the answer leaves only after the commit. A 5xx (a failing answer included) rolls everything back; a 4xx too
 * unless `keepOnClientError`.
 */
async function answerInTransaction(
  handler: RouteHandlerMethod,
  instance: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  options: { keepOnClientError: boolean },
): Promise<FastifyReply> {
  const base = request.serviceContext;
  let clientError: unknown;
  let answer: { payload: unknown; json: boolean } | undefined;
  try {
    answer = await base.db.transaction(async (tx) => {
      // A 4xx that keeps what the handler wrote needs the services' savepoints: the failing write's own work is
      // undone, the earlier one (a revoked token family) stays. Otherwise every error rolls back all of it, and
      // the services' writes join this transaction.
      request.serviceContext = { ...base, db: tx, ...(options.keepOnClientError ? {} : { tx }) };
      try {
        const payload = await runCapturingSend(handler, instance, request, reply);
        if (payload === undefined || typeof payload === 'string' || Buffer.isBuffer(payload)) return { payload, json: false };
        return { payload: reply.serialize(payload) as string, json: true };
      } catch (error) {
        if (!options.keepOnClientError || toApiError(error as Error).body.statusCode >= 500) throw error;
        clientError = error;
        return undefined;
      }
    });
  } finally {
    request.serviceContext = base;
  }
  if (clientError !== undefined) throw clientError;
  if (answer === undefined || answer.payload === undefined) return reply.send();
  if (answer.json) reply.type(JSON_TYPE);
  return reply.send(answer.payload);
}

function hooksOf<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? request.url;
}

function keyOf(request: FastifyRequest, mutation: PendingMutation): MutationKey {
  return {
    clientid: mutation.clientid,
    mutationId: mutation.mutationId,
    requestHash: mutation.requestHash ?? requestHash(request),
    method: mutation.method,
    path: mutation.path,
  };
}

/** SHA-256 over method, path and the body as sent (canonical JSON: keys sorted; raw bytes as they are). */
export function requestHash(request: Pick<FastifyRequest, 'method' | 'url' | 'body'>): string {
  const hash = createHash('sha256').update(request.method.toUpperCase()).update('\n').update(request.url.split('?')[0] ?? '').update('\n');
  const body = request.body;
  if (Buffer.isBuffer(body)) hash.update(body);
  else hash.update(canonicalJson(body));
  return hash.digest('hex');
}

export function canonicalJson(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Runs a route handler and returns what it answered, whether it returned the payload or called reply.send: the
 * answer must be stored and committed before anything leaves the server.
 */
async function runCapturingSend(handler: RouteHandlerMethod, instance: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  let captured: { payload: unknown } | undefined;
  const own = reply as unknown as { send: (payload?: unknown) => FastifyReply; then: unknown };
  own.send = (payload?: unknown) => {
    captured = { payload };
    return reply;
  };
  // why: a handler that returns `reply` hands back a thenable that settles only once the answer is written, which
  // here happens after the commit; hidden, the async handler's promise resolves with the reply object itself.
  own.then = undefined;
  try {
    const returned: unknown = await handler.call(instance, request, reply);
    if (captured) return captured.payload;
    return returned === reply ? undefined : returned;
  } finally {
    delete (own as { send?: unknown }).send;
    delete (own as { then?: unknown }).then;
  }
}

function sendReplay(reply: FastifyReply, outcome: MutationOutcome): FastifyReply {
  reply.code(outcome.status).header(SYNC_HEADERS.replayed, 'true');
  return outcome.body === null ? reply.send() : reply.type(JSON_TYPE).send(JSON.stringify(outcome.body));
}

function mismatchBody(mutation: PendingMutation) {
  return {
    statusCode: 422,
    error: STATUS_CODES[422] ?? 'Unprocessable Entity',
    message: `${SYNC_HEADERS.mutationId} ${mutation.mutationId} was already used for a different request`,
  };
}

export function gapBody(expectedMutationId: number): MutationGap {
  return {
    statusCode: 409,
    error: STATUS_CODES[409] ?? 'Conflict',
    message: `${SYNC_HEADERS.mutationId} out of order: expected ${expectedMutationId}`,
    expectedMutationId,
  };
}
