import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../http-errors';

/**
 * A JSON body must arrive within `timeoutMs` of its headers. Without a deadline a client that sends a byte every few
 * seconds held its connection (and the request's memory) for as long as it liked, before any login. 1 MB (the
 * body limit) in the default minute needs 17 KB/s, which the weakest hall Wi-Fi gives. File bytes (`streamsBody`
 * routes) are bounded by the server's whole-request timeout instead.
 */
export default fp(
  async function bodyTimeout(app: FastifyInstance, options: { timeoutMs: number }) {
    app.addHook('preParsing', async (request, reply, payload) => {
      const headers = request.headers;
      const hasBody = headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
      if (!hasBody || request.routeOptions.config?.streamsBody) return payload;
      const timer = setTimeout(() => {
        // The body reader answers the error; the connection closes after it (the rest of the body is not awaited).
        reply.header('connection', 'close');
        payload.emit('error', new HttpError(408, `Request body not received within ${options.timeoutMs} ms`));
      }, options.timeoutMs);
      const stop = () => clearTimeout(timer);
      payload.once('end', stop);
      payload.once('close', stop);
      payload.once('error', stop);
      return payload;
    });
  },
  { name: 'body-timeout' },
);
