import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileDownloadSchema, registeredFileSchema } from '../../src/shared/api/files';
import { READ_ONLY, type FlagTuple, type ProfileFeatures } from '../../src/shared/permissions';
import { attachmentRowSchema } from '../../src/shared/rows/equipment';
import { pngBytes } from '../factories/files';
import { insertNotification } from '../factories/notifications';
import { insertEquipment } from '../factories/structure';
import { insertProfile, insertUser, loginAs, type TestTenant } from '../factories/tenant';
import { call, postCreated } from './support/requests';
import { createTwoTenantApp, type TestApp } from './support/test-app';

const ALL_BUT_DELETE: FlagTuple = [true, true, true, false];

/**
 * A file's bytes go to its uploader and to who may read a record naming it (docs/security.md § Files and uploads).
 * Naming a file in a record hands its bytes to everyone who reads that record, and an upload URL writes its bytes:
 * so a user may name only a file they may download, may make a next version only of such a file, and gets an upload
 * URL only for their own registration. And a file is served as the type its extension says, whatever was declared.
 */
describe('files: naming, replacing and uploading are for who may read the file', () => {
  let t: TestApp;
  let a: TestTenant;
  let adminA: string;
  let machine: string;
  let notification: string;
  const tenant = () => ({ legalentitynodeid: a.legalEntity.nodeid });

  async function userWith(features: ProfileFeatures): Promise<{ authorization: string; usernodeid: string }> {
    const profile = await insertProfile(t.database.db, { ...tenant(), features });
    const user = await insertUser(t.database.db, { ...tenant(), profileid: profile.profileid });
    return { authorization: (await loginAs(t.app, user)).authorization, usernodeid: user.nodeid };
  }

  const register = (authorization: string, entry: Record<string, unknown>) => call(t, authorization, 'POST', '/api/files', { count: 1, extensions: [{ nodeid: uuidv7(), extension: 'png', ...entry }] });

  /** Registers (as `authorization`) and, unless `pending`, uploads a PNG; the registration's answer. */
  async function uploaded(authorization: string, options: { pending?: boolean; bytes?: Buffer } = {}) {
    const response = await register(authorization, {});
    expect(response.statusCode, response.body).toBe(200);
    const [registered] = registeredFileSchema.array().parse(response.json());
    if (!options.pending) {
      const put = await t.app.inject({ method: 'PUT', url: registered!.url, payload: options.bytes ?? pngBytes() });
      expect(put.statusCode, put.body).toBe(200);
    }
    return registered!;
  }

  const attach = (authorization: string, file: { fileid: string }, target: string) =>
    call(t, authorization, 'POST', '/api/attachments', { lang: 'de', nodeid: uuidv7(), title: 'Fremdes Foto', isattachmentof: target, file: { fileid: file.fileid, fileversion: 1 } });
  const machinePhoto = (authorization: string, file: { fileid: string }) =>
    call(t, authorization, 'PUT', `/api/equipments/${machine}`, { lang: 'de', equipmentnodeid: machine, image: { fileid: file.fileid, fileversion: 1 } });
  const download = (authorization: string, filenodeid: string) => call(t, authorization, 'GET', `/api/files/${filenodeid}/download`);

  beforeAll(async () => {
    ({ t, a, adminA } = await createTwoTenantApp());
    machine = (await insertEquipment(t.database.db, tenant())).nodeid;
    notification = (await insertNotification(t.database.db, { ...tenant(), equipmentnodeid: machine })).nodeid;
  });
  afterAll(() => t?.close());

  it('an attachment is part of what it hangs on: who may not read that may not add, change or delete one there (found by a security review)', async () => {
    const photo = await uploaded(adminA);
    const onNotification = await postCreated(t, adminA, '/api/attachments', { lang: 'de', nodeid: uuidv7(), title: 'Schadensfoto', isattachmentof: notification, file: { fileid: photo.fileid, fileversion: 1 } }, attachmentRowSchema);
    const manual = await uploaded(adminA);
    const onMachine = await postCreated(t, adminA, '/api/attachments', { lang: 'de', nodeid: uuidv7(), title: 'Anleitung', isattachmentof: machine, file: { fileid: manual.fileid, fileversion: 1 } }, attachmentRowSchema);
    // Every attachment flag and the machine's, but no notification read: the pull withholds the damage photo.
    const attacher = await userWith({ equipment: ALL_BUT_DELETE, 'equipment.attachment': [true, true, true, true] });
    const own = await uploaded(attacher.authorization);

    const touch = await call(t, attacher.authorization, 'PUT', `/api/attachments/${onNotification.nodeid}`, { lang: 'de' });
    expect(touch.statusCode, touch.body).toBe(403);
    expect(touch.body).not.toContain('Schadensfoto');
    expect((await call(t, attacher.authorization, 'PUT', `/api/attachments/${onNotification.nodeid}`, { lang: 'de', title: 'überschrieben' })).statusCode).toBe(403);
    expect((await call(t, attacher.authorization, 'DELETE', `/api/attachments/${onNotification.nodeid}`)).statusCode).toBe(403);
    expect((await attach(attacher.authorization, own, notification)).statusCode).toBe(403);
    // Nothing changed; the machine's own documents stay theirs to change.
    expect((await call(t, adminA, 'GET', `/api/attachments/${onNotification.nodeid}?lang=de`)).json()).toMatchObject({ title: 'Schadensfoto' });
    const renamed = await call(t, attacher.authorization, 'PUT', `/api/attachments/${onMachine.nodeid}`, { lang: 'de', title: 'Betriebsanleitung' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await attach(attacher.authorization, own, machine)).statusCode).toBe(201);
    expect((await call(t, attacher.authorization, 'DELETE', `/api/attachments/${onMachine.nodeid}`)).statusCode).toBe(200);
  });

  it("a file someone else uploaded that nothing names: neither a colleague nor an admin may attach it, make it a machine's photo or a version of it", async () => {
    const owner = await userWith({ equipment: ALL_BUT_DELETE, 'equipment.attachment': ALL_BUT_DELETE });
    const colleague = await userWith({ equipment: ALL_BUT_DELETE, 'equipment.attachment': ALL_BUT_DELETE });
    const file = await uploaded(owner.authorization);

    for (const caller of [colleague.authorization, adminA]) {
      expect((await attach(caller, file, machine)).statusCode).toBe(403);
      expect((await machinePhoto(caller, file)).statusCode).toBe(403);
      expect((await register(caller, { fileid: file.fileid })).statusCode).toBe(403);
      expect((await download(caller, file.nodeid)).statusCode).toBe(403);
    }
    // Nothing was written: the machine has no photo, and the owner still attaches their own file.
    expect((await call(t, adminA, 'GET', `/api/equipments/${machine}?lang=de`)).json()).toMatchObject({ image: null });
    expect((await attach(owner.authorization, file, machine)).statusCode).toBe(201);
    // Named by a machine, its readers may now read it, and one who may change the machine may make the next version.
    expect((await download(colleague.authorization, file.nodeid)).statusCode).toBe(200);
    expect((await register(colleague.authorization, { fileid: file.fileid })).statusCode).toBe(200);
  });

  it("a damage photo's file: who may not read the notification may not hang it on a machine nor make it the machine's photo; who may read it may", async () => {
    const file = await uploaded(adminA);
    await postCreated(t, adminA, '/api/attachments', { lang: 'de', nodeid: uuidv7(), title: 'Schaden', isattachmentof: notification, file: { fileid: file.fileid, fileversion: 1 } }, attachmentRowSchema);

    const machinesOnly = await userWith({ equipment: ALL_BUT_DELETE, 'equipment.attachment': ALL_BUT_DELETE });
    expect((await attach(machinesOnly.authorization, file, machine)).statusCode).toBe(403);
    expect((await machinePhoto(machinesOnly.authorization, file)).statusCode).toBe(403);
    expect((await download(machinesOnly.authorization, file.nodeid)).statusCode).toBe(403);

    const alsoNotifications = await userWith({ equipment: ALL_BUT_DELETE, 'equipment.attachment': ALL_BUT_DELETE, notification: READ_ONLY });
    expect((await attach(alsoNotifications.authorization, file, machine)).statusCode).toBe(201);
    expect((await machinePhoto(alsoNotifications.authorization, file)).statusCode).toBe(200);
  });

  it("an upload URL is its uploader's: a colleague's pending registration is not signed again for another user, by nodeid or by fileid", async () => {
    const owner = await userWith({ 'equipment.attachment': ALL_BUT_DELETE });
    const colleague = await userWith({ 'equipment.attachment': ALL_BUT_DELETE });
    const pending = await uploaded(owner.authorization, { pending: true });

    const byNodeid = await call(t, colleague.authorization, 'POST', '/api/files', { count: 1, extensions: [{ nodeid: pending.nodeid, extension: 'png' }] });
    expect(byNodeid.statusCode).toBe(409);
    expect(byNodeid.body).not.toContain('sig=');
    const byFileid = await register(colleague.authorization, { fileid: pending.fileid });
    expect(byFileid.statusCode).toBe(409);
    expect(byFileid.body).not.toContain('sig=');
    expect(byFileid.json()).toMatchObject({ details: [{ field: 'extensions.0.fileid' }] });
    // An admin is no exception: the bytes are the uploader's to send.
    expect((await register(adminA, { fileid: pending.fileid })).statusCode).toBe(409);

    // The uploader's own resend is signed again, and their bytes complete the file.
    const again = await call(t, owner.authorization, 'POST', '/api/files', { count: 1, extensions: [{ nodeid: pending.nodeid, extension: 'png' }] });
    expect(again.statusCode, again.body).toBe(200);
    const [resigned] = registeredFileSchema.array().parse(again.json());
    const bytes = pngBytes(2, 2);
    expect((await t.app.inject({ method: 'PUT', url: resigned!.url, payload: bytes })).statusCode).toBe(200);
    const served = await t.app.inject({ method: 'GET', url: fileDownloadSchema.parse((await download(owner.authorization, pending.nodeid)).json()).url });
    expect(served.rawPayload.equals(bytes)).toBe(true);
  });

  it.each([
    ['txt', 'image/png', 'text/plain', 'attachment'],
    ['csv', 'video/mp4', 'text/csv', 'attachment'],
    ['csv', 'application/vnd.ms-excel', 'text/csv', 'attachment'],
    ['png', 'image/jpeg', 'image/jpeg', 'inline'],
    ['png', 'image/png', 'image/png', 'inline'],
  ])('a .%s declared %s is stored and served as %s (%s)', async (extension, declared, stored, disposition) => {
    const bytes = extension === 'png' ? pngBytes() : Buffer.from('Zeile;Wert\nÖl;3\n');
    const response = await register(adminA, { extension, mimetype: declared, size: bytes.length });
    expect(response.statusCode, response.body).toBe(200);
    const [registered] = registeredFileSchema.array().parse(response.json());
    expect(registered!.mimetype).toBe(stored);
    const put = await t.app.inject({ method: 'PUT', url: registered!.url, payload: bytes, headers: { 'content-type': stored } });
    expect(put.statusCode, put.body).toBe(200);
    const served = await t.app.inject({ method: 'GET', url: fileDownloadSchema.parse((await download(adminA, registered!.nodeid)).json()).url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toContain(stored);
    expect(String(served.headers['content-disposition'])).toMatch(new RegExp(`^${disposition}`));
  });
});
