import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../src/shared/api/errors';
import { createTestApp, fakeClientBuild, type TestApp } from './support/test-app';

describe('system routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('GET /api/health answers ok with the database kind and version', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', db: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite', version: '0.1.0' });
  });

  it('serves an OpenAPI 3 document listing every route with its schemas', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json() as { openapi: string; paths: Record<string, Record<string, { security?: unknown[]; responses: object; requestBody?: object }>> };
    expect(document.openapi).toMatch(/^3\./);
    const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    expect(operations).toEqual(
      expect.arrayContaining([
        'GET /api/health',
        'POST /api/auth/login',
        'POST /api/auth/logout',
        'POST /api/object/refresh-token',
        'GET /api/profiles',
        'GET /api/users/acl/{clientid}',
        'GET /api/users/{id}',
        'GET /api/chatrooms',
        'GET /api/allsitesareasequipments',
        'GET /api/sitesareasequipments',
        'GET /api/sites',
        'POST /api/sites',
        'GET /api/sites/{id}',
        'PUT /api/sites/{id}',
        'DELETE /api/sites/{id}',
      ]),
    );
    expect(operations.filter((op) => op.includes('/api/docs'))).toEqual([]);
    expect(document.paths['/api/health']!.get!.security).toEqual([]);
    expect(document.paths['/api/sites']!.post!.security).toBeUndefined();
    expect(document.paths['/api/sites']!.post!.requestBody).toBeDefined();
    expect(Object.keys(document.paths['/api/sites']!.post!.responses)).toEqual(expect.arrayContaining(['201', '400', '403']));
  });

  it('serves the Swagger UI without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
  });

  it.each([
    ['GET', '/api/does-not-exist'],
    ['POST', '/api/does-not-exist'],
    ['GET', '/api'],
  ] as const)('answers %s %s with a JSON 404', async (method, url) => {
    const response = await t.app.inject({ method, url });
    expect(response.statusCode).toBe(404);
    expect(apiErrorSchema.parse(response.json())).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });

  it('says the client is not built when CLIENT_DIST has no index.html', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/dashboard' });
    expect(response.statusCode).toBe(503);
    expect(response.body).toMatch(/not built/);
  });

  it('answers a body that is not JSON with a 400 in the error format', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"email":' });
    expect(response.statusCode).toBe(400);
    expect(apiErrorSchema.parse(response.json()).statusCode).toBe(400);
  });
});

describe('static client', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = await fakeClientBuild();
    await writeFile(join(dist, 'manifest.webmanifest'), '{}');
    await writeFile(join(dist, 'workbox-5f1e2c3d.js'), '');
    await writeFile(join(dist, 'screenshot-dashboard.png'), '');
    t = await createTestApp({ CLIENT_DIST: dist });
  });
  afterAll(async () => {
    await t?.close();
    await rm(dist, { recursive: true, force: true });
  });

  it.each(['/', '/login', '/machine-overview?nodeid=0191&tab=3', '/sites/2'])('answers GET %s with index.html, never cached', async (url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root">');
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('caches hashed assets for a year and revalidates sw.js and other unhashed files', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-BdX3k9aQ.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await t.app.inject({ method: 'GET', url: '/workbox-5f1e2c3d.js' })).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/sw.js', '/manifest.webmanifest', '/screenshot-dashboard.png']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('answers a missing file with 404 instead of the app', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/assets/missing-12345678.js' });
    expect(response.statusCode).toBe(404);
  });

  it('still answers unknown API paths with JSON', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nothing/here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ statusCode: 404 });
  });
});
