import { eq } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { readdir } from 'node:fs/promises';
import { request as httpRequest, type ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredFileSchema, type RegisteredFile } from '../../src/shared/api/files';
import { READ_ONLY, NONE, type ProfileFeatures } from '../../src/shared/permissions';
import { files } from '../../src/server/db/schema';
import { downloadUrl } from '../../src/server/services/file-service';
import { insertFile, jpegBytes, officeBytes, pdfBytes, pngBytes } from '../factories/files';
import { insertProfile, insertUser, loginAs, type TestTenant } from '../factories/tenant';
import { call, userWithFlags } from './support/requests';
import { createOneTenantApp, type TestApp } from './support/test-app';

const MiB = 1024 * 1024;
/** Chunk size of the test's own writes: small, so the test's garbage does not hide the server's memory. */
const CHUNK = 64 * 1024;

/** One PUT over a real socket, its body written chunk by chunk as the socket drains. */
interface StreamedPut {
  request: ClientRequest;
  /** Resolves with the answer's status and body once the server answered. */
  answer: Promise<{ status: number; body: string; connection: string | undefined }>;
}

function startPut(origin: string, url: string, contentType: string): StreamedPut {
  const request = httpRequest(new URL(url, origin), { method: 'PUT', headers: { 'content-type': contentType } });
  const answer = new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
    request.on('response', (response) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8'), connection: response.headers.connection }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
  return { request, answer };
}

async function write(request: ClientRequest, chunk: Buffer): Promise<void> {
  if (!request.write(chunk)) await once(request, 'drain');
}

// why a forced collection: chunks already written are garbage, which V8 frees only once some tens of MiB of it
// piled up; the bound is on what the server keeps, so each sample is taken after a full collection.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Chunk `i` of a large PDF-typed test file: a PDF header first, then bytes that differ per chunk. */
function bigFileChunk(i: number, size: number): Buffer {
  const chunk = Buffer.alloc(size, i & 0xff);
  if (i === 0) chunk.write('%PDF-1.7\n%\u00e2\u00e3\n', 'latin1');
  return chunk;
}

describe('file uploads: streaming, types, served headers', () => {
  let t: TestApp;
  let a: TestTenant;
  let adminA: string;
  let origin: string;

  const register = async (entry: Record<string, unknown>, authorization = adminA): Promise<RegisteredFile> => {
    const response = await call(t, authorization, 'POST', '/api/files', { count: 1, extensions: [{ nodeid: uuidv7(), ...entry }] });
    expect(response.statusCode, response.body).toBe(200);
    return registeredFileSchema.array().parse(response.json())[0]!;
  };
  const upload = (url: string, bytes: Buffer, contentType = 'application/octet-stream') => t.app.inject({ method: 'PUT', url, headers: { 'content-type': contentType }, payload: bytes });
  const statusOf = async (fileid: string) => (await t.database.db.select().from(files).where(eq(files.fileid, fileid)))[0]!.status;
  /** Every object (and leftover temporary file) the local store holds for the tenant. */
  const storedNames = async () => {
    const root = join(t.config.dataDir, 'files', a.legalEntity.nodeid);
    const names: string[] = [];
    for (const dir of await readdir(root).catch(() => [] as string[])) names.push(...(await readdir(join(root, dir))).map((name) => `${dir}/${name}`));
    return names;
  };

  beforeAll(async () => {
    ({ t, a, adminA } = await createOneTenantApp());
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t?.close());

  it('streams a 50 MiB upload to storage with constant memory; the stored bytes have its SHA-256', { timeout: 60_000 }, async () => {
    const size = t.config.fileMaxBytes;
    expect(size).toBe(50 * MiB);
    const registered = await register({ extension: 'pdf', size });
    collectGarbage();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakArrayBuffers = before.arrayBuffers;
    const sample = () => {
      collectGarbage();
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakArrayBuffers = Math.max(peakArrayBuffers, now.arrayBuffers);
    };
    const hash = createHash('sha256');
    const put = startPut(origin, registered.url, 'application/pdf');
    for (let i = 0; i < size / CHUNK; i++) {
      const chunk = bigFileChunk(i, CHUNK);
      hash.update(chunk);
      await write(put.request, chunk);
      // Every 5 MiB, while the server is in the middle of the body.
      if ((i * CHUNK) % (5 * MiB) === 0) sample();
    }
    put.request.end();
    const answer = await put.answer;
    sample();
    expect(answer.status, answer.body).toBe(200);
    expect(answer.connection).not.toBe('close');
    expect(JSON.parse(answer.body)).toMatchObject({ size, status: 'complete' });
    // A memory bound, not a time bound: buffering the body would hold 50 MiB (the old parser held several copies).
    expect(peakRss - before.rss).toBeLessThan(20 * MiB);
    expect(peakArrayBuffers - before.arrayBuffers).toBeLessThan(20 * MiB);

    const [row] = await t.database.db.select().from(files).where(eq(files.fileid, registered.fileid));
    expect(row).toMatchObject({ status: 'complete', size, sha256: hash.digest('hex') });
    const download = startGet(origin, downloadUrl(t.app.fileUrls, registered));
    const served = await download;
    expect(served.status).toBe(200);
    expect(served.headers['content-length']).toBe(String(size));
    expect(served.headers.connection).not.toBe('close');
    expect(served.sha256).toBe(row!.sha256);
  });

  it('answers other requests while an upload is still arriving', { timeout: 30_000 }, async () => {
    const registered = await register({ extension: 'txt' });
    const put = startPut(origin, registered.url, 'text/plain');
    let uploadAnswered = false;
    void put.answer.then(() => (uploadAnswered = true));
    await write(put.request, Buffer.from('Zeile 1\n'));
    for (let i = 2; i <= 5; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      await write(put.request, Buffer.from(`Zeile ${i}\n`));
      const health = await fetch(`${origin}/api/health`);
      expect(health.status).toBe(200);
      expect(uploadAnswered).toBe(false);
    }
    put.request.end();
    expect((await put.answer).status).toBe(200);
  });

  it.each([
    ['pdf', pdfBytes(), 'application/pdf'],
    ['png', pngBytes(3, 2), 'image/png'],
    ['jpg', jpegBytes(), 'image/jpeg'],
    ['docx', officeBytes('docx'), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['xlsx', officeBytes('xlsx'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['txt', Buffer.from('\uFEFFPrüfprotokoll Presse 3\nDruck i. O.\n'), 'text/plain'],
    ['csv', Buffer.from('Datum;Zählerstand\n2026-11-01;1200\n'), 'text/csv'],
  ])('takes a real .%s', async (extension, bytes, mimetype) => {
    const registered = await register({ extension, mimetype, size: bytes.length });
    const put = await upload(registered.url, bytes, mimetype);
    expect(put.statusCode, put.body).toBe(200);
    const download = await t.app.inject({ method: 'GET', url: downloadUrl(t.app.fileUrls, registered) });
    expect(download.rawPayload.equals(bytes)).toBe(true);
  });

  it.each([
    ['HTML as .png', 'png', Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>')],
    ['HTML as .txt', 'txt', Buffer.from('  \n<!DOCTYPE html><html><script>alert(1)</script></html>')],
    ['HTML after a BOM as .csv', 'csv', Buffer.from('\uFEFF<script>alert(1)</script>')],
    ['HTML after a zero-width space as .txt', 'txt', Buffer.from('\u200B<html><script>alert(1)</script></html>')],
    ['HTML after ZWNJ, ZWJ and a word joiner as .txt', 'txt', Buffer.from('\u200C\u200D\u2060<script>alert(1)</script>')],
    ['HTML after a BOM, a zero-width space and whitespace as .csv', 'csv', Buffer.from('\uFEFF\u200B \n<html><script>alert(1)</script></html>')],
    ['SVG after a soft hyphen as .txt', 'txt', Buffer.from('\u00AD<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ['SVG as .txt', 'txt', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ['a PNG as .pdf', 'pdf', pngBytes()],
    ['a PDF as .jpg', 'jpg', pdfBytes()],
    ['a PNG as .txt', 'txt', pngBytes()],
    ['text with a NUL as .txt', 'txt', Buffer.from('Zeile\u0000zwei')],
    ['bytes that are not UTF-8 as .txt', 'txt', Buffer.from([0x48, 0x61, 0x6c, 0x6c, 0x6f, 0xff, 0xfe, 0x0a])],
    ['a ZIP that is no Office file as .pdf', 'pdf', officeBytes('docx')],
  ])('refuses %s (415): nothing stored, the file stays pending', async (_name, extension, bytes) => {
    const registered = await register({ extension });
    const before = await storedNames();
    const put = await upload(registered.url, bytes);
    expect(put.statusCode, put.body).toBe(415);
    expect(put.json()).toMatchObject({ message: expect.stringContaining('Ungültiger Dateityp!') });
    expect(await statusOf(registered.fileid)).toBe('pending');
    expect(await storedNames()).toEqual(before);
  });

  it('refuses a too big body over a real socket with 413, stores nothing and closes the connection', { timeout: 30_000 }, async () => {
    const registered = await register({ extension: 'pdf', size: 3 * MiB });
    const before = await storedNames();
    const put = startPut(origin, registered.url, 'application/pdf');
    // why no awaited writes after the first megabyte: the server stops reading once it refused, so drain
    // may never come; the answer must arrive anyway.
    put.request.on('error', () => undefined);
    for (let i = 0; i < 5; i++) put.request.write(bigFileChunk(i, MiB));
    const answer = await put.answer;
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ message: expect.stringContaining(`Expected ${3 * MiB} bytes`) });
    // The unread rest of the body must not be taken for the next request on this connection.
    expect(answer.connection).toBe('close');
    put.request.destroy();
    expect(await statusOf(registered.fileid)).toBe('pending');
    expect(await storedNames()).toEqual(before);
  });

  describe('served headers', () => {
    const served = async (extension: string, bytes: Buffer, mimetype: string) => {
      const registered = await register({ extension, mimetype });
      expect((await upload(registered.url, bytes, mimetype)).statusCode).toBe(200);
      return t.app.inject({ method: 'GET', url: downloadUrl(t.app.fileUrls, registered) });
    };

    it.each([
      ['png', 'inline', pngBytes(), 'image/png'],
      ['jpg', 'inline', jpegBytes(), 'image/jpeg'],
      ['pdf', 'inline', pdfBytes(), 'application/pdf'],
      ['docx', 'attachment', officeBytes('docx'), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['txt', 'attachment', Buffer.from('Notiz\n'), 'text/plain'],
    ])('.%s is served %s with nosniff and a sandbox', async (extension, disposition, bytes, mimetype) => {
      const response = await served(extension, bytes, mimetype);
      expect(response.statusCode).toBe(200);
      // Text is served as UTF-8: the upload was checked to be exactly that.
      expect(response.headers['content-type']).toBe(mimetype === 'text/plain' ? 'text/plain; charset=utf-8' : mimetype);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['content-disposition']).toMatch(new RegExp(`^${disposition}; filename="[0-9a-f-]+\\.${extension}"$`));
      expect(response.headers['content-security-policy']).toContain('sandbox');
    });

    it('serves an SVG (as the demo plant stores them) only as a download, never inline', async () => {
      const file = await insertFile(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, extension: 'svg', mimetype: 'image/svg+xml', status: 'complete' });
      await t.app.fileStorage.put(file.storagekey, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'image/svg+xml');
      const response = await t.app.inject({ method: 'GET', url: downloadUrl(t.app.fileUrls, file) });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-disposition']).toMatch(/^attachment; /);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['content-security-policy']).toMatch(/default-src 'none'/);
    });

    it('refuses an SVG upload: it is no upload type', async () => {
      const response = await call(t, adminA, 'POST', '/api/files', { count: 1, extensions: [{ nodeid: uuidv7(), extension: 'svg' }] });
      expect(response.statusCode).toBe(400);
      const asImage = await call(t, adminA, 'POST', '/api/files', { count: 1, extensions: [{ nodeid: uuidv7(), extension: 'png', mimetype: 'image/svg+xml' }] });
      expect(asImage.statusCode).toBe(400);
    });
  });

  describe('who may upload', () => {
    it('the read-only profile (as the demo reader) cannot register an upload (403)', async () => {
      const features: ProfileFeatures = { equipment: READ_ONLY, 'equipment.attachment': READ_ONLY, 'equipment.faq': READ_ONLY, notification: READ_ONLY, 'notification.report': READ_ONLY, user: NONE };
      const profile = await insertProfile(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, features });
      const reader = await insertUser(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, profileid: profile.profileid });
      const { authorization } = await loginAs(t.app, reader);
      const before = await t.database.db.select().from(files);
      const response = await call(t, authorization, 'POST', '/api/files', { count: 1, extensions: [{ nodeid: uuidv7(), extension: 'pdf' }] });
      expect(response.statusCode).toBe(403);
      // Before its body is looked at, like every route's permission: an invalid one tells a reader nothing either.
      for (const body of [{}, { count: 1, extensions: [{ nodeid: 'kein-uuid', extension: 'exe' }] }]) {
        const invalid = await call(t, authorization, 'POST', '/api/files', body);
        expect(invalid.statusCode, invalid.body).toBe(403);
      }
      expect(await t.database.db.select().from(files)).toHaveLength(before.length);
    });

    it('one permission that takes files is enough (attachments only)', async () => {
      const noWrites: ProfileFeatures = { equipment: READ_ONLY, 'equipment.faq': READ_ONLY, notification: READ_ONLY, 'notification.report': READ_ONLY };
      const profile = await insertProfile(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, features: { ...noWrites, 'equipment.attachment': [true, true, false, false] } });
      const user = await insertUser(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, profileid: profile.profileid });
      const { authorization } = await loginAs(t.app, user);
      await register({ extension: 'pdf' }, authorization);
    });
  });

  // Last in this suite: it closes the app (afterAll's close then only drops the database).
  it('closing the server does not wait for an upload that is still arriving', { timeout: 30_000 }, async () => {
    const registered = await register({ extension: 'txt' });
    const before = await storedNames();
    const put = startPut(origin, registered.url, 'text/plain');
    put.answer.catch(() => undefined);
    await write(put.request, Buffer.from('Der Anfang, der Rest kommt nie\n'));
    while (!(await storedNames()).some((name) => name.endsWith('.tmp'))) await new Promise((resolve) => setTimeout(resolve, 10));
    // The upload never ends; before streaming, close() (and SIGTERM with it) waited for it for ever. Once close()
    // is done the temporary file is gone too: the process may exit right after it.
    await t.app.close();
    expect(await storedNames()).toEqual(before);
    expect(await statusOf(registered.fileid)).toBe('pending');
  });
});

describe('upload quota and rate', () => {
  let t: TestApp;
  let a: TestTenant;

  beforeAll(async () => {
    ({ t, a } = await createOneTenantApp({ UPLOAD_QUOTA_BYTES_PER_DAY: '10000', UPLOAD_RATE_PER_MINUTE: '5' }));
  });
  afterAll(() => t?.close());

  const registerAs = (authorization: string, entry: Record<string, unknown>) =>
    call(t, authorization, 'POST', '/api/files', { count: 1, extensions: [{ nodeid: uuidv7(), ...entry }] });

  it('refuses what would pass the daily quota with 413 (not 429: waiting minutes does not help)', async () => {
    const { authorization } = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.attachment', [true, true, true, true]);
    const nodeid = uuidv7();
    const first = await registerAs(authorization, { nodeid, extension: 'txt', size: 6000 });
    expect(first.statusCode, first.body).toBe(200);
    // The device resending the same registration does not count it twice.
    expect((await registerAs(authorization, { nodeid, extension: 'txt', size: 6000 })).statusCode).toBe(200);
    const [registered] = registeredFileSchema.array().parse(first.json());
    expect((await t.app.inject({ method: 'PUT', url: registered!.url, payload: Buffer.alloc(6000, 'a') })).statusCode).toBe(200);

    const declared = await registerAs(authorization, { extension: 'txt', size: 5000 });
    expect(declared.statusCode).toBe(413);
    expect(declared.json()).toMatchObject({ message: expect.stringContaining('Upload quota exceeded') });

    // Without a declared size the bytes themselves are counted while they arrive.
    const undeclared = await registerAs(authorization, { extension: 'txt' });
    expect(undeclared.statusCode).toBe(200);
    const [open] = registeredFileSchema.array().parse(undeclared.json());
    const over = await t.app.inject({ method: 'PUT', url: open!.url, payload: Buffer.alloc(5000, 'b') });
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ message: expect.stringContaining('Upload quota exceeded') });
    expect(over.headers['retry-after']).toBeUndefined();
    const [row] = await t.database.db.select().from(files).where(eq(files.fileid, open!.fileid));
    expect(row!.status).toBe('pending');
    // What is left still fits.
    expect((await t.app.inject({ method: 'PUT', url: open!.url, payload: Buffer.alloc(4000, 'c') })).statusCode).toBe(200);
  });

  // Found by an attacker's probe: a file id listed twice in one request reserved its size twice, and under another
  // extension it was answered with the first entry's file.
  it('one request naming a file twice reserves its size once; the same id with other values is refused', async () => {
    const { authorization } = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.attachment', [true, true, true, true]);
    const nodeid = uuidv7();
    const twice = await call(t, authorization, 'POST', '/api/files', { count: 2, extensions: [{ nodeid, extension: 'txt', size: 6000 }, { nodeid, extension: 'txt', size: 6000 }] });
    expect(twice.statusCode, twice.body).toBe(200);
    expect(registeredFileSchema.array().parse(twice.json()).map((file) => file.nodeid)).toEqual([nodeid, nodeid]);

    const other = uuidv7();
    const before = await t.database.db.select().from(files).where(eq(files.nodeid, other));
    const mixed = await call(t, authorization, 'POST', '/api/files', { count: 2, extensions: [{ nodeid: other, extension: 'txt', size: 10 }, { nodeid: other, extension: 'pdf', size: 10 }] });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json()).toMatchObject({ details: [{ field: 'extensions.1.nodeid' }] });
    expect(before).toEqual([]);
    expect(await t.database.db.select().from(files).where(eq(files.nodeid, other))).toEqual([]);
  });

  it("a file's next version listed twice in one request reserves its size once", async () => {
    const { authorization } = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.attachment', [true, true, true, true]);
    const [first] = registeredFileSchema.array().parse((await registerAs(authorization, { extension: 'txt', size: 10 })).json());
    expect((await t.app.inject({ method: 'PUT', url: first!.url, payload: Buffer.alloc(10, 'a') })).statusCode).toBe(200);
    const next = await call(t, authorization, 'POST', '/api/files', {
      count: 2,
      extensions: [
        { nodeid: uuidv7(), extension: 'txt', size: 6000, fileid: first!.fileid },
        { nodeid: uuidv7(), extension: 'txt', size: 6000, fileid: first!.fileid },
      ],
    });
    expect(next.statusCode, next.body).toBe(200);
    const [one, again] = registeredFileSchema.array().parse(next.json());
    expect(one).toMatchObject({ fileversion: 2 });
    expect(again!.nodeid).toBe(one!.nodeid);
    // Asked for twice as different files, it is refused: the second would be answered with the first's type.
    const mixed = await call(t, authorization, 'POST', '/api/files', {
      count: 2,
      extensions: [
        { nodeid: uuidv7(), extension: 'txt', size: 10, fileid: first!.fileid },
        { nodeid: uuidv7(), extension: 'pdf', size: 20, fileid: first!.fileid },
      ],
    });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json()).toMatchObject({ details: [{ field: 'extensions.1.fileid' }] });
  });

  // Found in review: the check in the transaction left out every file of the request, but counted only the new
  // ones, so a pending file listed again (without its size) was counted nowhere.
  it('a pending file listed again beside a new one still counts its reservation', async () => {
    const { authorization } = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.attachment', [true, true, true, true]);
    const pending = uuidv7();
    expect((await registerAs(authorization, { nodeid: pending, extension: 'txt', size: 6000 })).statusCode).toBe(200);
    const both = await call(t, authorization, 'POST', '/api/files', { count: 2, extensions: [{ nodeid: pending, extension: 'txt' }, { nodeid: uuidv7(), extension: 'txt', size: 6000 }] });
    expect(both.statusCode).toBe(413);
  });

  // Found in review: the quota was read before the registration's transaction, so requests sent at once all saw
  // the same room and together stored several times the quota.
  it('registrations sent at once take the quota one after another: only what fits is registered', async () => {
    const { authorization } = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.attachment', [true, true, true, true]);
    const answers = await Promise.all(Array.from({ length: 4 }, () => registerAs(authorization, { extension: 'txt', size: 4000 })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 413, 413]);
  });

  it('uploads of files registered without a size, sent at once, store only what fits', async () => {
    const { authorization, usernodeid } = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.attachment', [true, true, true, true]);
    const registered = await Promise.all(Array.from({ length: 3 }, async () => registeredFileSchema.array().parse((await registerAs(authorization, { extension: 'txt' })).json())[0]!));
    const answers = await Promise.all(registered.map((file, i) => t.app.inject({ method: 'PUT', url: file.url, payload: Buffer.alloc(4000, String(i)) })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 413]);
    const complete = await t.database.db.select().from(files).where(eq(files.createdbynodeid, usernodeid));
    expect(complete.filter((row) => row.status === 'complete').reduce((sum, row) => sum + (row.size ?? 0), 0)).toBe(8000);
  });

  // Found in review: files registered without a size a day before their upload counted from their registration, so
  // their bytes fell outside every window and the quota stored any amount.
  it('bytes count from when they arrived, not from a registration a day earlier', async () => {
    const { authorization, usernodeid } = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.attachment', [true, true, true, true]);
    const registered = await Promise.all(Array.from({ length: 3 }, async () => registeredFileSchema.array().parse((await registerAs(authorization, { extension: 'txt' })).json())[0]!));
    await t.database.db.update(files).set({ createdAt: new Date(Date.now() - 25 * 3_600_000) }).where(eq(files.createdbynodeid, usernodeid));
    const statuses: number[] = [];
    for (const [i, file] of registered.entries()) statuses.push((await t.app.inject({ method: 'PUT', url: file.url, payload: Buffer.alloc(4000, String(i)) })).statusCode);
    expect(statuses).toEqual([200, 200, 413]);
  });

  it('the quota is per user: a colleague still uploads', async () => {
    const { authorization } = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.attachment', [true, true, true, true]);
    expect((await registerAs(authorization, { extension: 'txt', size: 9000 })).statusCode).toBe(200);
  });

  it('answers 429 with Retry-After past UPLOAD_RATE_PER_MINUTE registrations of one user', async () => {
    const { authorization } = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.attachment', [true, true, true, true]);
    for (let i = 0; i < 5; i++) expect((await registerAs(authorization, { extension: 'pdf' })).statusCode).toBe(200);
    const refused = await registerAs(authorization, { extension: 'pdf' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const other = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.attachment', [true, true, true, true]);
    expect((await registerAs(other.authorization, { extension: 'pdf' })).statusCode).toBe(200);
  });

  it('a registration sent again (same file nodeid) does not count against the rate: it registers nothing new', async () => {
    const { authorization } = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.attachment', [true, true, true, true]);
    const nodeids = Array.from({ length: 5 }, () => uuidv7());
    for (const nodeid of nodeids) expect((await registerAs(authorization, { nodeid, extension: 'pdf' })).statusCode).toBe(200);
    // The rate is used up for new files, but each of the five sent again is answered with its registration.
    for (const nodeid of nodeids) {
      const again = await registerAs(authorization, { nodeid, extension: 'pdf' });
      expect(again.statusCode, again.body).toBe(200);
      expect(registeredFileSchema.array().parse(again.json())[0]!.nodeid).toBe(nodeid);
    }
    // A batch that mixes a known file with a new one registers something new, so it counts.
    const mixed = await call(t, authorization, 'POST', '/api/files', { count: 2, extensions: [{ nodeid: nodeids[0], extension: 'pdf' }, { nodeid: uuidv7(), extension: 'pdf' }] });
    expect(mixed.statusCode).toBe(429);
  });

  it('answers 429 past UPLOAD_RATE_PER_MINUTE content uploads for one user', async () => {
    const { authorization } = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.attachment', [true, true, true, true]);
    const response = await registerAs(authorization, { extension: 'pdf' });
    const [registered] = registeredFileSchema.array().parse(response.json());
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await t.app.inject({ method: 'PUT', url: registered!.url, payload: pdfBytes() })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

/** GET over a real socket, hashing the body as it arrives. */
function startGet(origin: string, url: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; sha256: string }> {
  return new Promise((resolve, reject) => {
    httpRequest(new URL(url, origin), (response) => {
      const hash = createHash('sha256');
      response.on('data', (part: Buffer) => hash.update(part));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, sha256: hash.digest('hex') }));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}
