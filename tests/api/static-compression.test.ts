/**
 * Precompressed static files: the build writes `.br` and `.gz` next to each asset (vite.config.ts) and the server
 * sends the one the request accepts, as it is. index.html, also through the SPA fallback, stays revalidated in
 * every encoding, so a deploy still reaches every device.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, fakeClientBuild, type TestApp } from './support/test-app';

const MAIN_JS = '/assets/index-BdX3k9aQ.js';
const SCRIPT = `export const rows = [${Array.from({ length: 400 }, (_, i) => `"machine ${i}"`).join(',')}];\n`;
const INDEX = `<!doctype html><html lang="de"><head><title>Anlagenbuch</title><script type="module" src="${MAIN_JS}"></script></head><body><div id="root"></div>${' '.repeat(2000)}</body></html>`;

async function writeWithCompressed(path: string, content: string): Promise<void> {
  await writeFile(path, content);
  await writeFile(`${path}.br`, brotliCompressSync(content));
  await writeFile(`${path}.gz`, gzipSync(content));
}

describe('precompressed static files', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = await fakeClientBuild();
    await writeWithCompressed(join(dist, 'assets', 'index-BdX3k9aQ.js'), SCRIPT);
    await writeWithCompressed(join(dist, 'index.html'), INDEX);
    t = await createTestApp({ CLIENT_DIST: dist });
  });
  afterAll(async () => {
    await t?.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('sends the main script brotli-compressed to a client that accepts br, and the bytes decode to the file', async () => {
    const response = await t.app.inject({ method: 'GET', url: MAIN_JS, headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['vary']).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
    expect(response.rawPayload.length).toBeLessThan(SCRIPT.length / 3);
  });

  it('sends gzip to a client that accepts only gzip', async () => {
    const response = await t.app.inject({ method: 'GET', url: MAIN_JS, headers: { 'accept-encoding': 'gzip' } });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the plain file without Accept-Encoding', async () => {
    const response = await t.app.inject({ method: 'GET', url: MAIN_JS, headers: { 'accept-encoding': '' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe(SCRIPT);
  });

  it.each(['/', '/index.html', '/login', '/dashboard', '/machine-overview?nodeid=0191'])('answers %s with index.html, revalidated, in the accepted encoding', async (url) => {
    for (const encoding of ['br', 'gzip', '']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': encoding } });
      expect(response.statusCode, `${url} ${encoding}`).toBe(200);
      expect(response.headers['cache-control'], `${url} ${encoding}`).toBe('no-cache');
      expect(response.headers['vary'], `${url} ${encoding}`).toMatch(/accept-encoding/i);
      const body = encoding === 'br' ? brotliDecompressSync(response.rawPayload) : encoding === 'gzip' ? gunzipSync(response.rawPayload) : response.rawPayload;
      expect(response.headers['content-encoding'], `${url} ${encoding}`).toBe(encoding === '' ? undefined : encoding);
      expect(body.toString(), `${url} ${encoding}`).toBe(INDEX);
    }
  });

  it('never serves a compressed copy as a file of its own type to a client that asks for it by name', async () => {
    // The service worker precaches only the plain files; a direct request for the .br copy is not part of the app.
    const response = await t.app.inject({ method: 'GET', url: `${MAIN_JS}.br`, headers: { 'accept-encoding': '' } });
    expect(response.headers['content-type'] ?? '').not.toMatch(/javascript/);
  });
});
