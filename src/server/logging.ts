/**
 * What may reach a log line. Headers and bodies are redacted by path (LOG_REDACT_PATHS in app.ts); these
 * serializers cover the two places secrets hide elsewhere: URLs (the spec's /set-password/{token}, signed
 * file URLs, tokens in query strings) and database errors, whose message and `params` carry the query's
 * bound values (token hashes, e-mail addresses, password hashes).
 */
import { stdSerializers } from 'pino';

/** Query parameters whose values are credentials. */
const SECRET_QUERY_KEYS = new Set(['token', 'code', 'sig', 'signature', 'accesstoken', 'refreshtoken', 'key']);
const SECRET_PATH = /^(\/(?:api\/)?(?:set-password|users\/set-password)\/)[^/?#]+/i;
const MASK = '[redacted]';

export function maskUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt === -1 ? url : url.slice(0, queryAt)).replace(SECRET_PATH, `$1${MASK}`);
  if (queryAt === -1) return path;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const key = decodeURIComponent(eq === -1 ? pair : pair.slice(0, eq)).toLowerCase();
      return eq !== -1 && SECRET_QUERY_KEYS.has(key) ? `${pair.slice(0, eq)}=${MASK}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/** Drops the bound values drizzle appends to a failed query's message ("…\nparams: a,b,c"). */
function withoutParams(text: string | undefined): string | undefined {
  return text?.replace(/\nparams: [\s\S]*?(?=\n {4}at |\ncaused by: |$)/g, '\nparams: [redacted]');
}

interface SerializedError {
  type: string;
  message: string;
  stack: string;
  params?: unknown;
  cause?: SerializedError;
  [key: string]: unknown;
}

function scrubError(serialized: SerializedError): SerializedError {
  const { params: _params, cause, ...rest } = serialized;
  return {
    ...rest,
    message: withoutParams(rest.message) ?? '',
    stack: withoutParams(rest.stack) ?? '',
    ...(cause && typeof cause === 'object' ? { cause: scrubError(cause) } : {}),
  };
}

export const logSerializers = {
  req(request: { method: string; url: string; hostname?: string; ip?: string; socket?: { remotePort?: number } }) {
    return { method: request.method, url: maskUrl(request.url), host: request.hostname, remoteAddress: request.ip, remotePort: request.socket?.remotePort };
  },
  err(error: Error) {
    return scrubError(stdSerializers.err(error) as unknown as SerializedError);
  },
};

/**
 * A client that went away before its answer was complete (a tablet leaving the Wi-Fi mid-pull, a page closed) is
 * the normal life of this app, not a server fault; @fastify/compress logs it as an error ("premature close").
 */
export function isClientGone(value: unknown): boolean {
  return value instanceof Error && (value.message === 'premature close' || (value as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE');
}

interface HookLogger {
  debug: (...args: unknown[]) => void;
}

/**
 * pino's logMethod hook: a gone client's error is logged at debug level; with `quietListening` (the pretty
 * console, where the start banner says where the server listens) Fastify's "Server listening at …" is dropped.
 */
export function logMethodHook(quietListening: boolean) {
  return function logMethod(this: HookLogger, args: unknown[], method: (...args: unknown[]) => void, level: number): void {
    if (level >= 50 && isClientGone(args[0])) return this.debug(...args);
    if (quietListening && typeof args[0] === 'string' && args[0].startsWith('Server listening at ')) return;
    method.apply(this, args);
  };
}
