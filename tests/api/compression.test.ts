import { v7 as uuidv7 } from 'uuid';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredFileSchema } from '../../src/shared/api/files';
import { downloadUrl } from '../../src/server/services/file-service';
import type { TestTenant } from '../factories/tenant';
import { call } from './support/requests';
import { send } from './support/structure';
import { createOneTenantApp, type TestApp } from './support/test-app';

// Compressed API answers (docs/api.md § Compression): brotli or gzip by Accept-Encoding, plain without it, and
// file bytes always exactly as stored.

describe('compression of API answers', () => {
  let t: TestApp;
  let a: TestTenant;
  let adminA: string;
  const clientid = uuidv7();

  const pullFromZero = (headers: Record<string, string>) => send(t, adminA, 'GET', '/api/sync/pull?cursor=0', undefined, { 'x-client-id': clientid, ...headers });

  beforeAll(async () => {
    ({ t, a, adminA } = await createOneTenantApp());
    for (let i = 0; i < 8; i++) {
      const site = { lang: 'de', name: `Werk ${i}`, street: 'Weg 1', zipcode: '12345', city: 'Ulm', country: 'DE', legalentitynodeid: a.legalEntity.nodeid, nodeid: uuidv7() };
      expect((await call(t, adminA, 'POST', '/api/sites', site)).statusCode).toBe(201);
    }
  });
  afterAll(() => t?.close());

  it('answers a pull compressed with gzip or brotli, and plain without Accept-Encoding', async () => {
    const plain = await pullFromZero({});
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const expected: unknown = plain.json();

    const gzip = await pullFromZero({ 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/accept-encoding/i);
    expect(gzip.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString('utf8'))).toEqual(expected);

    const br = await pullFromZero({ 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(expected);
    // One buffer with its length (plugins/answer-compression.ts), not a chunked stream.
    expect(br.headers['content-length']).toBe(String(br.rawPayload.length));
    expect(br.headers['transfer-encoding']).toBeUndefined();

    // The client's weights decide; q=0 refuses an encoding; x-gzip is gzip.
    expect((await pullFromZero({ 'accept-encoding': 'br;q=0.5, gzip' })).headers['content-encoding']).toBe('gzip');
    expect((await pullFromZero({ 'accept-encoding': 'br;q=0, *' })).headers['content-encoding']).toBe('gzip');
    expect((await pullFromZero({ 'accept-encoding': 'x-gzip' })).headers['content-encoding']).toBe('gzip');
    expect((await pullFromZero({ 'accept-encoding': 'identity' })).headers['content-encoding']).toBeUndefined();

    // Small answers (below 1 KB) stay plain: compressing them costs more than it saves.
    const health = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'br, gzip' } });
    expect(health.rawPayload.length).toBeLessThan(1024);
    expect(health.headers['content-encoding']).toBeUndefined();

    // A list answer of more than 1 KB: compressed like the pull, with its length.
    const sites = await t.app.inject({ method: 'GET', url: '/api/sites', headers: { authorization: adminA, 'accept-encoding': 'gzip' } });
    expect(sites.statusCode).toBe(200);
    expect(sites.headers['content-encoding']).toBe('gzip');
    expect(sites.headers['content-length']).toBe(String(sites.rawPayload.length));
    expect(JSON.parse(gunzipSync(sites.rawPayload).toString('utf8'))).toEqual((await call(t, adminA, 'GET', '/api/sites')).json());
  });

  it('sends a file download byte-identical with its length, even to a client accepting compression', async () => {
    const registered = await call(t, adminA, 'POST', '/api/files', { count: 1, extensions: [{ nodeid: uuidv7(), extension: 'txt' }] });
    expect(registered.statusCode, registered.body).toBe(200);
    const [file] = registeredFileSchema.array().parse(registered.json());
    const bytes = Buffer.from('Wartungsprotokoll Presse 3, Zeile für Zeile.\n'.repeat(200));
    const put = await t.app.inject({ method: 'PUT', url: file!.url, headers: { 'content-type': 'text/plain', 'accept-encoding': 'br, gzip' }, payload: bytes });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.headers['content-encoding']).toBeUndefined();

    const download = await t.app.inject({ method: 'GET', url: downloadUrl(t.app.fileUrls, file!), headers: { 'accept-encoding': 'br, gzip' } });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-encoding']).toBeUndefined();
    expect(Number(download.headers['content-length'])).toBe(bytes.length);
    expect(download.rawPayload.equals(bytes)).toBe(true);
  });
});
