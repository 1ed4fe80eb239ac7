import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The browser's part of the app's security (docs/security.md, "Browser security: headers and CSP"): one policy for
 * every answer — API, static client, SPA fallback, Swagger UI and errors — registered before every route, so a
 * route that sets its own Content-Security-Policy (a file download's sandbox) replaces this one by setting it later.
 *
 * Why no helmet defaults (`useDefaults: false`): they add `upgrade-insecure-requests`, which makes a page loaded
 * over http://<LAN address> fetch its own scripts over https and break; the LAN tablets use plain http.
 */
export const CONTENT_SECURITY_POLICY: Record<string, string[]> = {
  'default-src': ["'self'"],
  // No 'unsafe-inline' / 'unsafe-eval': the built index.html has no inline script (checked by tests/api/security-headers.test.ts).
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  // why 'unsafe-inline' for styles only: Chakra UI (emotion) and html5-qrcode write <style> elements and style attributes at run time.
  'style-src': ["'self'", "'unsafe-inline'"],
  // data: for inline SVG icons and generated QR codes, blob: for photos taken on the device before they are uploaded.
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  // The service worker (/sw.js) and bundled workers (the PDF renderer to come) are same-origin; blob: for libraries that start workers from code.
  'worker-src': ["'self'", 'blob:'],
  'connect-src': ["'self'"],
  // The camera preview of the QR scanner.
  'media-src': ["'self'", 'blob:'],
  'manifest-src': ["'self'"],
  'frame-ancestors': ["'none'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
};

/** Sent only on an answer to a request that arrived over TLS (directly, or per X-Forwarded-Proto from a trusted proxy). */
export const HSTS_VALUE = 'max-age=31536000';

const HELMET_OPTIONS: FastifyHelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
  // why off here: helmet would send it on plain http too; on http://<LAN address> that makes browsers refuse the app.
  strictTransportSecurity: false,
  xFrameOptions: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  crossOriginOpenerPolicy: { policy: 'same-origin' },
  crossOriginResourcePolicy: { policy: 'same-origin' },
  // why off: require-corp would block nothing today but every future cross-origin resource silently; the app needs no SharedArrayBuffer.
  crossOriginEmbedderPolicy: false,
};

export default fp(
  async function securityHeaders(app: FastifyInstance) {
    // why computed once: @fastify/helmet builds helmet's middleware anew for every request (options checked, the
    // CSP string joined), a measurable part of a small read's CPU. The headers are the same for every answer, so
    // they are taken once from helmet itself and set per request as it sets them (on the raw response, where a
    // route's own header still replaces them).
    const headers = await helmetHeaders();
    app.addHook('onRequest', (request, reply, done) => {
      for (const [name, value] of headers) reply.raw.setHeader(name, value);
      // why no-store: API answers hold the tenant's records, tokens and signed file URLs; no shared proxy and no disk
      // cache of a tablet passed between shift workers keeps them. The device's own copy is its IndexedDB mirror. A
      // route that may be cached (a file's bytes, private) sets its own Cache-Control, which replaces this one.
      if (request.url.startsWith('/api/')) reply.raw.setHeader('cache-control', 'no-store');
      // request.protocol is 'https' for a TLS socket, or for X-Forwarded-Proto: https when TRUST_PROXY trusts the sender.
      if (request.protocol === 'https') void reply.header('strict-transport-security', HSTS_VALUE);
      done();
    });
  },
  { name: 'security-headers' },
);

/** The headers helmet sets with HELMET_OPTIONS, as it sets them on a response (one request to a throwaway app). */
async function helmetHeaders(): Promise<[string, string | number | string[]][]> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, HELMET_OPTIONS);
  probe.get('/', async (_request, reply) => reply.raw.getHeaders());
  const response = await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  const headers = Object.entries(response.json<Record<string, string | number | string[]>>());
  if (!headers.some(([name]) => name === 'content-security-policy')) throw new Error('helmet set no Content-Security-Policy');
  return headers;
}
