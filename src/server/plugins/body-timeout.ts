import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../http-errors';

/** The slowest link a body is waited for beyond the base deadline: bytes per second (a weak hall Wi-Fi, EDGE). */
const SLOWEST_BODY_BYTES_PER_SECOND = 1024;
/** However long the body, it is not waited for longer than this. */
const BODY_DEADLINE_MAX_MS = 15 * 60_000;

/**
 * How long a body of `length` bytes may take: the base deadline, plus what it takes at SLOWEST_BODY_BYTES_PER_SECOND
 * (a device on a slow link resending a 256 KB batch must get through, or its outbox never drains).
 */
export function bodyDeadlineMs(baseMs: number, length: number | undefined): number {
  return Math.min(BODY_DEADLINE_MAX_MS, baseMs + (length ? Math.ceil((length / SLOWEST_BODY_BYTES_PER_SECOND) * 1000) : 0));
}

/**
 * A JSON body must arrive within its deadline (bodyDeadlineMs of the declared length for a signed-in caller, the
 * base deadline for a public route) of the headers. Without one a client that sends a
 * byte every few seconds held its connection (and the request's memory) for as long as it liked, before any login.
 * Past it: 408 and the connection closed; a body nobody reads (the request was answered without it: 401, 415) has
 * its connection closed then too. File bytes (`streamsBody` routes) are bounded by the whole-request timeout.
 */
export default fp(
  async function bodyTimeout(app: FastifyInstance, options: { timeoutMs: number }) {
    // An answer given before the body arrived whole (no token: 401; no Content-Type: 415; a route that reads none)
    // ends the connection: nothing would read the rest, and a client dripping it in would hold the socket.
    app.addHook('onSend', async (request, reply) => {
      if (!request.raw.complete && !request.routeOptions.config?.streamsBody) void reply.header('connection', 'close');
    });
    // A request without a network socket — a sync batch's entry, run through app.inject — has no connection to end:
    // once it is answered its deadline is over. Its timer used to fire later and call destroy() on a socket that has
    // none: an uncaught exception, which ended the server (an entry answered 413 before its body was read; found by a
    // security review).
    const stops = new WeakMap<object, () => void>();
    app.addHook('onResponse', async (request) => {
      if (!canEndConnection(request.raw.socket)) stops.get(request)?.();
    });
    app.addHook('preParsing', async (request, reply, payload) => {
      const headers = request.headers;
      const length = Number(headers['content-length'] ?? 0);
      const hasBody = headers['transfer-encoding'] !== undefined || length > 0;
      if (!hasBody || request.routeOptions.config?.streamsBody) return payload;
      // Only a signed-in caller's declared length buys time: before a login anyone could declare a megabyte and
      // drip it in for the longest deadline. A public route's body (a login, a token) is small: the base deadline.
      const trusted = Boolean(request.auth) && Number.isFinite(length);
      const deadline = bodyDeadlineMs(options.timeoutMs, trusted ? length : undefined);
      const timer = setTimeout(() => {
        if (reply.sent) {
          // Answered without its body: nothing reads the rest, so nothing else would end the connection.
          const socket = request.raw.socket;
          if (canEndConnection(socket)) socket.destroy();
          return;
        }
        // The body reader answers the error; the connection closes after it (the rest of the body is not awaited).
        reply.header('connection', 'close');
        payload.emit('error', new HttpError(408, `Request body not received within ${deadline} ms`));
      }, deadline);
      const stop = () => clearTimeout(timer);
      stops.set(request, stop);
      payload.once('end', stop);
      payload.once('close', stop);
      payload.once('error', stop);
      return payload;
    });
  },
  { name: 'body-timeout' },
);

/** A network socket, which destroy() ends; app.inject's stand-in has no destroy. */
function canEndConnection(socket: unknown): socket is { destroy(): void } {
  return typeof (socket as { destroy?: unknown } | null | undefined)?.destroy === 'function';
}
