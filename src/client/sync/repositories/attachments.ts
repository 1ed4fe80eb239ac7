/**
 * Photos and documents chosen on the device. The bytes are stored (ArrayBuffer + MIME type) in the same
 * transaction as two outbox entries: the file registration (POST /files, registerFilesSchema; after it is
 * acknowledged the sender PUTs the bytes to the signed URL it returned) and the attachment (POST /attachments,
 * createAttachmentSchema). Both come after the write that created their target, so the server never sees an
 * attachment before its notification. The server makes the `fileid`; the attachment's `file` reference is
 * therefore completed at send time from the stored registration answer (sender.ts `bodyFor`).
 */
import type { CreateAttachmentInput } from '../../../shared/api/attachments';
import type { RegisterFilesInput } from '../../../shared/api/files';
import type { AttachmentCategory } from '../../../shared/domain/attachment';
import type { StoredFileBytes } from '../../db/local-db';
import { enqueueMutation, newNodeId, type MutationRequest, type WriteContext } from '../outbox';

export interface PhotoInput {
  bytes: ArrayBuffer;
  mimetype: string;
  name: string;
  title?: string;
  description?: string;
}

export function fileExtension(name: string, mimetype: string): string {
  const match = /\.([a-z0-9]{1,8})$/i.exec(name);
  if (match?.[1]) return match[1].toLowerCase();
  const sub = mimetype.split('/')[1] ?? 'bin';
  return sub === 'jpeg' ? 'jpg' : sub;
}

/** The two mutations and the stored bytes for one file attached to `isattachmentof`. */
export function photoMutations(context: WriteContext, photo: PhotoInput, target: { isattachmentof: string; title: string; specifier?: AttachmentCategory | null }): { file: StoredFileBytes; mutations: MutationRequest[] } {
  // The registration's device-made id: key of the stored bytes, and what makes re-registering idempotent.
  const filenodeid = newNodeId();
  const fileid = filenodeid;
  const attachmentnodeid = newNodeId();
  const extension = fileExtension(photo.name, photo.mimetype);
  const file: StoredFileBytes = { fileid, bytes: photo.bytes, mimetype: photo.mimetype, name: photo.name, size: photo.bytes.byteLength, createdAt: (context.now ?? Date.now)() };
  const register: MutationRequest = {
    action: 'uploadFile',
    method: 'POST',
    path: 'files',
    body: { count: 1, extensions: [{ nodeid: filenodeid, extension, mimetype: photo.mimetype, size: photo.bytes.byteLength }] } satisfies RegisterFilesInput,
    kind: 'files',
    nodeid: filenodeid,
    values: { mimetype: photo.mimetype, extension, size: photo.bytes.byteLength, status: 'pending' },
    creates: true,
    dependsOn: [fileid],
    upload: { fileid },
  };
  const attach: MutationRequest = {
    action: 'attachFile',
    method: 'POST',
    path: 'attachments',
    body: {
      lang: 'de',
      nodeid: attachmentnodeid,
      title: target.title,
      description: photo.description ?? null,
      specifier: target.specifier ?? null,
      isattachmentof: target.isattachmentof,
      // Placeholder until sent: the sender puts in the server's fileid, fileversion and bucketid.
      file: { fileid: filenodeid, mimetype: photo.mimetype },
    } satisfies CreateAttachmentInput,
    kind: 'attachments',
    nodeid: attachmentnodeid,
    values: { title: target.title, description: photo.description ?? null, isattachmentof: target.isattachmentof, filenodeid, mimetype: photo.mimetype },
    creates: true,
    dependsOn: [fileid],
  };
  return { file, mutations: [register, attach] };
}

/** Attaches a photo to an existing record (notification, machine, …). */
export async function attachPhoto(context: WriteContext, photo: PhotoInput, target: { isattachmentof: string; title: string; specifier?: AttachmentCategory | null }): Promise<string> {
  const { file, mutations } = photoMutations(context, photo, target);
  const stored = await enqueueMutation(context, mutations, { files: [file] });
  return stored[1]!.nodeid;
}
