import { eq, inArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileDownloadSchema, registeredFileSchema, SIGNED_URL_EXPIRED_MESSAGE, type RegisteredFile } from '../../src/shared/api/files';
import type { Db } from '../../src/server/db/client';
import { attachments, equipment, files, reports, tombstones, users } from '../../src/server/db/schema';
import { cleanupPendingFiles, cleanupUnreferencedFiles, downloadUrl, UNREFERENCED_FILE_TTL_MS, UPLOAD_URL_TTL_MS } from '../../src/server/services/file-service';
import { insertReport } from '../factories/costs';
import { buildFile, pdfBytes, pngBytes } from '../factories/files';
import { insertNotification } from '../factories/notifications';
import { insertEquipment } from '../factories/structure';
import { insertUser, type TestTenant } from '../factories/tenant';
import { call } from './support/requests';
import { createTwoTenantApp, type TestApp } from './support/test-app';
import { rowCount } from './support/db-queries';

/** Above Fastify's default body limit of 1 MiB, to prove FILE_MAX_BYTES is the limit that applies. */
const MAX_BYTES = 2 * 1024 * 1024;

const fileCount = (db: Db) => rowCount(db, files);

describe('files (two-step upload)', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let adminA: string;
  let adminB: string;

  const register = async (extensions: Record<string, unknown>[], authorization = adminA): Promise<RegisteredFile[]> => {
    const response = await call(t, authorization, 'POST', '/api/files', { count: extensions.length, extensions });
    expect(response.statusCode, response.body).toBe(200);
    return registeredFileSchema.array().parse(response.json());
  };
  /** The PUT a device makes: no bearer token, the URL is the authorisation. */
  const upload = (url: string, bytes: Buffer, contentType = 'application/octet-stream') => t.app.inject({ method: 'PUT', url, headers: { 'content-type': contentType }, payload: bytes });

  beforeAll(async () => {
    ({ t, a, b, adminA, adminB } = await createTwoTenantApp({ FILE_MAX_BYTES: String(MAX_BYTES) }));
  });
  afterAll(() => t?.close());

  it('registers, uploads and downloads a file; the same bytes again are fine', async () => {
    const nodeid = uuidv7();
    const [registered] = await register([{ nodeid, extension: 'PDF' }]);
    expect(registered).toMatchObject({ nodeid, fileversion: 1, bucketid: 'local', status: 'pending', mimetype: 'application/pdf' });
    expect(registered!.url).toMatch(new RegExp(`^/api/files/${registered!.fileid}/1/content\\?exp=\\d+&sig=`));
    expect(registered!.expiresat).toBeGreaterThan(Date.now());

    const bytes = pdfBytes();
    const put = await upload(registered!.url, bytes);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ fileid: registered!.fileid, status: 'complete', size: bytes.length });
    const [row] = await t.database.db.select().from(files).where(eq(files.nodeid, nodeid));
    expect(row).toMatchObject({ status: 'complete', size: bytes.length, legalentitynodeid: a.legalEntity.nodeid });
    expect(row!.version).toBeGreaterThan(0);

    expect((await upload(registered!.url, bytes, 'application/pdf')).statusCode).toBe(200);
    expect((await upload(registered!.url, pdfBytes('anders'))).statusCode).toBe(409);

    // The same registration again signs a URL for the same file (a resend of the outbox entry).
    const before = await fileCount(t.database.db);
    const [again] = await register([{ nodeid, extension: 'pdf' }]);
    expect(again).toMatchObject({ fileid: registered!.fileid, fileversion: 1, status: 'complete' });
    expect(await fileCount(t.database.db)).toBe(before);

    const download = await t.app.inject({ method: 'GET', url: downloadUrl(t.app.fileUrls, registered!) });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.rawPayload.equals(bytes)).toBe(true);
  });

  it('registers several files at once and checks count', async () => {
    const registered = await register([
      { nodeid: uuidv7(), extension: 'jpg' },
      { nodeid: uuidv7(), extension: 'docx' },
      { nodeid: uuidv7(), extension: 'key' },
    ]);
    expect(registered.map((r) => r.mimetype)).toEqual(['image/jpeg', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/vnd.apple.keynote']);
    const mismatch = await call(t, adminA, 'POST', '/api/files', { count: 2, extensions: [{ nodeid: uuidv7(), extension: 'pdf' }] });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toMatchObject({ details: [{ field: 'count' }] });
  });

  it.each([
    [{ extension: 'exe' }, 'extensions.0.extension'],
    [{ extension: 'pdf', mimetype: 'application/x-msdownload' }, 'extensions.0.mimetype'],
    [{ extension: 'pdf', size: MAX_BYTES + 1 }, 'extensions.0.size'],
    [{ extension: 'pdf', nodeid: 'nope' }, 'extensions.0.nodeid'],
  ])('registration %j answers 400 naming %s; nothing is registered', async (entry, field) => {
    const before = await fileCount(t.database.db);
    const response = await call(t, adminA, 'POST', '/api/files', { count: 1, extensions: [{ nodeid: uuidv7(), ...entry }] });
    expect(response.statusCode).toBe(400);
    expect((response.json() as { details: { field: string }[] }).details.map((d) => d.field)).toEqual([field]);
    expect(await fileCount(t.database.db)).toBe(before);
  });

  it('two different uploads of one version at once: one wins, the other is a 409, the stored bytes are the winner\'s', async () => {
    const [registered] = await register([{ nodeid: uuidv7(), extension: 'pdf' }]);
    const [first, second] = await Promise.all([upload(registered!.url, pdfBytes('eins')), upload(registered!.url, pdfBytes('zwei'))]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    const winner = first.statusCode === 200 ? pdfBytes('eins') : pdfBytes('zwei');
    const download = await t.app.inject({ method: 'GET', url: downloadUrl(t.app.fileUrls, registered!) });
    expect(download.rawPayload.equals(winner)).toBe(true);
  });

  it('takes an upload without a Content-Type: the registered extension decides', async () => {
    const [registered] = await register([{ nodeid: uuidv7(), extension: 'png' }]);
    const put = await t.app.inject({ method: 'PUT', url: registered!.url, payload: pngBytes() });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ mimetype: 'image/png', size: pngBytes().length });
  });

  it('refuses a wrong content type (415) and leaves the file pending', async () => {
    const [registered] = await register([{ nodeid: uuidv7(), extension: 'pdf' }]);
    const put = await upload(registered!.url, Buffer.from('MZ...'), 'application/x-msdownload');
    expect(put.statusCode).toBe(415);
    expect(put.json()).toMatchObject({ message: expect.stringContaining('Ungültiger Dateityp!') });
    const image = await upload(registered!.url, Buffer.from('png'), 'image/png');
    expect(image.statusCode).toBe(415);
    const [row] = await t.database.db.select().from(files).where(eq(files.fileid, registered!.fileid));
    expect(row!.status).toBe('pending');
  });

  it('refuses a file over FILE_MAX_BYTES (413) and one that differs from its declared size (400); takes one of exactly FILE_MAX_BYTES', async () => {
    const [registered, declared] = await register([
      { nodeid: uuidv7(), extension: 'txt' },
      { nodeid: uuidv7(), extension: 'txt', size: 10 },
    ]);
    const tooBig = await upload(registered!.url, Buffer.alloc(MAX_BYTES + 1, 65), 'text/plain');
    expect(tooBig.statusCode).toBe(413);
    expect((await t.database.db.select().from(files).where(eq(files.fileid, registered!.fileid)))[0]!.status).toBe('pending');
    expect((await upload(declared!.url, Buffer.from('only five'), 'text/plain')).statusCode).toBe(400);
    expect((await upload(declared!.url, Buffer.from('exactly 10'), 'text/plain; charset=utf-8')).statusCode).toBe(200);
    const big = await upload(registered!.url, Buffer.alloc(MAX_BYTES, 66), 'text/plain');
    expect(big.statusCode, big.body).toBe(200);
    expect(big.json()).toMatchObject({ size: MAX_BYTES });
    const rows = await t.database.db.select().from(files).where(inArray(files.fileid, [registered!.fileid, declared!.fileid]));
    expect(Object.fromEntries(rows.map((r) => [r.fileid, r.status]))).toEqual({ [registered!.fileid]: 'complete', [declared!.fileid]: 'complete' });
  });

  it('answers 403 for an expired URL; POST /api/files with the same fileid signs it again', async () => {
    const [registered] = await register([{ nodeid: uuidv7(), extension: 'pdf' }]);
    const realNow = Date.now;
    // why a moved clock: the URL must have run out; waiting an hour is not an option.
    Date.now = () => realNow() + UPLOAD_URL_TTL_MS + 1000;
    try {
      const expired = await upload(registered!.url, pdfBytes());
      expect(expired.statusCode).toBe(403);
      expect(expired.json()).toMatchObject({ message: SIGNED_URL_EXPIRED_MESSAGE });
    } finally {
      Date.now = realNow;
    }
    const [resigned] = await register([{ nodeid: uuidv7(), extension: 'pdf', fileid: registered!.fileid }]);
    expect(resigned).toMatchObject({ fileid: registered!.fileid, fileversion: 1, nodeid: registered!.nodeid, status: 'pending' });
    expect((await upload(resigned!.url, pdfBytes())).statusCode).toBe(200);

    // Once complete, the same fileid registers the next version (editing a document).
    const [next] = await register([{ nodeid: uuidv7(), extension: 'pdf', fileid: registered!.fileid }]);
    expect(next).toMatchObject({ fileid: registered!.fileid, fileversion: 2, status: 'pending' });
  });

  it('registers the next version once when several registrations of it arrive at once; the others and a second entry of one request sign it again', async () => {
    const [registered] = await register([{ nodeid: uuidv7(), extension: 'pdf' }]);
    expect((await upload(registered!.url, pdfBytes())).statusCode).toBe(200);
    // why at once: each waits for the latest version's lock the first holds, and must then see the version it added.
    const answers = await Promise.all([0, 1, 2].map(() => register([{ nodeid: uuidv7(), extension: 'pdf', fileid: registered!.fileid }])));
    const next = answers[0]![0]!;
    expect(next).toMatchObject({ fileid: registered!.fileid, fileversion: 2, status: 'pending' });
    expect(answers.map(([answer]) => answer!.nodeid)).toEqual([next.nodeid, next.nodeid, next.nodeid]);
    expect((await upload(next.url, pdfBytes('v2'))).statusCode).toBe(200);
    const [third, again] = await register([
      { nodeid: uuidv7(), extension: 'pdf', fileid: registered!.fileid },
      { nodeid: uuidv7(), extension: 'pdf', fileid: registered!.fileid },
    ]);
    expect(third).toMatchObject({ fileversion: 3, status: 'pending' });
    expect(again!.nodeid).toBe(third!.nodeid);
    const versions = await t.database.db.select({ fileversion: files.fileversion }).from(files).where(eq(files.fileid, registered!.fileid));
    expect(versions.map((row) => row.fileversion).sort()).toEqual([1, 2, 3]);
  });

  // Found in review: with the lookup of a file before any lock, the same registration sent twice at once (an upload
  // ahead whose answer was lost, then the queued registration) inserted twice, and the second failed on the key.
  it('the same registration sent several times at once registers one file and answers it to each', async () => {
    const nodeid = uuidv7();
    for (const size of [undefined, 12]) {
      const entry = { nodeid: size === undefined ? nodeid : uuidv7(), extension: 'pdf', ...(size !== undefined && { size }) };
      const answers = await Promise.all([0, 1, 2].map(() => register([entry])));
      expect(new Set(answers.map(([answer]) => `${answer!.nodeid}/${answer!.fileid}/${answer!.fileversion}`)).size).toBe(1);
      expect(await t.database.db.select().from(files).where(eq(files.nodeid, entry.nodeid))).toHaveLength(1);
    }
  });

  it('refuses a forged or reused signature', async () => {
    const [one, two] = await register([
      { nodeid: uuidv7(), extension: 'pdf' },
      { nodeid: uuidv7(), extension: 'pdf' },
    ]);
    const forged = `${two!.url.split('?')[0]}?${one!.url.split('?')[1]}`;
    expect((await upload(forged, pdfBytes())).statusCode).toBe(403);
    const tampered = one!.url.replace(/exp=(\d+)/, (_m, exp: string) => `exp=${Number(exp) + 1000}`);
    expect((await upload(tampered, pdfBytes())).statusCode).toBe(403);
    // An upload URL is not a download URL.
    expect((await t.app.inject({ method: 'GET', url: one!.url })).statusCode).toBe(403);
  });

  it("does not re-sign another tenant's file: 404 by its fileid, 409 for its nodeid (an id this tenant cannot use)", async () => {
    const [registered] = await register([{ nodeid: uuidv7(), extension: 'pdf' }]);
    const response = await call(t, adminB, 'POST', '/api/files', { count: 1, extensions: [{ nodeid: uuidv7(), extension: 'pdf', fileid: registered!.fileid }] });
    expect(response.statusCode).toBe(404);
    const sameNode = await call(t, adminB, 'POST', '/api/files', { count: 1, extensions: [{ nodeid: registered!.nodeid, extension: 'pdf' }] });
    expect(sameNode.statusCode, sameNode.body).toBe(409);
    expect(sameNode.json()).toMatchObject({ error: 'Conflict', details: [{ field: 'extensions.0.nodeid', message: 'Already used by another record' }] });
  });

  it('needs a signed-in user to register', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/files', payload: { count: 1, extensions: [{ nodeid: uuidv7(), extension: 'pdf' }] } });
    expect(response.statusCode).toBe(401);
  });

  it("signs a download URL for a complete file by its nodeid; pending, unknown and another tenant's files are 404", async () => {
    const nodeid = uuidv7();
    const [registered] = await register([{ nodeid, extension: 'pdf' }]);
    const url = `/api/files/${nodeid}/download`;
    expect((await call(t, adminA, 'GET', url)).statusCode).toBe(404);
    expect((await upload(registered!.url, pdfBytes('Typenschild'))).statusCode).toBe(200);

    const response = await call(t, adminA, 'GET', url);
    expect(response.statusCode, response.body).toBe(200);
    const download = fileDownloadSchema.parse(response.json());
    expect(download).toMatchObject({ nodeid, fileid: registered!.fileid, fileversion: 1, mimetype: 'application/pdf' });
    const bytes = await t.app.inject({ method: 'GET', url: download.url });
    expect(bytes.statusCode).toBe(200);
    expect(bytes.rawPayload.equals(pdfBytes('Typenschild'))).toBe(true);

    expect((await call(t, adminB, 'GET', url)).statusCode).toBe(404);
    expect((await call(t, adminA, 'GET', `/api/files/${uuidv7()}/download`)).statusCode).toBe(404);
    expect((await call(t, adminA, 'GET', '/api/files/kein-uuid/download')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
  });

  describe('cleanup of abandoned uploads', () => {
    it('removes pending files older than the window with their bytes, keeps complete and recent ones, leaves tombstones', async () => {
      const db = t.database.db;
      const old = new Date(Date.now() - 2 * 24 * 3_600_000);
      const stale = buildFile({ legalentitynodeid: a.legalEntity.nodeid, createdAt: old });
      const staleB = buildFile({ legalentitynodeid: b.legalEntity.nodeid, createdAt: old });
      const done = buildFile({ legalentitynodeid: a.legalEntity.nodeid, createdAt: old, status: 'complete' });
      const recent = buildFile({ legalentitynodeid: a.legalEntity.nodeid });
      await db.insert(files).values([stale, staleB, done, recent]);
      await t.app.fileStorage.put(stale.storagekey, pdfBytes('halb'), 'application/pdf');

      // Two instances at once: each file is removed by exactly one of them.
      const runs = await Promise.all([cleanupPendingFiles(t.app.serviceContext, t.app.fileStorage), cleanupPendingFiles(t.app.serviceContext, t.app.fileStorage)]);
      expect(runs.reduce((sum, r) => sum + r.removed, 0)).toBe(2);

      const left = await db.select({ nodeid: files.nodeid }).from(files).where(inArray(files.nodeid, [stale.nodeid!, staleB.nodeid!, done.nodeid!, recent.nodeid!]));
      expect(left.map((r) => r.nodeid).sort()).toEqual([done.nodeid, recent.nodeid].sort());
      expect(await t.app.fileStorage.get(stale.storagekey)).toBeNull();
      const stones = await db.select().from(tombstones).where(inArray(tombstones.nodeid, [stale.nodeid!, staleB.nodeid!]));
      expect(stones.map((s) => [s.kind, s.legalentitynodeid]).sort()).toEqual([['files', a.legalEntity.nodeid], ['files', b.legalEntity.nodeid]].sort());
      expect((await cleanupPendingFiles(t.app.serviceContext, t.app.fileStorage)).removed).toBe(0);
    });

    /** A machine with an abandoned photo and nameplate, and a report with an abandoned signature drawing. */
    async function namedStaleFiles() {
      const db = t.database.db;
      const tenant = { legalentitynodeid: a.legalEntity.nodeid };
      const old = new Date(Date.now() - 2 * 24 * 3_600_000);
      const [photo, plate, signature, kept] = [buildFile({ ...tenant, createdAt: old }), buildFile({ ...tenant, createdAt: old }), buildFile({ ...tenant, createdAt: old }), buildFile({ ...tenant, createdAt: old, status: 'complete' })];
      await db.insert(files).values([photo, plate, signature, kept]);
      const machine = await insertEquipment(db, { ...tenant, name: 'Presse mit Foto', imagefilenodeid: photo.nodeid, typenameplatefilenodeid: plate.nodeid });
      const other = await insertEquipment(db, { ...tenant, name: 'Presse mit fertigem Foto', imagefilenodeid: kept.nodeid });
      const notification = await insertNotification(db, { ...tenant, equipmentnodeid: machine.nodeid });
      const report = await insertReport(db, { ...tenant, notificationnodeid: notification.nodeid, authorsignatureimagefilenodeid: signature.nodeid });
      return { db, photo, plate, signature, machine, other, report };
    }

    it('a machine or report naming an abandoned file lets go of it with the cleanup’s version, so devices pull the change', async () => {
      const { db, photo, plate, signature, machine, other, report } = await namedStaleFiles();
      const before = (await db.select({ version: equipment.version }).from(equipment).where(eq(equipment.nodeid, other.nodeid)))[0]!.version;
      expect((await cleanupPendingFiles(t.app.serviceContext, t.app.fileStorage)).removed).toBe(3);
      const [stone] = await db.select({ version: tombstones.version }).from(tombstones).where(eq(tombstones.nodeid, photo.nodeid!));
      const [cleared] = await db.select().from(equipment).where(eq(equipment.nodeid, machine.nodeid));
      expect(cleared).toMatchObject({ imagefilenodeid: null, typenameplatefilenodeid: null, version: stone!.version });
      const [signed] = await db.select().from(reports).where(eq(reports.nodeid, report.nodeid));
      expect(signed).toMatchObject({ authorsignatureimagefilenodeid: null, version: stone!.version });
      // A machine naming a complete file is not touched.
      expect((await db.select({ version: equipment.version }).from(equipment).where(eq(equipment.nodeid, other.nodeid)))[0]!.version).toBe(before);
      expect(await rowCount(db, files, inArray(files.nodeid, [photo.nodeid!, plate.nodeid!, signature.nodeid!]))).toBe(0);
    });

    it.runIf(process.env.TEST_DATABASE_URL)('a file named by a machine another transaction holds is left for a later run, without waiting on it (PostgreSQL)', async () => {
      const { db, photo, plate, signature, machine } = await namedStaleFiles();
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holder = db.transaction(async (tx) => {
        await tx.execute(sql`select nodeid from equipment where nodeid = ${machine.nodeid} for update`);
        locked();
        await held;
      });
      await isLocked;
      // The machine's two files stay (its row is held); the report's signature goes.
      expect((await cleanupPendingFiles(t.app.serviceContext, t.app.fileStorage)).removed).toBe(1);
      expect((await db.select({ nodeid: files.nodeid }).from(files).where(inArray(files.nodeid, [photo.nodeid!, plate.nodeid!, signature.nodeid!]))).map((row) => row.nodeid).sort()).toEqual([photo.nodeid, plate.nodeid].sort());
      release();
      await holder;
      expect((await cleanupPendingFiles(t.app.serviceContext, t.app.fileStorage)).removed).toBe(2);
      expect((await db.select().from(equipment).where(eq(equipment.nodeid, machine.nodeid)))[0]).toMatchObject({ imagefilenodeid: null, typenameplatefilenodeid: null });
    });
  });

  describe('cleanup of files no record names', () => {
    const DAY = 24 * 3_600_000;
    const uploaded = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY);
    /** A complete file of tenant A (B with `tenant`), uploaded `daysAgo`, with its bytes in the storage. */
    async function completeFile(daysAgo: number, overrides: Partial<Parameters<typeof buildFile>[0]> = {}) {
      const file = buildFile({ legalentitynodeid: a.legalEntity.nodeid, status: 'complete', createdAt: uploaded(daysAgo), completedAt: uploaded(daysAgo), ...overrides });
      await t.database.db.insert(files).values(file);
      await t.app.fileStorage.put(file.storagekey, pdfBytes(file.nodeid!), 'application/pdf');
      return file;
    }
    const remaining = async (nodeids: (string | undefined)[]) =>
      (await t.database.db.select({ nodeid: files.nodeid }).from(files).where(inArray(files.nodeid, nodeids as string[]))).map((row) => row.nodeid).sort();

    it('removes old complete files that nothing names, with their bytes and a tombstone; keeps named, recent and pending ones', async () => {
      const db = t.database.db;
      const tenant = { legalentitynodeid: a.legalEntity.nodeid };
      const old = UNREFERENCED_FILE_TTL_MS / DAY + 1;
      const orphan = await completeFile(old);
      const orphanB = await completeFile(old, { legalentitynodeid: b.legalEntity.nodeid });
      const recent = await completeFile(old - 2);
      const pending = buildFile({ ...tenant, createdAt: uploaded(old), status: 'pending' });
      await db.insert(files).values(pending);
      // Named by each kind of record that can name a file.
      const [photo, plate, signature, attached] = [await completeFile(old), await completeFile(old), await completeFile(old), await completeFile(old)];
      const machine = await insertEquipment(db, { ...tenant, name: 'Presse', imagefilenodeid: photo.nodeid, typenameplatefilenodeid: plate.nodeid });
      const notification = await insertNotification(db, { ...tenant, equipmentnodeid: machine.nodeid });
      await insertReport(db, { ...tenant, notificationnodeid: notification.nodeid, authorsignatureimagefilenodeid: signature.nodeid });
      const [attachment] = await db.insert(attachments).values({ nodeid: uuidv7(), ...tenant, title: 'Schaltplan', filenodeid: attached.nodeid!, isattachmentof: machine.nodeid, targetkind: 'equipment' }).returning();
      // A person's image names a file by fileid: every version without a fileversion, else that version only.
      const portrait = await completeFile(old);
      const portraitV2 = await completeFile(old, { fileid: portrait.fileid, fileversion: 2 });
      const badge = await completeFile(old);
      const badgeV2 = await completeFile(old, { fileid: badge.fileid, fileversion: 2 });
      await insertUser(db, { ...tenant, profileid: a.adminProfile.profileid, image: { fileid: portrait.fileid, bucketid: 'local' } });
      await insertUser(db, { ...tenant, profileid: a.adminProfile.profileid, image: { fileid: badge.fileid, fileversion: 2, bucketid: 'local' } });
      // The same file id in another tenant's person does not keep tenant A's file.
      const foreign = await completeFile(old);
      await insertUser(db, { legalentitynodeid: b.legalEntity.nodeid, profileid: b.adminProfile.profileid, image: { fileid: foreign.fileid, bucketid: 'local' } });

      const mine = [orphan, orphanB, recent, pending, photo, plate, signature, attached, portrait, portraitV2, badge, badgeV2, foreign].map((file) => file.nodeid);
      // Two instances at once: each file is removed by exactly one of them.
      const runs = await Promise.all([cleanupUnreferencedFiles(t.app.serviceContext, t.app.fileStorage), cleanupUnreferencedFiles(t.app.serviceContext, t.app.fileStorage)]);
      expect(runs.reduce((sum, run) => sum + run.removed, 0)).toBeGreaterThanOrEqual(4);
      expect(await remaining(mine)).toEqual([recent, pending, photo, plate, signature, attached, portrait, portraitV2, badgeV2].map((file) => file.nodeid).sort());
      for (const gone of [orphan, orphanB, badge, foreign]) expect(await t.app.fileStorage.get(gone.storagekey)).toBeNull();
      expect(await t.app.fileStorage.get(photo.storagekey)).not.toBeNull();
      const stones = await db.select().from(tombstones).where(inArray(tombstones.nodeid, [orphan.nodeid!, orphanB.nodeid!]));
      expect(stones.map((stone) => [stone.kind, stone.legalentitynodeid]).sort()).toEqual([['files', a.legalEntity.nodeid], ['files', b.legalEntity.nodeid]].sort());
      // The machine naming its photo is not touched.
      expect((await db.select({ imagefilenodeid: equipment.imagefilenodeid }).from(equipment).where(eq(equipment.nodeid, machine.nodeid)))[0]).toEqual({ imagefilenodeid: photo.nodeid });

      // Once its attachment is deleted, the file goes on the next run; the person's portrait goes with the person's image.
      await db.delete(attachments).where(eq(attachments.nodeid, attachment!.nodeid));
      await db.update(users).set({ image: null }).where(sql`${users.image} ->> 'fileid' = ${portrait.fileid}`);
      await cleanupUnreferencedFiles(t.app.serviceContext, t.app.fileStorage);
      expect(await remaining(mine)).toEqual([recent, pending, photo, plate, signature, badgeV2].map((file) => file.nodeid).sort());
    });

    it.runIf(process.env.TEST_DATABASE_URL)('a file a record is being written to name is skipped without waiting, and kept once the record is in (PostgreSQL)', async () => {
      const db = t.database.db;
      const tenant = { legalentitynodeid: a.legalEntity.nodeid };
      const file = await completeFile(UNREFERENCED_FILE_TTL_MS / DAY + 1);
      const machine = await insertEquipment(db, { ...tenant, name: 'Presse mit neuem Dokument' });
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let written!: () => void;
      const isWritten = new Promise<void>((resolve) => (written = resolve));
      // As an attachment's create does: the file's row held (the foreign key's key share), the attachment not yet committed.
      const writer = db.transaction(async (tx) => {
        await tx.insert(attachments).values({ nodeid: uuidv7(), ...tenant, title: 'Wartungsplan', filenodeid: file.nodeid!, isattachmentof: machine.nodeid, targetkind: 'equipment' });
        written();
        await held;
      });
      await isWritten;
      await cleanupUnreferencedFiles(t.app.serviceContext, t.app.fileStorage);
      expect(await remaining([file.nodeid])).toEqual([file.nodeid]);
      release();
      await writer;
      await cleanupUnreferencedFiles(t.app.serviceContext, t.app.fileStorage);
      expect(await remaining([file.nodeid])).toEqual([file.nodeid]);
      expect(await t.app.fileStorage.get(file.storagekey)).not.toBeNull();
    });

    it('an uploaded file the device never names is removed once the grace period is over, and its download is gone', async () => {
      const nodeid = uuidv7();
      const [registered] = await register([{ nodeid, extension: 'pdf' }]);
      expect((await upload(registered!.url, pdfBytes('Foto ohne Meldung'), 'application/pdf')).statusCode).toBe(200);
      const url = `/api/files/${nodeid}/download`;
      expect((await call(t, adminA, 'GET', url)).statusCode).toBe(200);
      // Within the grace period the file stays (the record naming it may still be on its way).
      await cleanupUnreferencedFiles(t.app.serviceContext, t.app.fileStorage, { nowMs: Date.now() + UNREFERENCED_FILE_TTL_MS - DAY });
      expect(await remaining([nodeid])).toEqual([nodeid]);
      await cleanupUnreferencedFiles(t.app.serviceContext, t.app.fileStorage, { nowMs: Date.now() + UNREFERENCED_FILE_TTL_MS + DAY });
      expect(await remaining([nodeid])).toEqual([]);
      expect((await call(t, adminA, 'GET', url)).statusCode).toBe(404);
    });
  });
});
