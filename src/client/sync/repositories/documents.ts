/**
 * The documentation tab's writes (declarations: src/shared/mutations/files.ts, attachments.ts). An upload is the
 * file's registration with its stored bytes and the attachment after it, for every file in ONE transaction: the
 * dialog's save either queues all of its files or none. Edit and delete are one declared step each.
 */
import type { AttachmentCategory } from '../../../shared/domain/attachment';
import { extensionOfName } from '../../../shared/domain/documentation-upload';
import { uploadTypeOf } from '../../../shared/domain/upload-types';
import { deleteAttachment, updateAttachment } from '../../../shared/mutations/attachments';
import { mutate, mutateAll } from '../mutate';
import type { WriteContext } from '../outbox';
import { photoMutations } from './attachments';

export interface DocumentUpload {
  bytes: ArrayBuffer;
  /** The file's name on the device; its extension is the type the server checks the bytes against. */
  name: string;
  title: string;
  description: string | null;
  category: AttachmentCategory;
}

export interface QueuedDocument {
  attachmentnodeid: string;
  filenodeid: string;
  bytes: ArrayBuffer;
  mimetype: string;
}

/** Queues the documents on the machine; throws MutationInputError (nothing queued) for input the server would refuse. */
export async function uploadDocuments(context: WriteContext, equipmentnodeid: string, uploads: readonly DocumentUpload[]): Promise<QueuedDocument[]> {
  const prepared = uploads.map((upload) => {
    // The extension's own type, not the browser's guess (Windows declares a .csv as Excel): the server stores
    // and serves this one, and checks the bytes against the extension anyway.
    const mimetype = uploadTypeOf(extensionOfName(upload.name))?.mimetype ?? 'application/octet-stream';
    const steps = photoMutations(
      context,
      { bytes: upload.bytes, mimetype, name: upload.name, description: upload.description ?? undefined },
      { isattachmentof: equipmentnodeid, title: upload.title, specifier: upload.category },
    );
    return { upload, mimetype, ...steps };
  });
  const stored = await mutateAll(
    context,
    prepared.flatMap((entry) => entry.mutations),
    // The sync panel shows the upload as one change, worded by the first document's attachment ("Dokument hochladen").
    { files: prepared.map((entry) => entry.file), describedBy: prepared[0]?.mutations[1] },
  );
  return prepared.map((entry, index) => ({ attachmentnodeid: stored[index * 2 + 1]!.nodeid, filenodeid: entry.file.fileid, bytes: entry.upload.bytes, mimetype: entry.mimetype }));
}

export interface DocumentFields {
  title: string;
  description: string | null;
  category: AttachmentCategory;
}

/**
 * "Dokument bearbeiten": title, description and category — only those the user changed against what the dialog
 * opened with (`before`), so another device's change of a field the dialog did not touch survives. Nothing
 * changed: nothing is queued.
 */
export async function updateDocument(context: WriteContext, nodeid: string, before: DocumentFields, after: DocumentFields): Promise<void> {
  const body = {
    ...(after.title !== before.title && { title: after.title }),
    ...(after.description !== before.description && { description: after.description }),
    ...(after.category !== before.category && { specifier: after.category }),
  };
  if (Object.keys(body).length === 0) return;
  await mutate(context, updateAttachment, { params: { id: nodeid }, body: { lang: 'de', attachmentnodeid: nodeid, ...body } });
}

/** "Dokument löschen", after the confirmation. */
export async function deleteDocument(context: WriteContext, nodeid: string): Promise<void> {
  await mutate(context, deleteAttachment, { params: { id: nodeid }, body: { nodeid } });
}
