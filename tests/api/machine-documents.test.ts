import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../src/shared/api/errors';
import { registeredFileSchema } from '../../src/shared/api/files';
import { deleteAttachment, updateAttachment } from '../../src/shared/mutations/attachments';
import { attachmentRowSchema, type AttachmentRow } from '../../src/shared/rows/equipment';
import { attachments, files, tombstones } from '../../src/server/db/schema';
import { seedReferenceData } from '../../src/server/db/seed/reference-data';
import { officeBytes, pdfBytes, pngBytes } from '../factories/files';
import { insertNotification } from '../factories/notifications';
import { insertEquipment } from '../factories/structure';
import type { TestTenant } from '../factories/tenant';
import { rowCount, tenantVersion } from './support/db-queries';
import { call, onlyFlag, postCreated, userWithFlags } from './support/requests';
import { changeOf, pullChanges, sentTwice } from './support/structure';
import { createTwoTenantApp, type TestApp } from './support/test-app';

/**
 * The documentation tab's server side (spec part 1 §2.1, §5, §6): documents are attachments with a category;
 * only text, PDF, Word and Excel, judged by the bytes; edit and delete are the declared, offline-safe writes.
 */
describe('machine documents', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let adminA: string;
  let adminB: string;
  let machineA: string;
  let notificationA: string;
  let machineB: string;
  const documentCount = () => rowCount(t.database.db, attachments);

  /** The real two-step upload; answers the PUT's status and the file reference. */
  async function upload(extension: string, bytes: Buffer, authorization = adminA) {
    const response = await call(t, authorization, 'POST', '/api/files', { count: 1, extensions: [{ nodeid: uuidv7(), extension, size: bytes.length }] });
    expect(response.statusCode, response.body).toBe(200);
    const [registered] = registeredFileSchema.array().parse(response.json());
    const put = await t.app.inject({ method: 'PUT', url: registered!.url, headers: { 'content-type': 'application/octet-stream' }, payload: bytes });
    return { status: put.statusCode, file: { fileid: registered!.fileid, fileversion: registered!.fileversion } };
  }
  async function uploaded(extension: string, bytes: Buffer) {
    const { status, file } = await upload(extension, bytes);
    expect(status).toBe(200);
    return file;
  }
  const documentBody = (file: { fileid: string; fileversion: number }, overrides: Record<string, unknown> = {}) => ({
    lang: 'de',
    nodeid: uuidv7(),
    title: 'Bedienungsanleitung',
    description: null,
    specifier: 'operation',
    isattachmentof: machineA,
    file,
    ...overrides,
  });
  const createDocument = async (overrides: Record<string, unknown> = {}): Promise<AttachmentRow> =>
    postCreated(t, adminA, '/api/attachments', documentBody(await uploaded('pdf', pdfBytes()), overrides), attachmentRowSchema);

  beforeAll(async () => {
    ({ t, a, b, adminA, adminB } = await createTwoTenantApp());
    await seedReferenceData(t.database.db);
    machineA = (await insertEquipment(t.database.db, { legalentitynodeid: a.legalEntity.nodeid })).nodeid;
    notificationA = (await insertNotification(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, equipmentnodeid: machineA })).nodeid;
    machineB = (await insertEquipment(t.database.db, { legalentitynodeid: b.legalEntity.nodeid })).nodeid;
  });
  afterAll(() => t?.close());

  it('accepts text, PDF, Word and Excel in every category; file and document reach another device through the pull', async () => {
    const before = await tenantVersion(t.database.db, a.legalEntity.nodeid);
    const cases = [
      ['pdf', pdfBytes(), 'operation'],
      ['txt', Buffer.from('Schmierplan: täglich Führungsbahnen ölen\n'), 'setup'],
      ['docx', officeBytes('docx'), 'maintenance'],
      ['xlsx', officeBytes('xlsx'), 'safety'],
      ['csv', Buffer.from('Datum;Stand\n01.02.2026;120\n'), 'internalinstructions'],
    ] as const;
    for (const [extension, bytes, specifier] of cases) {
      const file = await uploaded(extension, bytes);
      const row = await postCreated(t, adminA, '/api/attachments', documentBody(file, { title: `Dokument ${extension}`, specifier }), attachmentRowSchema);
      expect(row).toMatchObject({ specifier, isattachmentof: machineA, targetkind: 'equipment' });
      const changes = await pullChanges(t, adminA, before);
      expect(changeOf(changes, 'attachments', row.nodeid).data).toEqual(row);
      expect(changeOf(changes, 'files', row.filenodeid).data).toMatchObject({ extension, status: 'complete' });
    }
  });

  it('refuses bytes that are not what the name says (a PNG named .pdf): 415 at upload, the file stays pending and cannot be attached', async () => {
    const { status, file } = await upload('pdf', pngBytes());
    expect(status).toBe(415);
    const [row] = await t.database.db.select().from(files).where(eq(files.fileid, file.fileid));
    expect(row?.status).toBe('pending');
    const before = await documentCount();
    expect((await call(t, adminA, 'POST', '/api/attachments', documentBody(file))).statusCode).toBe(409);
    expect(await documentCount()).toBe(before);
  });

  it('refuses a genuine non-document (PNG) as a documentation attachment naming the file, and takes it without a category', async () => {
    const png = await uploaded('png', pngBytes());
    const before = await documentCount();
    const refused = await call(t, adminA, 'POST', '/api/attachments', documentBody(png, { specifier: 'safety' }));
    expect(refused.statusCode).toBe(400);
    const error = apiErrorSchema.parse(refused.json());
    expect(error.details?.map((d) => d.field)).toEqual(['file']);
    expect(error.message).toContain('Ungültiger Dateityp!');
    expect(await documentCount()).toBe(before);
    // The same file on a notification (a photo, no category) is fine: the rule is the documentation's.
    const photo = await call(t, adminA, 'POST', '/api/attachments', documentBody(png, { specifier: null, isattachmentof: notificationA }));
    expect(photo.statusCode, photo.body).toBe(201);
  });

  it('refuses to move a photo into a category, or to swap a document’s file for a photo', async () => {
    const png = await uploaded('png', pngBytes());
    const photo = await postCreated(t, adminA, '/api/attachments', documentBody(png, { specifier: null }), attachmentRowSchema);
    const moved = await call(t, adminA, 'PUT', `/api/attachments/${photo.nodeid}`, { lang: 'de', specifier: 'setup' });
    expect(moved.statusCode).toBe(400);
    expect(apiErrorSchema.parse(moved.json()).details?.map((d) => d.field)).toEqual(['specifier']);

    const document = await createDocument();
    const swapped = await call(t, adminA, 'PUT', `/api/attachments/${document.nodeid}`, { lang: 'de', file: await uploaded('png', pngBytes()) });
    expect(swapped.statusCode).toBe(400);
    const [row] = await t.database.db.select().from(attachments).where(eq(attachments.nodeid, document.nodeid));
    expect(row?.filenodeid).toBe(document.filenodeid);
  });

  it('refuses a file larger than the server takes before any byte is sent', async () => {
    const response = await call(t, adminA, 'POST', '/api/files', { count: 1, extensions: [{ nodeid: uuidv7(), extension: 'pdf', size: 60 * 1024 * 1024 }] });
    expect(response.statusCode).toBe(400);
    expect(apiErrorSchema.parse(response.json()).details?.map((d) => d.field)).toEqual(['extensions.0.size']);
  });

  it('edits title, description and category; the change reaches other devices', async () => {
    const document = await createDocument();
    const before = await tenantVersion(t.database.db, a.legalEntity.nodeid);
    const response = await call(t, adminA, 'PUT', `/api/attachments/${document.nodeid}`, { lang: 'de', attachmentnodeid: document.nodeid, title: 'Wartungshandbuch', description: 'Kapitel 7', specifier: 'maintenance' });
    expect(response.statusCode, response.body).toBe(200);
    const row = attachmentRowSchema.parse(response.json());
    expect(row).toMatchObject({ title: 'Wartungshandbuch', description: 'Kapitel 7', specifier: 'maintenance', filenodeid: document.filenodeid });
    expect(changeOf(await pullChanges(t, adminA, before), 'attachments', document.nodeid).data).toEqual(row);
  });

  it('deletes with a tombstone other devices pull', async () => {
    const document = await createDocument();
    const before = await tenantVersion(t.database.db, a.legalEntity.nodeid);
    expect((await call(t, adminA, 'DELETE', `/api/attachments/${document.nodeid}`, { nodeid: document.nodeid })).statusCode).toBe(200);
    expect(await rowCount(t.database.db, tombstones, eq(tombstones.nodeid, document.nodeid))).toBe(1);
    expect(changeOf(await pullChanges(t, adminA, before), 'attachments', document.nodeid).deleted).toBe(true);
  });

  it('sent twice by the outbox (same mutation id): the edit and the delete are applied once, the resend answers the stored result', async () => {
    const document = await createDocument();
    const unchanged = () => tenantVersion(t.database.db, a.legalEntity.nodeid);
    await sentTwice(t, adminA, updateAttachment.method, `/api/attachments/${document.nodeid}`, { lang: 'de', attachmentnodeid: document.nodeid, title: 'Offline umbenannt' }, { status: 200, unchanged });
    await sentTwice(t, adminA, deleteAttachment.method, `/api/attachments/${document.nodeid}`, { nodeid: document.nodeid }, { status: 200, unchanged });
    expect(await rowCount(t.database.db, attachments, eq(attachments.nodeid, document.nodeid))).toBe(0);
  });

  it("another tenant can neither add to this machine nor see, edit or delete its documents (404, nothing changed)", async () => {
    const document = await createDocument();
    const fileOfB = (await upload('pdf', pdfBytes(), adminB)).file;
    expect((await call(t, adminB, 'POST', '/api/attachments', documentBody(fileOfB, { isattachmentof: machineA }))).statusCode).toBe(404);
    expect((await call(t, adminA, 'POST', '/api/attachments', documentBody(await uploaded('pdf', pdfBytes()), { isattachmentof: machineB }))).statusCode).toBe(404);
    expect((await call(t, adminB, 'PUT', `/api/attachments/${document.nodeid}`, { title: 'Fremd' })).statusCode).toBe(404);
    expect((await call(t, adminB, 'DELETE', `/api/attachments/${document.nodeid}`, { nodeid: document.nodeid })).statusCode).toBe(404);
    const [row] = await t.database.db.select().from(attachments).where(eq(attachments.nodeid, document.nodeid));
    expect(row?.title).toBe('Bedienungsanleitung');
  });

  it('a user who may only read documents can neither add, edit nor delete one (403, nothing changed)', async () => {
    const reader = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.attachment', onlyFlag('read'));
    const document = await createDocument();
    const before = await documentCount();
    expect((await call(t, reader.authorization, 'POST', '/api/attachments', documentBody(await uploaded('pdf', pdfBytes())))).statusCode).toBe(403);
    expect((await call(t, reader.authorization, 'PUT', `/api/attachments/${document.nodeid}`, { title: 'Nein' })).statusCode).toBe(403);
    expect((await call(t, reader.authorization, 'DELETE', `/api/attachments/${document.nodeid}`, { nodeid: document.nodeid })).statusCode).toBe(403);
    expect(await documentCount()).toBe(before);
    expect((await call(t, reader.authorization, 'GET', `/api/attachments/${document.nodeid}`)).statusCode).toBe(200);
  });
});
