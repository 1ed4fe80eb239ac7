import { CreateBucketCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredFileSchema, type RegisteredFile } from '../../src/shared/api/files';
import { BackupError, createBackup, restoreBackup } from '../../src/server/backup/backup';
import type { Config } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/client';
import { files, supportDocuments } from '../../src/server/db/schema';
import { seedReferenceData } from '../../src/server/db/seed/reference-data';
import { seedDemo } from '../../src/server/db/seed/seed-demo';
import { cleanupPendingFiles, downloadUrl } from '../../src/server/services/file-service';
import { createFileStorage } from '../../src/server/storage/file-storage';
import { createS3Client } from '../../src/server/storage/s3-storage';
import { buildFile, pdfBytes, pngBytes } from '../factories/files';
import type { TestTenant } from '../factories/tenant';
import { call } from './support/requests';
import { startS3Server, type TestS3Server } from './support/s3-server';
import { createOneTenantApp, createTestApp, testConfig, type TestApp } from './support/test-app';

const MiB = 1024 * 1024;

/** A streamed PUT over a real socket, `chunks` chunks of 64 KiB, the first with a PDF header. */
function putStreamed(origin: string, url: string, chunks: number): Promise<{ status: number; body: string; sha256: string }> {
  const hash = createHash('sha256');
  return new Promise((resolve, reject) => {
    const request = httpRequest(new URL(url, origin), { method: 'PUT', headers: { 'content-type': 'application/pdf' } }, (response) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(parts).toString(), sha256: hash.digest('hex') }));
    });
    request.on('error', reject);
    let i = 0;
    const next = () => {
      while (i < chunks) {
        const chunk = Buffer.alloc(64 * 1024, i & 0xff);
        if (i === 0) chunk.write('%PDF-1.7\n', 'latin1');
        hash.update(chunk);
        i += 1;
        if (!request.write(chunk)) return void request.once('drain', next);
      }
      request.end();
    };
    next();
  });
}

function getSha256(origin: string, url: string): Promise<{ status: number; length: string | undefined; sha256: string }> {
  return new Promise((resolve, reject) => {
    httpRequest(new URL(url, origin), (response) => {
      const hash = createHash('sha256');
      response.on('data', (part: Buffer) => hash.update(part));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, length: response.headers['content-length'], sha256: hash.digest('hex') }));
    })
      .on('error', reject)
      .end();
  });
}

describe('an installation with its files on S3', () => {
  let s3: TestS3Server;
  const keysIn = async (bucket = s3.settings.bucket) => {
    const client = createS3Client({ ...s3.settings, bucket });
    try {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (listed.Contents ?? []).map((object) => object.Key!).sort();
    } finally {
      client.destroy();
    }
  };

  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(() => s3?.close());

  describe('upload and download through the server', () => {
    let t: TestApp;
    let a: TestTenant;
    let adminA: string;
    let origin: string;
    const register = async (entry: Record<string, unknown>): Promise<RegisteredFile> => {
      const response = await call(t, adminA, 'POST', '/api/files', { count: 1, extensions: [{ nodeid: uuidv7(), ...entry }] });
      expect(response.statusCode, response.body).toBe(200);
      return registeredFileSchema.array().parse(response.json())[0]!;
    };
    const upload = (url: string, bytes: Buffer, contentType = 'application/octet-stream') => t.app.inject({ method: 'PUT', url, headers: { 'content-type': contentType }, payload: bytes });

    beforeAll(async () => {
      ({ t, a, adminA } = await createOneTenantApp(s3.env));
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    afterAll(() => t?.close());

    it('streams an upload of several parts into the bucket and serves it back; the row names the bucket', { timeout: 60_000 }, async () => {
      const size = 12 * MiB;
      const registered = await register({ extension: 'pdf', size });
      expect(registered.bucketid).toBe('anlagenbuch-test');
      const put = await putStreamed(origin, registered.url, size / (64 * 1024));
      expect(put.status, put.body).toBe(200);
      const [row] = await t.database.db.select().from(files).where(eq(files.fileid, registered.fileid));
      expect(row).toMatchObject({ status: 'complete', size, sha256: put.sha256, bucketid: 'anlagenbuch-test' });
      expect(await keysIn()).toContain(row!.storagekey);
      expect(await readdir(join(t.config.dataDir, 'files')).catch(() => [])).toEqual([]);

      const served = await getSha256(origin, downloadUrl(t.app.fileUrls, registered));
      expect(served).toEqual({ status: 200, length: String(size), sha256: put.sha256 });
    });

    it('the same bytes again answer the same, other bytes 409 and the stored bytes stay', async () => {
      const bytes = pngBytes(3, 2);
      const registered = await register({ extension: 'png', size: bytes.length });
      expect((await upload(registered.url, bytes, 'image/png')).statusCode).toBe(200);
      expect((await upload(registered.url, bytes, 'image/png')).statusCode).toBe(200);
      const other = pngBytes(4, 2);
      const registeredOther = await register({ extension: 'png' });
      expect((await upload(registeredOther.url, other, 'image/png')).statusCode).toBe(200);
      const conflict = await upload(registeredOther.url, pngBytes(5, 5), 'image/png');
      expect(conflict.statusCode, conflict.body).toBe(409);
      const download = await t.app.inject({ method: 'GET', url: downloadUrl(t.app.fileUrls, registeredOther) });
      expect(download.rawPayload.equals(other)).toBe(true);
    });

    it('a refused upload (wrong type, too few bytes) leaves nothing in the bucket and the file pending', async () => {
      const before = await keysIn();
      const html = await register({ extension: 'png' });
      expect((await upload(html.url, Buffer.from('<html><script>alert(1)</script></html>'))).statusCode).toBe(415);
      const short = await register({ extension: 'pdf', size: 6 * MiB });
      const answer = await upload(short.url, Buffer.concat([pdfBytes(), Buffer.alloc(5 * MiB + 100)]), 'application/pdf');
      expect(answer.statusCode, answer.body).toBe(400);
      expect(await keysIn()).toEqual(before);
      const rows = await t.database.db.select({ status: files.status }).from(files).where(eq(files.fileid, short.fileid));
      expect(rows).toEqual([{ status: 'pending' }]);
    });

    it('the cleanup job removes an abandoned upload\'s object from the bucket', async () => {
      const old = new Date(Date.now() - 2 * 24 * 3_600_000);
      const stale = buildFile({ legalentitynodeid: a.legalEntity.nodeid, createdAt: old, bucketid: 'anlagenbuch-test' });
      await t.database.db.insert(files).values(stale);
      // Bytes committed, row still pending: what a crash between the two leaves.
      await t.app.fileStorage.put(stale.storagekey, pdfBytes('halb'), 'application/pdf');
      expect(await keysIn()).toContain(stale.storagekey);
      expect((await cleanupPendingFiles(t.app.serviceContext, t.app.fileStorage)).removed).toBe(1);
      expect(await keysIn()).not.toContain(stale.storagekey);
      expect(await t.app.fileStorage.open(stale.storagekey)).toBeNull();
    });
  });

  it('the demo seed stores its photos and documents in the bucket and records the bucket in the file rows', { timeout: 120_000 }, async () => {
    const bucket = 'anlagenbuch-seed';
    const client = createS3Client(s3.settings);
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    client.destroy();
    const t = await createTestApp({ ...s3.env, S3_BUCKET: bucket });
    try {
      const summary = await seedDemo(t.database.db, { storage: t.app.fileStorage });
      const rows = await t.database.db.select().from(files);
      expect(rows.length).toBeGreaterThan(0);
      expect(summary.storedFiles).toBe(rows.length);
      expect(new Set(rows.map((row) => row.bucketid))).toEqual(new Set([bucket]));
      const keys = await keysIn(bucket);
      for (const row of rows) expect(keys, row.storagekey).toContain(row.storagekey);
      expect(keys).toContain('support/schnellstart.pdf');
      const first = rows[0]!;
      const download = await t.app.inject({ method: 'GET', url: downloadUrl(t.app.fileUrls, first) });
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.length).toBe(first.size);
    } finally {
      await t.close();
    }
  });

  describe('backup and restore', () => {
    const dirs: string[] = [];
    const newDir = async (name: string) => {
      const dir = await mkdtemp(join(tmpdir(), `anlagenbuch-${name}-`));
      dirs.push(dir);
      return dir;
    };
    /** An installation on an embedded database in its DATA_DIR, with the reference data and its help documents stored. */
    const installation = async (config: Config) => {
      const database = await openDatabase({ dataDir: join(config.dataDir, 'db') });
      await database.migrate();
      await seedReferenceData(database.db, { storage: createFileStorage(config) });
      await database.close();
    };
    const supportKeys = async (config: Config) => {
      const database = await openDatabase({ dataDir: join(config.dataDir, 'db') });
      try {
        return (await database.db.select({ key: supportDocuments.storagekey }).from(supportDocuments)).map((row) => row.key).sort();
      } finally {
        await database.close();
      }
    };
    afterAll(async () => {
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    });

    // One flow, so the slow part (an embedded database on disk) is set up once: a local installation moves to S3
    // through backup and restore, then the S3 installation is backed up and restored.
    it('moves a local installation into the bucket; a backup with S3 holds the database and names the bucket', { timeout: 240_000 }, async () => {
      const local = testConfig(await newDir('local-install'));
      await installation(local);
      const localBackup = await newDir('local-backup');
      expect(await createBackup(local, localBackup)).toMatchObject({ fileStore: 'local', files: 4 });

      const bucket = 'anlagenbuch-moved';
      const client = createS3Client(s3.settings);
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      client.destroy();
      const moved = testConfig(await newDir('moved'), { ...s3.env, S3_BUCKET: bucket });
      await restoreBackup(moved, localBackup);
      const keys = await supportKeys(moved);
      expect(keys.length).toBe(4);
      expect(await keysIn(bucket)).toEqual(keys);
      expect(await readdir(join(moved.dataDir, 'files')).catch(() => [])).toEqual([]);

      const s3Backup = await newDir('s3-backup');
      expect(await createBackup(moved, s3Backup)).toMatchObject({ database: 'pglite', fileStore: 's3', bucket, files: 0 });
      expect(await readdir(join(s3Backup, 'files'))).toEqual([]);
      const withoutS3 = testConfig(await newDir('no-s3'));
      const refused = await restoreBackup(withoutS3, s3Backup).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(BackupError);
      expect((refused as Error).message).toMatch(/in the S3 bucket anlagenbuch-moved/);

      const restored = testConfig(await newDir('s3-restored'), { ...s3.env, S3_BUCKET: bucket });
      await restoreBackup(restored, s3Backup);
      expect(await supportKeys(restored)).toEqual(keys);
      const storage = createFileStorage(restored);
      for (const key of keys) expect(await storage.get(key), key).not.toBeNull();
    });
  });
});
