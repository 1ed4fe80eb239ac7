import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { existsSync } from 'node:fs';
import { basename, join, sep } from 'node:path';
import { sendApiNotFound } from './errors';

export interface StaticClientOptions {
  clientDist: string;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/**
 * Serves the built client (CLIENT_DIST) and answers every other GET outside /api with index.html, so deep links
 * like /machine-overview?nodeid=… load the app (SPA fallback). Vite's hashed files are cached for a year;
 * everything else, above all index.html and sw.js, is revalidated on each load so a deploy reaches every device.
 * Without a build, non-API pages say so instead (API tests and `npm run dev` need no build).
 */
export default fp(
  async function staticClient(app: FastifyInstance, options: StaticClientOptions) {
    const hasClient = existsSync(join(options.clientDist, 'index.html'));
    if (hasClient) {
      await app.register(fastifyStatic, {
        root: options.clientDist,
        prefix: '/',
        wildcard: true,
        cacheControl: false,
        // why: the build writes .br and .gz next to each file (vite.config.ts, precompress()); the file matching the
        // request's Accept-Encoding is sent as it is, with `vary: accept-encoding`; nothing is compressed per request.
        preCompressed: true,
        // why: /api is never a file; an unknown API path must end in the JSON 404 below.
        allowedPath: (pathName) => !isApiPath(pathName),
        setHeaders: (res, path) => {
          res.setHeader('cache-control', isHashedAsset(path) ? IMMUTABLE : REVALIDATE);
          // why: the same URL answers in br, gzip or plain; a shared cache must keep them apart.
          res.setHeader('vary', 'accept-encoding');
        },
      });
    }

    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '/';
      if (isApiPath(path) || (request.method !== 'GET' && request.method !== 'HEAD')) return sendApiNotFound(request, reply);
      // A missing file (a path with an extension) is a 404, not the app: a script tag must not receive HTML.
      if (basename(path).includes('.')) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
      if (!hasClient) return reply.code(503).type('text/html; charset=utf-8').header('cache-control', REVALIDATE).send(notBuiltPage(options.clientDist));
      return reply.header('cache-control', REVALIDATE).sendFile('index.html', { cacheControl: false });
    });
  },
  { name: 'static-client', dependencies: ['errors'] },
);

function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/**
 * Content-hashed files: everything Vite emits under assets/ (index-BdX3k9aQ.js) and Workbox's runtime
 * (workbox-5f1e2c3d.js). Files copied from public/ keep their names and must be revalidated.
 */
function isHashedAsset(path: string): boolean {
  return path.includes(`${sep}assets${sep}`) || /^workbox-[0-9a-f]{8}\.js$/.test(basename(path));
}

function notBuiltPage(clientDist: string): string {
  return `<!doctype html>
<html lang="de"><head><meta charset="utf-8"><title>Anlagenbuch</title></head>
<body style="font-family: system-ui, sans-serif; margin: 3rem">
<h1>Anlagenbuch</h1>
<p>The client is not built: <code>${escapeHtml(clientDist)}</code> has no index.html. Run <code>npm run build</code>, or start with <code>npm start</code>, which builds it.</p>
<p>The API is available: <a href="/api/health">/api/health</a>, documentation at <a href="/api/docs">/api/docs</a>.</p>
</body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
