import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentSchema, type CreateAttachmentInput } from '../../src/shared/api/attachments';
import { ACCESS_DENIED_MESSAGE, apiErrorSchema } from '../../src/shared/api/errors';
import { registeredFileSchema } from '../../src/shared/api/files';
import { NONE } from '../../src/shared/permissions';
import { attachmentRowSchema, type AttachmentRow } from '../../src/shared/rows/equipment';
import type { Db } from '../../src/server/db/client';
import { attachments, files, recordHistory, tombstones } from '../../src/server/db/schema';
import { seedReferenceData } from '../../src/server/db/seed/reference-data';
import { NODEID_TAKEN } from '../../src/server/http-errors';
import { insertFile, pdfBytes } from '../factories/files';
import { insertNotification } from '../factories/notifications';
import { insertEquipment } from '../factories/structure';
import type { TestTenant } from '../factories/tenant';
import { itChecksEachFlag } from './support/permission-matrix';
import { call, type Method, postCreated, userWithFlags } from './support/requests';
import { changeOf, pullChanges } from './support/structure';
import { createTwoTenantApp, type TestApp } from './support/test-app';
import { rowCount, tenantVersion } from './support/db-queries';

const attachmentCount = (db: Db) => rowCount(db, attachments);

describe('attachments', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let adminA: string;
  let adminB: string;
  let machineA: string;
  let notificationA: string;
  let machineB: string;

  /** Registers and uploads a PDF through the real two-step upload; returns the complete file's reference. */
  async function uploadedFile(authorization = adminA) {
    const response = await call(t, authorization, 'POST', '/api/files', { count: 1, extensions: [{ nodeid: uuidv7(), extension: 'pdf' }] });
    const [registered] = registeredFileSchema.array().parse(response.json());
    const put = await t.app.inject({ method: 'PUT', url: registered!.url, headers: { 'content-type': 'application/pdf' }, payload: pdfBytes() });
    expect(put.statusCode, put.body).toBe(200);
    return { fileid: registered!.fileid, fileversion: registered!.fileversion, bucketid: registered!.bucketid, mimetype: registered!.mimetype };
  }

  /**
   * A file every user of tenant A may name: the admin's upload, made a machine's photo (a machine's photo is read by
   * every signed-in user, so its file may be attached by anyone who may attach: docs/security.md § Files).
   */
  async function sharedFile() {
    const response = await call(t, adminA, 'POST', '/api/files', { count: 1, extensions: [{ nodeid: uuidv7(), extension: 'pdf' }] });
    const [registered] = registeredFileSchema.array().parse(response.json());
    expect((await t.app.inject({ method: 'PUT', url: registered!.url, headers: { 'content-type': 'application/pdf' }, payload: pdfBytes() })).statusCode).toBe(200);
    await insertEquipment(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, imagefilenodeid: registered!.nodeid });
    return { fileid: registered!.fileid, fileversion: registered!.fileversion, bucketid: registered!.bucketid, mimetype: registered!.mimetype };
  }

  const input = async (overrides: Partial<CreateAttachmentInput> = {}): Promise<CreateAttachmentInput> => ({
    lang: 'de',
    nodeid: uuidv7(),
    title: 'Betriebsanleitung',
    description: 'Kapitel 4: Wartung',
    specifier: 'operation',
    isattachmentof: machineA,
    file: overrides.file ?? (await uploadedFile()),
    ...overrides,
  });
  const create = async (overrides: Partial<CreateAttachmentInput> = {}): Promise<AttachmentRow> => postCreated(t, adminA, '/api/attachments', await input(overrides), attachmentRowSchema);
  const read = async (nodeid: string) => attachmentSchema.parse((await call(t, adminA, 'GET', `/api/attachments/${nodeid}`)).json());

  beforeAll(async () => {
    ({ t, a, b, adminA, adminB } = await createTwoTenantApp());
    await seedReferenceData(t.database.db);
    machineA = (await insertEquipment(t.database.db, { legalentitynodeid: a.legalEntity.nodeid })).nodeid;
    notificationA = (await insertNotification(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, equipmentnodeid: machineA })).nodeid;
    machineB = (await insertEquipment(t.database.db, { legalentitynodeid: b.legalEntity.nodeid })).nodeid;
  });
  afterAll(() => t?.close());

  it('attaches a complete file to a machine: answers its row as the change feed sends it; the read carries a working download URL', async () => {
    const before = await tenantVersion(t.database.db, a.legalEntity.nodeid);
    const file = await uploadedFile();
    const created = await create({ file });
    expect(created).toMatchObject({ title: 'Betriebsanleitung', specifier: 'operation', isattachmentof: machineA, targetkind: 'equipment', authornodeid: a.admin.nodeid });
    const [fileRow] = await t.database.db.select().from(files).where(eq(files.fileid, file.fileid));
    expect(created.filenodeid).toBe(fileRow!.nodeid);
    expect(changeOf(await pullChanges(t, adminA, before), 'attachments', created.nodeid).data).toEqual(created);

    const attachment = await read(created.nodeid);
    expect(attachment).toMatchObject({ nodeid: created.nodeid, title: 'Betriebsanleitung', mimetype: 'application/pdf', bucketid: 'local', fileid: file.fileid });
    expect(attachment.file.url).toBe(attachment.url);
    const download = await t.app.inject({ method: 'GET', url: attachment.url });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(pdfBytes())).toBe(true);
  });

  it('attaches to a notification, without a category', async () => {
    const created = await create({ isattachmentof: notificationA, specifier: '' });
    expect(created).toMatchObject({ targetkind: 'notification', specifier: null });
    const notification = await call(t, adminA, 'GET', `/api/notifications/${notificationA}`);
    expect(notification.json()).toMatchObject({ counts: { hasattachment: 1 } });
  });

  it('answers 409 with a clear message for a pending file, and attaches once it is complete', async () => {
    const response = await call(t, adminA, 'POST', '/api/files', { count: 1, extensions: [{ nodeid: uuidv7(), extension: 'pdf' }] });
    const [registered] = registeredFileSchema.array().parse(response.json());
    const body = await input({ file: { fileid: registered!.fileid, fileversion: 1 } });
    const before = await attachmentCount(t.database.db);
    const pending = await call(t, adminA, 'POST', '/api/attachments', body);
    expect(pending.statusCode).toBe(409);
    expect(pending.json()).toMatchObject({ message: expect.stringContaining('not uploaded completely') });
    expect(await attachmentCount(t.database.db)).toBe(before);

    expect((await t.app.inject({ method: 'PUT', url: registered!.url, payload: pdfBytes(), headers: { 'content-type': 'application/octet-stream' } })).statusCode).toBe(200);
    const attached = await call(t, adminA, 'POST', '/api/attachments', body);
    expect(attached.statusCode, attached.body).toBe(201);
    // The same create sent again (the outbox under a new mutation id) answers the attachment, not a second one.
    expect((await call(t, adminA, 'POST', '/api/attachments', body)).statusCode).toBe(201);
    expect(await attachmentCount(t.database.db)).toBe(before + 1);
  });

  it('the same create sent again under a new mutation id answers the attachment it made and writes nothing; other content or another tenant is 409, a deleted one 410', async () => {
    const body = await input();
    const first = await postCreated(t, adminA, '/api/attachments', body, attachmentRowSchema);
    // Uploaded first: a file registration is a write of its own.
    const otherFile = await uploadedFile();
    const fileOfB = await uploadedFile(adminB);
    const before = await tenantVersion(t.database.db, a.legalEntity.nodeid);
    const count = await attachmentCount(t.database.db);

    const again = await call(t, adminA, 'POST', '/api/attachments', body);
    expect(again.statusCode, again.body).toBe(201);
    expect(attachmentRowSchema.parse(again.json())).toEqual(first);
    // Texts compare as stored: trailing blanks the schema trims do not make it another attachment.
    expect((await call(t, adminA, 'POST', '/api/attachments', { ...body, title: `${body.title}  ` })).statusCode).toBe(201);
    expect(await tenantVersion(t.database.db, a.legalEntity.nodeid)).toBe(before);
    expect(await rowCount(t.database.db, recordHistory, eq(recordHistory.nodeid, first.nodeid))).toBe(0);

    for (const [what, changed] of [
      ['title', { title: 'Anderer Titel' }],
      ['description', { description: 'Kapitel 5' }],
      ['category', { specifier: 'maintenance' }],
      ['target', { isattachmentof: notificationA }],
      ['file', { file: otherFile }],
    ] as [string, Partial<CreateAttachmentInput>][]) {
      const response = await call(t, adminA, 'POST', '/api/attachments', { ...body, ...changed });
      expect(response.statusCode, what).toBe(409);
      expect(apiErrorSchema.parse(response.json()).message, what).toBe(NODEID_TAKEN);
    }
    // Tenant B's device choosing tenant A's id (with B's own machine and file): the same 409, nothing about A.
    const taken = await call(t, adminB, 'POST', '/api/attachments', { ...body, isattachmentof: machineB, file: fileOfB });
    expect(taken.statusCode).toBe(409);
    expect(apiErrorSchema.parse(taken.json()).message).toBe(NODEID_TAKEN);
    expect(taken.body).not.toContain(machineA);
    expect(await tenantVersion(t.database.db, a.legalEntity.nodeid)).toBe(before);
    expect(await attachmentCount(t.database.db)).toBe(count);
    expect(await read(first.nodeid)).toMatchObject({ title: 'Betriebsanleitung', fileid: body.file.fileid });

    // A deleted attachment's create sent again does not bring it back.
    expect((await call(t, adminA, 'DELETE', `/api/attachments/${first.nodeid}`)).statusCode).toBe(200);
    const deleted = await call(t, adminA, 'POST', '/api/attachments', body);
    expect(deleted.statusCode).toBe(410);
    expect(await rowCount(t.database.db, attachments, eq(attachments.nodeid, first.nodeid))).toBe(0);
  });

  it('updates only the fields sent, swaps the file, keeps the old values in the history', async () => {
    const created = await create();
    const newFile = await uploadedFile();
    const response = await call(t, adminA, 'PUT', `/api/attachments/${created.nodeid}`, { lang: 'de', attachmentnodeid: created.nodeid, title: 'Anleitung v2', file: newFile });
    expect(response.statusCode, response.body).toBe(200);
    const updated = attachmentRowSchema.parse(response.json());
    expect(updated).toMatchObject({ title: 'Anleitung v2', description: 'Kapitel 4: Wartung', specifier: 'operation' });
    expect(updated.filenodeid).not.toBe(created.filenodeid);
    expect(await read(created.nodeid)).toMatchObject({ title: 'Anleitung v2', fileid: newFile.fileid });
    const [history] = await t.database.db.select().from(recordHistory).where(eq(recordHistory.nodeid, created.nodeid));
    expect(history!.changes).toMatchObject({ title: { old: 'Betriebsanleitung', new: 'Anleitung v2' } });

    const pendingReg = registeredFileSchema.array().parse((await call(t, adminA, 'POST', '/api/files', { count: 1, extensions: [{ nodeid: uuidv7(), extension: 'pdf' }] })).json());
    expect((await call(t, adminA, 'PUT', `/api/attachments/${created.nodeid}`, { file: { fileid: pendingReg[0]!.fileid } })).statusCode).toBe(409);
    expect((await call(t, adminA, 'PUT', `/api/attachments/${created.nodeid}`, { attachmentnodeid: uuidv7(), title: 'X' })).statusCode).toBe(400);
  });

  it('deletes with a tombstone', async () => {
    const created = await create();
    const deleted = await call(t, adminA, 'DELETE', `/api/attachments/${created.nodeid}`, { nodeid: created.nodeid });
    expect(deleted.statusCode).toBe(200);
    const [stone] = await t.database.db.select().from(tombstones).where(eq(tombstones.nodeid, created.nodeid));
    expect(stone).toMatchObject({ kind: 'attachments', version: (deleted.json() as { version: number }).version });
    expect((await call(t, adminA, 'DELETE', `/api/attachments/${created.nodeid}`)).statusCode).toBe(404);
    const [file] = await t.database.db.select().from(files).where(eq(files.nodeid, created.filenodeid));
    expect(file).toBeDefined();
  });

  describe('validation', () => {
    it.each([
      ['title', undefined, 'title'],
      ['title', '  ', 'title'],
      ['specifier', 'misc', 'specifier'],
      ['isattachmentof', 'x', 'isattachmentof'],
      ['file', { fileversion: 1 }, 'file.fileid'],
    ])('%s = %j answers 400 naming %s; nothing is written', async (field, value, named) => {
      const body: Record<string, unknown> = { ...(await input()) };
      if (value === undefined) delete body[field];
      else body[field] = value;
      const before = await attachmentCount(t.database.db);
      const response = await call(t, adminA, 'POST', '/api/attachments', body);
      expect(response.statusCode).toBe(400);
      expect(apiErrorSchema.parse(response.json()).details?.map((d) => d.field)).toEqual([named]);
      expect(await attachmentCount(t.database.db)).toBe(before);
    });
  });

  describe('tenant scope', () => {
    it("answers 404 for another tenant's target, file or attachment", async () => {
      const before = await attachmentCount(t.database.db);
      expect((await call(t, adminA, 'POST', '/api/attachments', await input({ isattachmentof: machineB }))).statusCode).toBe(404);
      expect((await call(t, adminA, 'POST', '/api/attachments', await input({ isattachmentof: uuidv7() }))).statusCode).toBe(404);
      const fileOfB = await insertFile(t.database.db, { legalentitynodeid: b.legalEntity.nodeid, status: 'complete' });
      expect((await call(t, adminA, 'POST', '/api/attachments', await input({ file: { fileid: fileOfB.fileid, fileversion: 1 } }))).statusCode).toBe(404);
      expect(await attachmentCount(t.database.db)).toBe(before);

      const created = await create();
      for (const [method, payload] of [['GET'], ['PUT', { title: 'Fremd' }], ['DELETE']] as [Method, unknown?][]) {
        expect((await call(t, adminB, method, `/api/attachments/${created.nodeid}`, payload)).statusCode, method).toBe(404);
      }
      expect((await call(t, adminA, 'GET', `/api/attachments/${created.nodeid}`)).json()).toMatchObject({ title: 'Betriebsanleitung' });
    });
  });

  describe('permissions (feature key equipment.attachment)', () => {
    itChecksEachFlag({
      tenant: () => ({ t, legalentitynodeid: a.legalEntity.nodeid }),
      feature: 'equipment.attachment',
      routes: [
        { flag: 'create', name: 'POST /api/attachments', request: ({ body }) => ['POST', '/api/attachments', body], ok: 201 },
        { flag: 'read', name: 'GET /api/attachments/{id}', request: ({ id }) => ['GET', `/api/attachments/${id}`], ok: 200 },
        { flag: 'update', name: 'PUT /api/attachments/{id}', request: ({ id }) => ['PUT', `/api/attachments/${id}`, { title: 'Neu' }], ok: 200 },
        { flag: 'delete', name: 'DELETE /api/attachments/{id}', request: ({ id }) => ['DELETE', `/api/attachments/${id}`], ok: 200 },
      ],
      // A create needs a body with a file uploaded beforehand; the other routes work on an attachment made here.
      // The create's file is one any user may name (sharedFile), so the flag alone decides.
      subject: async () => ({ id: (await create()).nodeid, body: await input({ file: await sharedFile() }) }),
      state: () => attachmentCount(t.database.db),
      afterRefusal: async ({ id }) => {
        expect((await call(t, adminA, 'GET', `/api/attachments/${id}`)).json()).toMatchObject({ title: 'Betriebsanleitung' });
      },
    });

    it('the read, whose answer carries a signed URL, also needs read of what the attachment hangs on: a notification\'s photo is 403 without notification read', async () => {
      const onNotification = await create({ isattachmentof: notificationA, specifier: undefined, title: 'Foto vor Ort' });
      const onMachine = await create();
      const { authorization } = await userWithFlags(t, a.legalEntity.nodeid, 'notification', NONE);
      const refused = await call(t, authorization, 'GET', `/api/attachments/${onNotification.nodeid}`);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ message: ACCESS_DENIED_MESSAGE });
      expect(refused.body).not.toContain('sig=');
      expect((await call(t, authorization, 'GET', `/api/attachments/${onMachine.nodeid}`)).statusCode).toBe(200);
    });
  });
});
