import { asc, eq, inArray } from 'drizzle-orm';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredFileSchema, type RegisteredFile } from '../../src/shared/api/files';
import { buildApp, type App } from '../../src/server/app';
import { openDatabase, type Database } from '../../src/server/db/client';
import { files, syncMutations, tombstones } from '../../src/server/db/schema';
import { pruneMutationLog } from '../../src/server/jobs/prune-mutation-log';
import { purgeTombstones } from '../../src/server/jobs/purge-tombstones';
import { cleanupPendingFiles, downloadUrl } from '../../src/server/services/file-service';
import { MUTATION_LOG_PRUNE_LOCK } from '../../src/server/services/mutation-log-service';
import { buildFile, pdfBytes, pngBytes } from '../factories/files';
import { insertTenant, loginAs, type TestTenant } from '../factories/tenant';
import { startS3Server, type TestS3Server } from './support/s3-server';
import { testConfig } from './support/test-app';
import { createTestDatabase, type TestDatabase } from './support/test-database';

// Two server instances as production runs them behind a load balancer (docs/operations.md § Running several
// instances): one database, one S3 bucket, the same JWT secret, and nothing else shared — each has its own
// DATA_DIR. On PostgreSQL (TEST_DATABASE_URL) each instance has its own connection pool to the one database;
// on PGlite (one process only) both apps share the one embedded database, so there the test shows the file
// store and the signed URLs, and the PostgreSQL run also the database side.

const DAY = 86_400_000;
const onPostgres = Boolean(process.env.TEST_DATABASE_URL?.trim());

describe('several instances on one database and one S3 bucket', () => {
  let s3: TestS3Server;
  let shared: TestDatabase;
  let databaseB: Database;
  let A: App;
  let B: App;
  let a: TestTenant;
  let authorization: string;
  const dataDirs: string[] = [];

  const instance = async (database: Database) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'anlagenbuch-instance-'));
    dataDirs.push(dataDir);
    const app = await buildApp({ config: testConfig(dataDir, s3.env), database });
    await app.ready();
    return app;
  };
  const register = async (app: App, extension: string): Promise<RegisteredFile> => {
    const response = await app.inject({ method: 'POST', url: '/api/files', headers: { authorization }, payload: { count: 1, extensions: [{ nodeid: uuidv7(), extension }] } });
    expect(response.statusCode, response.body).toBe(200);
    return registeredFileSchema.array().parse(response.json())[0]!;
  };
  const put = (app: App, url: string, bytes: Buffer, contentType: string) => app.inject({ method: 'PUT', url, headers: { 'content-type': contentType }, payload: bytes });

  beforeAll(async () => {
    s3 = await startS3Server();
    shared = await createTestDatabase();
    databaseB = shared.url ? await openDatabase({ databaseUrl: shared.url, poolSize: 4 }) : shared.database;
    A = await instance(shared.database);
    B = await instance(databaseB);
    a = await insertTenant(shared.database.db, { name: 'Tenant A' });
    authorization = (await loginAs(A, a.admin)).authorization;
  });
  afterAll(async () => {
    await A?.close();
    await B?.close();
    if (databaseB && databaseB !== shared.database) await databaseB.close();
    await shared?.drop();
    await s3?.close();
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  });

  it('a file uploaded through instance A downloads through instance B, and the other way round', async () => {
    const photo = pngBytes(6, 4);
    const first = await register(A, 'png');
    expect((await put(A, first.url, photo, 'image/png')).statusCode).toBe(200);
    const throughB = await B.inject({ method: 'GET', url: downloadUrl(B.fileUrls, first) });
    expect(throughB.statusCode).toBe(200);
    expect(throughB.rawPayload.equals(photo)).toBe(true);

    // Registered on B with a token A issued, the signed URL B made uploaded through A, downloaded through B.
    const manual = pdfBytes('Betriebsanleitung Presse 3');
    const second = await register(B, 'pdf');
    expect((await put(A, second.url, manual, 'application/pdf')).statusCode).toBe(200);
    const fromB = await B.inject({ method: 'GET', url: `/api/files/${(await databaseB.db.select().from(files).where(eq(files.fileid, second.fileid)))[0]!.nodeid}/download`, headers: { authorization } });
    expect(fromB.statusCode, fromB.body).toBe(200);
    const download = await B.inject({ method: 'GET', url: (fromB.json() as { url: string }).url });
    expect(download.rawPayload.equals(manual)).toBe(true);

    // Neither instance kept a byte on its own disk: the bucket is the only file store.
    for (const dir of dataDirs) expect(await readdir(join(dir, 'files')).catch(() => [])).toEqual([]);
  });

  it('the periodic jobs run by both instances at once: every abandoned upload removed once, nothing fails', async () => {
    const db = shared.database.db;
    const old = new Date(Date.now() - 2 * DAY);
    const stale = Array.from({ length: 6 }, () => buildFile({ legalentitynodeid: a.legalEntity.nodeid, createdAt: old, bucketid: s3.settings.bucket }));
    await db.insert(files).values(stale);
    for (const file of stale) await A.fileStorage.put(file.storagekey, pdfBytes('halb'), 'application/pdf');

    const [cleanA, cleanB, purgeA, purgeB, pruneA, pruneB] = await Promise.all([
      cleanupPendingFiles(A.serviceContext, A.fileStorage),
      cleanupPendingFiles(B.serviceContext, B.fileStorage),
      purgeTombstones(A.serviceContext, 0, new Date(Date.now() + DAY)),
      purgeTombstones(B.serviceContext, 0, new Date(Date.now() + DAY)),
      pruneMutationLog(A.serviceContext),
      pruneMutationLog(B.serviceContext),
    ]);
    expect(cleanA.removed + cleanB.removed).toBe(stale.length);
    expect(await db.select().from(files).where(inArray(files.nodeid, stale.map((file) => file.nodeid!)))).toEqual([]);
    for (const file of stale) expect(await B.fileStorage.open(file.storagekey)).toBeNull();
    expect(pruneA + pruneB).toBe(0);
    const purgedAtOnce = purgeA.tombstones + purgeB.tombstones;

    // The tombstones left (the cleanup's, if the purges ran before it) go in one more run of both, each once.
    const left = (await db.select().from(tombstones)).length;
    const [againA, againB] = await Promise.all([purgeTombstones(A.serviceContext, 0, new Date(Date.now() + DAY)), purgeTombstones(B.serviceContext, 0, new Date(Date.now() + DAY))]);
    expect(againA.tombstones + againB.tombstones).toBe(left);
    expect(purgedAtOnce + left).toBe(stale.length);
    expect(await db.select().from(tombstones)).toEqual([]);
  });

  it.skipIf(!onPostgres)('the mutation log prune skips its run while another instance holds the job lock (PostgreSQL)', async () => {
    const clientid = uuidv7();
    const site = () => ({ lang: 'de', name: 'Werk', street: 'Weg 1', zipcode: '12345', city: 'Ulm', country: 'DE', legalentitynodeid: a.legalEntity.nodeid, nodeid: uuidv7() });
    for (let mid = 1; mid <= 105; mid++) {
      const answer = await A.inject({ method: 'POST', url: '/api/sites', headers: { authorization, 'x-client-id': clientid, 'x-mutation-id': String(mid) }, payload: site() });
      expect(answer.statusCode).toBe(201);
    }
    await shared.database.db.update(syncMutations).set({ createdAt: new Date(Date.now() - 40 * DAY) }).where(eq(syncMutations.clientid, clientid));

    const other = new pg.Client({ connectionString: shared.url });
    await other.connect();
    try {
      await other.query('begin');
      await other.query('select pg_advisory_xact_lock($1::bigint)', [MUTATION_LOG_PRUNE_LOCK.toString()]);
      // Another instance is pruning: this one skips instead of waiting on its row locks.
      expect(await pruneMutationLog(B.serviceContext)).toBe(0);
      await other.query('commit');
    } finally {
      await other.end();
    }
    // 105 applied; kept are the last one and the 100 below it: ids 1–5 go.
    expect(await pruneMutationLog(B.serviceContext)).toBe(5);
    const kept = await shared.database.db.select({ mid: syncMutations.mutationId }).from(syncMutations).where(eq(syncMutations.clientid, clientid)).orderBy(asc(syncMutations.mutationId));
    expect(kept[0]!.mid).toBe(6);
  });
});
