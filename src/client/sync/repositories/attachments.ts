/**
 * Photos and documents chosen on the device (declarations: src/shared/mutations/files.ts). The bytes are stored
 * (ArrayBuffer + MIME type) in the same transaction as the file's registration (`uploadFile`; once it is
 * acknowledged the sender PUTs the bytes to the signed URL it returned) and, for an attachment, the attachment
 * after it (`attachFile`). Both come after the write that created their target, so the server never sees an
 * attachment before its record. A machine's photos use the same registration (repositories/equipment.ts).
 */
import type { AttachmentCategory } from '../../../shared/domain/attachment';
import { attachFile, uploadFile } from '../../../shared/mutations/files';
import type { StoredFileBytes } from '../../db/local-db';
import { mutateAll, mutationStep } from '../mutate';
import { newNodeId, type MutationRequest, type WriteContext } from '../outbox';

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

/** One file's registration with its stored bytes, and the reference a request names the file by until it is sent. */
export interface FileRegistration {
  step: MutationRequest;
  file: StoredFileBytes;
  /** The registration's nodeid: the file row's nodeid, and the key of the stored bytes. */
  filenodeid: string;
  /** Placeholder until sent: the sender puts in the server's fileid, fileversion and bucketid. */
  ref: { fileid: string; mimetype: string };
}

/** Registers a file chosen on the device; throws MutationInputError for a file type the server refuses. */
export function fileRegistration(context: WriteContext, photo: PhotoInput): FileRegistration {
  // The registration's device-made id: key of the stored bytes, and what makes registering it again idempotent.
  const filenodeid = newNodeId();
  const size = photo.bytes.byteLength;
  const step = mutationStep(
    uploadFile,
    { params: {}, body: { count: 1, extensions: [{ nodeid: filenodeid, extension: fileExtension(photo.name, photo.mimetype), ...(photo.mimetype && { mimetype: photo.mimetype }), size }] } },
    { dependsOn: [filenodeid], upload: { fileid: filenodeid } },
  );
  const file: StoredFileBytes = { fileid: filenodeid, bytes: photo.bytes, mimetype: photo.mimetype, name: photo.name, size, createdAt: (context.now ?? Date.now)() };
  return { step, file, filenodeid, ref: { fileid: filenodeid, mimetype: photo.mimetype } };
}

/** The two steps and the stored bytes for one file attached to `isattachmentof`. */
export function photoMutations(context: WriteContext, photo: PhotoInput, target: { isattachmentof: string; title: string; specifier?: AttachmentCategory | null }): { file: StoredFileBytes; mutations: MutationRequest[] } {
  const registration = fileRegistration(context, photo);
  const attach = mutationStep(
    attachFile,
    {
      params: {},
      body: {
        lang: 'de',
        nodeid: newNodeId(),
        title: target.title,
        description: photo.description ?? null,
        specifier: target.specifier ?? null,
        isattachmentof: target.isattachmentof,
        file: registration.ref,
      },
    },
    { dependsOn: [registration.filenodeid] },
  );
  return { file: registration.file, mutations: [registration.step, attach] };
}

/** Attaches a photo to an existing record (notification, machine, …). */
export async function attachPhoto(context: WriteContext, photo: PhotoInput, target: { isattachmentof: string; title: string; specifier?: AttachmentCategory | null }): Promise<string> {
  const { file, mutations } = photoMutations(context, photo, target);
  const stored = await mutateAll(context, mutations, { files: [file] });
  return stored[1]!.nodeid;
}
