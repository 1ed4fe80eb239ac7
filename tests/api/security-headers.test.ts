/**
 * Every kind of answer carries the browser security headers (docs/security.md, "Browser security: headers and
 * CSP"), and HSTS only when the request came over TLS. The e2e suite proves the app runs under this policy
 * (tests/e2e/support/test.ts fails any spec on a CSP violation).
 */
import Fastify from 'fastify';
import { randomUUID } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { originFormUrl } from '../../src/server/app';
import securityHeadersPlugin from '../../src/server/plugins/security-headers';
import { insertTenant, loginAs } from '../factories/tenant';
import { createTestApp, fakeClientBuild, type TestApp } from './support/test-app';

type Headers = Record<string, string | string[] | number | undefined>;

/** The policy as a map of directive → sources, so the test reads like the promise in docs/security.md. */
function directives(headers: Headers): Map<string, string[]> {
  const policy = String(headers['content-security-policy'] ?? '');
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

function expectSecurityHeaders(headers: Headers, what: string) {
  const csp = directives(headers);
  expect(Object.fromEntries(csp), what).toEqual({
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'worker-src': ["'self'", 'blob:'],
    'connect-src': ["'self'"],
    'media-src': ["'self'", 'blob:'],
    'manifest-src': ["'self'"],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
  });
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['x-frame-options'], what).toBe('DENY');
  expect(headers['referrer-policy'], what).toBe('no-referrer');
  expect(headers['cross-origin-opener-policy'], what).toBe('same-origin');
  expect(headers['cross-origin-embedder-policy'], what).toBeUndefined();
  expect(headers['strict-transport-security'], `${what}: no HSTS over plain http`).toBeUndefined();
}

describe('security headers', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = await fakeClientBuild();
    t = await createTestApp({ CLIENT_DIST: dist });
  });
  afterAll(async () => {
    await t?.close();
    await rm(dist, { recursive: true, force: true });
  });

  it.each([
    ['an API JSON route', 'GET', '/api/health', 200],
    ['an API error (no token)', 'GET', '/api/allsitesareasequipments', 401],
    ['an API validation error', 'POST', '/api/auth/login', 400],
    ['an unknown API path', 'GET', '/api/nothing/here', 404],
    ['the app at /', 'GET', '/', 200],
    ['the SPA fallback for a deep link', 'GET', '/machine-overview?nodeid=0191&tab=3', 200],
    ['a static asset', 'GET', '/assets/index-BdX3k9aQ.js', 200],
    ['the service worker', 'GET', '/sw.js', 200],
    ['a missing file', 'GET', '/assets/missing-12345678.js', 404],
    ['the OpenAPI UI', 'GET', '/api/docs/', 200],
    ['the OpenAPI UI script', 'GET', '/api/docs/static/swagger-initializer.js', 200],
    ['the OpenAPI document', 'GET', '/api/docs/json', 200],
  ] as const)('%s (%s %s) carries them', async (what, method, url, status) => {
    const response = await t.app.inject({ method, url, ...(method === 'POST' ? { payload: {} } : {}) });
    expect(response.statusCode, what).toBe(status);
    expectSecurityHeaders(response.headers, what);
  });

  it('sends HSTS when a trusted proxy says the request came over https, never on plain http', async () => {
    const proxied = await createTestApp({ TRUST_PROXY: 'true' });
    try {
      const https = await proxied.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
      expect(https.headers['strict-transport-security']).toBe('max-age=31536000');
      const error = await proxied.app.inject({ method: 'GET', url: '/api/allsitesareasequipments', headers: { 'x-forwarded-proto': 'https' } });
      expect(error.statusCode).toBe(401);
      expect(error.headers['strict-transport-security']).toBe('max-age=31536000');
      const http = await proxied.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'http' } });
      expect(http.headers['strict-transport-security']).toBeUndefined();
      const direct = await proxied.app.inject({ method: 'GET', url: '/api/health' });
      expect(direct.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await proxied.close();
    }
  });

  it('no API answer may be stored by a cache (records, tokens, signed URLs); the client files keep theirs', async () => {
    const tenant = await insertTenant(t.database.db);
    const { authorization } = await loginAs(t.app, tenant.admin);
    const clientId = randomUUID();
    for (const [url, status] of [['/api/sites?lang=de', 200], ['/api/sync/pull?since=0&limit=1', 200], ['/api/allsitesareasequipments', 200], ['/api/nothing/here', 404]] as const) {
      const response = await t.app.inject({ method: 'GET', url, headers: { authorization, 'x-client-id': clientId } });
      expect(response.statusCode, `${url}: ${response.body.slice(0, 200)}`).toBe(status);
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: {} });
    expect(login.headers['cache-control']).toBe('no-store');
    expect((await t.app.inject({ method: 'GET', url: '/assets/index-BdX3k9aQ.js' })).headers['cache-control']).not.toBe('no-store');
  });

  // Found by an attacker's probe: `GET http://host/api/sites` (absolute form, valid HTTP/1.1) reached the route, but
  // the no-store check read the whole URL as the path, and an unknown API path got the app's HTML.
  it('a request target in absolute form is the same request as its path: no-store, a JSON 404', async () => {
    const tenant = await insertTenant(t.database.db);
    const { authorization } = await loginAs(t.app, tenant.admin);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const raw = (target: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
        socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: ${authorization}\r\nConnection: close\r\n\r\n`);
      });
    const sites = await raw(`http://127.0.0.1:${port}/api/sites?lang=de`);
    expect(sites).toMatch(/^HTTP\/1\.1 200 /);
    expect(sites.toLowerCase()).toContain('cache-control: no-store');
    const unknown = await raw(`HTTP://127.0.0.1:${port}/api/nothing/here`);
    expect(unknown).toMatch(/^HTTP\/1\.1 404 /);
    expect(unknown).toContain('"Route GET /api/nothing/here not found"');
    expect(originFormUrl({ url: 'http://host/api/sites?lang=de' })).toBe('/api/sites?lang=de');
    expect(originFormUrl({ url: '/api/sites' })).toBe('/api/sites');
  });

  it('ignores X-Forwarded-Proto from a client when no proxy is trusted', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it("keeps a route's own Content-Security-Policy (a file download's sandbox)", async () => {
    const app = Fastify();
    await app.register(securityHeadersPlugin);
    app.get('/download', async (_request, reply) => reply.header('content-security-policy', "sandbox; default-src 'none'").send('bytes'));
    try {
      const response = await app.inject({ method: 'GET', url: '/download' });
      expect(response.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    } finally {
      await app.close();
    }
  });

  it('the client page has no inline script for the policy to block', async () => {
    // why the source index.html: it is what Vite builds dist/index.html from (vite-plugin-pwa injects no
    // registration script, injectRegister: false); the e2e suite checks the built app in a browser.
    const html = await readFile(new URL('../../index.html', import.meta.url), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc=/);
      expect(body!.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });
});
