import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { STATUS_CODES } from 'node:http';
import type { ApiError } from '../../shared/api/errors';
import { HttpError, NODEID_REGISTRY_KEY, NODEID_TAKEN, type ErrorDetail } from '../http-errors';

/**
 * Every error leaves the server as `{statusCode, error, message, details?}` (src/shared/api/errors.ts):
 * validation failures as 400 naming each field, database rule violations caused by input as 400/409, and
 * anything unexpected as a 500 whose message reveals nothing (the log has the cause).
 */
export interface ErrorsPluginOptions {
  /** The level a 4xx is logged at; default info. */
  rejectionLogLevel?: 'info' | 'debug';
}

export default fp(
  async function errors(app: FastifyInstance, options: ErrorsPluginOptions) {
    const rejectionLevel = options.rejectionLogLevel ?? 'info';
    app.setErrorHandler((error: FastifyError | Error, request, reply) => {
      const { body, headers } = toApiError(error);
      if (body.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      else request.log[rejectionLevel]({ statusCode: body.statusCode, message: body.message }, 'request rejected');
      void reply.code(body.statusCode).headers(headers ?? {}).send(body);
    });
  },
  { name: 'errors' },
);

export function sendApiNotFound(request: FastifyRequest, reply: FastifyReply) {
  const body: ApiError = { statusCode: 404, error: 'Not Found', message: `Route ${request.method} ${request.url.split('?')[0]} not found` };
  return reply.code(404).send(body);
}

/** The response an error becomes; also what the mutation log stores for a business error (plugins/mutation-log.ts). */
export function toApiError(error: FastifyError | Error): { body: ApiError; headers?: Record<string, string> } {
  if (error instanceof HttpError) return { body: error.toBody(), ...(error.headers ? { headers: error.headers } : {}) };

  if (hasZodFastifySchemaValidationErrors(error)) {
    const context = (error as FastifyError).validationContext ?? 'body';
    const details: ErrorDetail[] = error.validation.map((issue) => ({
      field: issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || context,
      message: friendlyMessage(issue.message ?? 'Invalid'),
    }));
    return { body: apiError(400, `Invalid ${context}: ${details.map((d) => `${d.field}: ${d.message}`).join('; ')}`, details) };
  }

  // A response that does not match its schema is our bug, never the caller's: 500, details only in the log.
  if ((error as FastifyError).code === 'FST_ERR_RESPONSE_SERIALIZATION') return { body: apiError(500, 'Internal Server Error') };

  const database = databaseError(error);
  if (database) return { body: database };

  const status = (error as FastifyError).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Fastify's own client errors: malformed JSON, unsupported media type, body too large, ...
    const details = (error as FastifyError).validation?.map((v) => ({ field: v.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body', message: v.message ?? 'Invalid' }));
    return { body: apiError(status, error.message, details) };
  }
  return { body: apiError(500, 'Internal Server Error') };
}

/** zod reports a missing field as a type error against undefined; the form calls that "required". */
function friendlyMessage(message: string): string {
  return /received undefined$/.test(message) ? 'Required' : message;
}

function apiError(statusCode: number, message: string, details?: ErrorDetail[]): ApiError {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message, ...(details && details.length > 0 ? { details } : {}) };
}

interface PgLikeError {
  code: string;
  constraint?: string;
  column?: string;
}

/**
 * Constraint violations that input can cause (the schema checks most of it first; the database is the last
 * line, e.g. an id that already exists, or a reference to a record that is gone). Both drivers report the
 * SQLSTATE as `code`; Drizzle wraps the driver error in `cause`.
 */
function databaseError(error: unknown): ApiError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const candidate = current as Partial<PgLikeError> & { cause?: unknown; message?: unknown };
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) return fromSqlState(candidate as PgLikeError);
    if (isUnreachable(candidate)) return DATABASE_UNAVAILABLE();
    current = candidate.cause;
  }
  return undefined;
}

/**
 * The database cannot be reached right now — not this request's fault, nor a bug: 503, like the health check, so a
 * device retries and never offers to set the write aside (a 500 after a few attempts does, src/client/sync/
 * stuck-entry.ts). Node's socket errors (the server refuses, resets, times out), and node-postgres's pool and client
 * when the connection is gone or none comes in time.
 */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
const UNREACHABLE_MESSAGE = /^(timeout exceeded when trying to connect|Connection terminated( unexpectedly| due to connection timeout)?|Client has encountered a connection error and is not queryable)$/;

function isUnreachable(error: { code?: unknown; message?: unknown }): boolean {
  return (typeof error.code === 'string' && UNREACHABLE_CODES.has(error.code)) || (typeof error.message === 'string' && UNREACHABLE_MESSAGE.test(error.message));
}

// why no "database" in the words: a socket error may also come from the file storage (S3), an outage just the same.
const DATABASE_UNAVAILABLE = () => apiError(503, 'Temporarily unavailable, please retry');

function fromSqlState(error: PgLikeError): ApiError | undefined {
  const field = error.column ?? error.constraint;
  const details = field ? [{ field, message: 'Invalid value' }] : undefined;
  switch (error.code) {
    case '23505':
      // Another kind of record holds the id (the node_ids registry's trigger): what a create's own check says.
      return apiError(409, error.constraint === NODEID_REGISTRY_KEY ? NODEID_TAKEN : 'A record with this id or key already exists');
    case '23503':
      return apiError(409, 'A referenced record does not exist, or the record is still referenced');
    case '23502':
    case '23514':
      return apiError(400, 'Invalid value', details);
    case '40001':
    case '40P01':
      // why 503: a serialization failure or deadlock is transient; the outbox retries 5xx.
      return apiError(503, 'Temporary conflict, please retry');
    case '53300': // too many connections
    case '57P01': // admin shutdown (the server is stopping)
    case '57P02': // crash shutdown
    case '57P03': // cannot connect now (starting up, recovering)
      return DATABASE_UNAVAILABLE();
    default:
      // Class 08 = connection exception.
      if (error.code.startsWith('08')) return DATABASE_UNAVAILABLE();
      // Class 22 = data exception (bad number, date, text too long): caused by input.
      return error.code.startsWith('22') ? apiError(400, 'Invalid value', details) : undefined;
  }
}
