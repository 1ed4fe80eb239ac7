import { createAttachmentSchema } from '../api/attachments';
import { registerFilesSchema } from '../api/files';
import { registeredMimetype, UPLOAD_PERMISSIONS } from '../domain/upload-types';
import type { AttachmentRow, FileRow } from '../rows/equipment';
import { defineCreate, defineMutation, noParams } from './mutation';

/**
 * Files and attachments (spec part 1 §3, §7). A file chosen on the device is one
 * registration (POST /files, its bytes PUT to the signed URL the answer carries) and, for a document or photo
 * on a record, one attachment after it.
 *
 * A file reference made on the device (`file.fileid` of an attachment, `image` of a machine) names the
 * registration's nodeid, which is the file row's nodeid, until it is sent: the sender then puts in the server's
 * fileid, and the server maps that back to the row. So on both sides `filenodeid` is the file row's nodeid.
 */

/**
 * One file registered for upload. Anyone who may make one of the writes that take a file (UPLOAD_PERMISSIONS:
 * machine photos, notification photos, documents, FAQ answers): the write that uses the file checks its own
 * permission again. The row is the first (on the device, only) file of the registration; the server registers
 * every one alike.
 */
export const uploadFile = defineMutation({
  name: 'uploadFile',
  method: 'POST',
  route: '/files',
  params: noParams,
  body: registerFilesSchema,
  permission: { anyOf: UPLOAD_PERMISSIONS },
  kind: 'files',
  creates: true,
  target: ({ body }) => body.extensions[0]!.nodeid,
  apply: (_current, { body }): Pick<FileRow, 'mimetype' | 'extension' | 'size' | 'status'> => {
    const file = body.extensions[0]!;
    return { mimetype: registeredMimetype(file.extension, file.mimetype), extension: file.extension, size: file.size ?? null, status: 'pending' };
  },
});

/** A complete file hung on a record of the organisation (its kind, `targetkind`, is the server's to find). */
export const attachFile = defineCreate({
  name: 'attachFile',
  route: '/attachments',
  body: createAttachmentSchema,
  permission: { feature: 'equipment.attachment', flag: 'create' },
  kind: 'attachments',
  // A document of the machine documentation (it has a category) says so in the sync panel, not "Foto".
  aliases: ['attachDocument'],
  actionOf: ({ body }) => (body.specifier ? 'attachDocument' : 'attachFile'),
  apply: (_current, { body }, { usernodeid }): Omit<AttachmentRow, 'nodeid' | 'legalentitynodeid' | 'version' | 'targetkind'> => ({
    title: body.title,
    description: body.description,
    specifier: body.specifier ?? null,
    isattachmentof: body.isattachmentof,
    filenodeid: body.file.fileid,
    authornodeid: usernodeid,
  }),
});

export const fileMutations = [uploadFile, attachFile] as const;
