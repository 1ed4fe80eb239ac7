import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_DENIED_MESSAGE } from '../../src/shared/api/errors';
import { pullResponseSchema, withheldAttachments } from '../../src/shared/api/sync';
import { fileDownloadSchema, registeredFileSchema } from '../../src/shared/api/files';
import { ATTACHMENT_TARGET_KINDS, type AttachmentTargetKind } from '../../src/shared/domain/attachment';
import { READ_ONLY, type FeatureKey, type FlagTuple, type ProfileFeatures } from '../../src/shared/permissions';
import { attachmentRowSchema } from '../../src/shared/rows/equipment';
import { attachments, users } from '../../src/server/db/schema';
import { insertReport } from '../factories/costs';
import { insertFile, pdfBytes, pngBytes } from '../factories/files';
import { insertRow } from '../factories/insert';
import { insertNotification } from '../factories/notifications';
import { insertEquipment } from '../factories/structure';
import { insertProfile, insertUser, loginAs, type TestTenant } from '../factories/tenant';
import { call, postCreated } from './support/requests';
import { createTwoTenantApp, type TestApp } from './support/test-app';

const CREATE_READ_UPDATE: FlagTuple = [true, true, true, false];

/**
 * Who gets a file's bytes (docs/security.md § Files and uploads): GET /api/files/{nodeid}/download signs a URL
 * only for the file's uploader or a user who may read a record naming that version (FILE_READERS in
 * file-service.ts, read permissions as the pull's); GET /api/attachments/{id}, whose answer embeds a signed URL,
 * follows the same rule. Everything through the real server, with users whose profiles grant exactly the flags
 * a case needs.
 */
describe('file downloads: the bytes follow the records that name them', () => {
  let t: TestApp;
  let a: TestTenant;
  let adminA: string;
  let adminB: string;
  let machine: string;
  let notification: string;
  const tenant = () => ({ legalentitynodeid: a.legalEntity.nodeid });

  /** A signed-in user of tenant A whose profile grants `features` (read-only flags when given as a list). */
  async function userWith(features: ProfileFeatures | FeatureKey[]): Promise<{ authorization: string; usernodeid: string }> {
    const granted = Array.isArray(features) ? Object.fromEntries(features.map((feature) => [feature, READ_ONLY])) : features;
    const profile = await insertProfile(t.database.db, { ...tenant(), features: granted });
    const user = await insertUser(t.database.db, { ...tenant(), profileid: profile.profileid });
    return { authorization: (await loginAs(t.app, user)).authorization, usernodeid: user.nodeid };
  }

  /** Registers and uploads a file through the real two-step upload as `authorization`; its row's ids. */
  async function uploaded(authorization: string, bytes: Buffer = pngBytes(), extension = 'png', fileid?: string) {
    const response = await call(t, authorization, 'POST', '/api/files', { count: 1, extensions: [{ nodeid: uuidv7(), extension, ...(fileid && { fileid }) }] });
    expect(response.statusCode, response.body).toBe(200);
    const [registered] = registeredFileSchema.array().parse(response.json());
    const put = await t.app.inject({ method: 'PUT', url: registered!.url, payload: bytes });
    expect(put.statusCode, put.body).toBe(200);
    return { nodeid: registered!.nodeid, fileid: registered!.fileid, fileversion: registered!.fileversion };
  }

  const download = (authorization: string, filenodeid: string) => call(t, authorization, 'GET', `/api/files/${filenodeid}/download`);

  /** The download's status; for a 200 also that its signed URL serves `bytes`. */
  async function downloadStatus(authorization: string, filenodeid: string, bytes?: Buffer): Promise<number> {
    const response = await download(authorization, filenodeid);
    if (response.statusCode === 403) expect(response.json()).toMatchObject({ message: ACCESS_DENIED_MESSAGE });
    if (response.statusCode === 200 && bytes) {
      const served = await t.app.inject({ method: 'GET', url: fileDownloadSchema.parse(response.json()).url });
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(bytes)).toBe(true);
    }
    return response.statusCode;
  }

  beforeAll(async () => {
    ({ t, a, adminA, adminB } = await createTwoTenantApp());
    machine = (await insertEquipment(t.database.db, tenant())).nodeid;
    notification = (await insertNotification(t.database.db, { ...tenant(), equipmentnodeid: machine })).nodeid;
  });
  afterAll(() => t?.close());

  it("a notification's damage photo: no URL and no bytes without read of attachments and notifications, neither by the download nor by the attachment's answer", async () => {
    const photo = pngBytes(3, 3);
    const file = await uploaded(adminA, photo);
    const attachment = await postCreated(t, adminA, '/api/attachments', { lang: 'de', nodeid: uuidv7(), title: 'Foto vor Ort', isattachmentof: notification, file: { fileid: file.fileid, fileversion: 1 } }, attachmentRowSchema);

    const nobody = await userWith({});
    expect(await downloadStatus(nobody.authorization, file.nodeid)).toBe(403);
    expect((await call(t, nobody.authorization, 'GET', `/api/attachments/${attachment.nodeid}`)).statusCode).toBe(403);

    // Attachments alone are not enough: the photo is part of a notification this user may not read.
    const attachmentsOnly = await userWith(['equipment.attachment']);
    expect(await downloadStatus(attachmentsOnly.authorization, file.nodeid)).toBe(403);
    const answer = await call(t, attachmentsOnly.authorization, 'GET', `/api/attachments/${attachment.nodeid}`);
    expect(answer.statusCode).toBe(403);
    expect(answer.body).not.toContain('sig=');

    const reader = await userWith(['equipment.attachment', 'notification']);
    expect(await downloadStatus(reader.authorization, file.nodeid, photo)).toBe(200);
    expect((await call(t, reader.authorization, 'GET', `/api/attachments/${attachment.nodeid}`)).statusCode).toBe(200);

    // Another tenant's file stays a 404, whatever its own admin may read.
    expect((await download(adminB, file.nodeid)).statusCode).toBe(404);
  });

  /** The read flags an attachment's file needs, by what it hangs on (the pull's rule for the attachment and its target). */
  const NEEDS: Record<AttachmentTargetKind, FeatureKey[]> = {
    equipment: ['equipment.attachment'],
    equipmenttype: ['equipment.attachment'],
    notification: ['equipment.attachment', 'notification'],
    workflowstep: ['equipment.attachment', 'notification', 'notification.workflow'],
    faq: ['equipment.attachment', 'equipment.faq'],
    report: ['equipment.attachment', 'notification', 'notification.report'],
    maintenancetask: ['equipment.attachment', 'equipment.maintenancetask'],
  };

  /** The attachments a full pull brings the user, and the pull's scope. */
  async function pulledAttachments(authorization: string): Promise<{ ids: string[]; scope: string[] }> {
    const response = await t.app.inject({ method: 'GET', url: '/api/sync/pull?cursor=0&limit=5000', headers: { authorization, 'x-client-id': uuidv7() } });
    expect(response.statusCode, response.body).toBe(200);
    const page = pullResponseSchema.parse(response.json());
    return { ids: page.changes.filter((change) => change.kind === 'attachments' && !change.deleted).map((change) => change.nodeid), scope: (page.scope ?? '').split(',') };
  }

  it.each(ATTACHMENT_TARGET_KINDS)('an attachment hanging on %s: exactly its read flags download it and pull its row; without any one of them 403, and no row', async (targetkind) => {
    const file = await insertFile(t.database.db, { ...tenant(), status: 'complete' });
    const attachment = await insertRow(t.database.db, attachments, { nodeid: uuidv7(), ...tenant(), title: 'Datei', filenodeid: file.nodeid, isattachmentof: uuidv7(), targetkind });
    const enough = await userWith(NEEDS[targetkind]);
    expect(await downloadStatus(enough.authorization, file.nodeid)).toBe(200);
    expect((await call(t, enough.authorization, 'GET', `/api/attachments/${attachment.nodeid}`)).statusCode).toBe(200);
    for (const missing of NEEDS[targetkind]) {
      const short = await userWith(NEEDS[targetkind].filter((feature) => feature !== missing));
      expect(await downloadStatus(short.authorization, file.nodeid), `without ${missing}`).toBe(403);
      expect((await call(t, short.authorization, 'GET', `/api/attachments/${attachment.nodeid}`)).statusCode, `without ${missing}`).toBe(403);
      // Not in the pull either: the title of a damage photo belongs to its notification (docs/sync.md § Pull by permission).
      const pulled = await pulledAttachments(short.authorization);
      expect(pulled.ids, `without ${missing}`).not.toContain(attachment.nodeid);
      if (missing !== 'equipment.attachment') expect(pulled.scope, `without ${missing}`).toContain(withheldAttachments(targetkind));
    }
    const pulled = await pulledAttachments(enough.authorization);
    expect(pulled.ids).toContain(attachment.nodeid);
    expect(pulled.scope).not.toContain(withheldAttachments(targetkind));
  });

  it('the uploader reads back their own upload before any record names it; nobody else does, not even an admin, until a record they may read names it', async () => {
    // May upload and attach, but read no attachments.
    const uploader = await userWith({ notification: CREATE_READ_UPDATE, 'equipment.attachment': [true, false, false, false] });
    const bytes = pdfBytes('Schadensbericht');
    const file = await uploaded(uploader.authorization, bytes, 'pdf');
    expect(await downloadStatus(uploader.authorization, file.nodeid, bytes)).toBe(200);

    const documents = await userWith(['equipment.attachment']);
    expect(await downloadStatus(documents.authorization, file.nodeid)).toBe(403);
    expect(await downloadStatus(adminA, file.nodeid)).toBe(403);

    await postCreated(t, uploader.authorization, '/api/attachments', { lang: 'de', nodeid: uuidv7(), title: 'Bericht', isattachmentof: machine, file: { fileid: file.fileid, fileversion: 1 } }, attachmentRowSchema);
    expect(await downloadStatus(documents.authorization, file.nodeid, bytes)).toBe(200);
    expect(await downloadStatus(adminA, file.nodeid, bytes)).toBe(200);
    expect(await downloadStatus((await userWith({})).authorization, file.nodeid)).toBe(403);
  });

  it('each version on its own: a record naming version 1 does not open version 2; a next version is made only by who may read the file', async () => {
    const first = await uploaded(adminA, pdfBytes('Fassung 1'), 'pdf');
    const attachment = await postCreated(t, adminA, '/api/attachments', { lang: 'de', nodeid: uuidv7(), title: 'Plan', isattachmentof: notification, file: { fileid: first.fileid, fileversion: 1 } }, attachmentRowSchema);
    // Version 1 hangs on a notification: who may not read its attachments may not replace it.
    const blind = await userWith({ notification: CREATE_READ_UPDATE });
    expect((await call(t, blind.authorization, 'POST', '/api/files', { count: 1, extensions: [{ nodeid: uuidv7(), extension: 'pdf', fileid: first.fileid }] })).statusCode).toBe(403);
    const uploader = await userWith({ notification: CREATE_READ_UPDATE, 'equipment.attachment': CREATE_READ_UPDATE });
    const second = await uploaded(uploader.authorization, pdfBytes('Fassung 2'), 'pdf', first.fileid);
    expect(second.fileversion).toBe(2);

    const reader = await userWith(['equipment.attachment', 'notification']);
    expect(await downloadStatus(reader.authorization, first.nodeid)).toBe(200);
    expect(await downloadStatus(reader.authorization, second.nodeid)).toBe(403);
    expect(await downloadStatus(uploader.authorization, second.nodeid)).toBe(200);
    expect(await downloadStatus(blind.authorization, second.nodeid)).toBe(403);

    // Version 2 is the uploader's until a record names it: they put it in the attachment.
    const swapped = await call(t, uploader.authorization, 'PUT', `/api/attachments/${attachment.nodeid}`, { lang: 'de', file: { fileid: first.fileid, fileversion: 2 } });
    expect(swapped.statusCode, swapped.body).toBe(200);
    expect(await downloadStatus(reader.authorization, second.nodeid, pdfBytes('Fassung 2'))).toBe(200);
  });

  it("a machine's photo and nameplate go to every signed-in user, as the machine does (its row is in everyone's pull)", async () => {
    const photo = pngBytes(4, 4);
    const plate = pngBytes(5, 2);
    const [image, nameplate] = [await uploaded(adminA, photo), await uploaded(adminA, plate)];
    const unnamed = await uploaded(adminA);
    await insertEquipment(t.database.db, { ...tenant(), imagefilenodeid: image.nodeid, typenameplatefilenodeid: nameplate.nodeid });
    const nobody = await userWith({});
    expect(await downloadStatus(nobody.authorization, image.nodeid, photo)).toBe(200);
    expect(await downloadStatus(nobody.authorization, nameplate.nodeid, plate)).toBe(200);
    expect(await downloadStatus(nobody.authorization, unnamed.nodeid)).toBe(403);
  });

  it("a report's drawn signature needs read of notifications and reports", async () => {
    const drawing = pngBytes(6, 2);
    const signature = await uploaded(adminA, drawing);
    await insertReport(t.database.db, { ...tenant(), notificationnodeid: notification, authorsignatureimagefilenodeid: signature.nodeid });
    expect(await downloadStatus((await userWith({})).authorization, signature.nodeid)).toBe(403);
    expect(await downloadStatus((await userWith(['notification'])).authorization, signature.nodeid)).toBe(403);
    expect(await downloadStatus((await userWith(['notification.report'])).authorization, signature.nodeid)).toBe(403);
    expect(await downloadStatus((await userWith(['notification', 'notification.report'])).authorization, signature.nodeid, drawing)).toBe(200);
  });

  it("a person's image (users.image, a FileRef by fileid) goes to every signed-in user, the version it names only", async () => {
    const first = await uploaded(adminA, pngBytes(2, 3));
    const second = await uploaded(adminA, pngBytes(3, 2), 'png', first.fileid);
    const person = await insertUser(t.database.db, { ...tenant(), profileid: a.adminProfile.profileid });
    const nobody = await userWith({});
    expect(await downloadStatus(nobody.authorization, first.nodeid)).toBe(403);

    await t.database.db.update(users).set({ image: { fileid: first.fileid, fileversion: 2 } }).where(eq(users.nodeid, person.nodeid));
    expect(await downloadStatus(nobody.authorization, second.nodeid, pngBytes(3, 2))).toBe(200);
    expect(await downloadStatus(nobody.authorization, first.nodeid)).toBe(403);

    // Without a version the reference names the file, whichever version.
    await t.database.db.update(users).set({ image: { fileid: first.fileid } }).where(eq(users.nodeid, person.nodeid));
    expect(await downloadStatus(nobody.authorization, first.nodeid)).toBe(200);
    expect(await downloadStatus(nobody.authorization, second.nodeid)).toBe(200);
  });
});
