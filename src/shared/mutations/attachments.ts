import { deleteAttachmentSchema, updateAttachmentSchema } from '../api/attachments';
import { defineDelete, defineUpdate, idParams, sentFields } from './mutation';

/**
 * Editing and deleting an attachment (spec part 1 §2.1 documentation tab, §6, §7); feature key
 * `equipment.attachment` (edit needs update, delete needs delete). Adding one is `attachFile` (files.ts), since
 * it always follows a file's registration.
 */

/**
 * "Dokument bearbeiten": title, description, category; only the fields sent change. A new file version may be
 * sent too (`file`, the registration's reference): the mirror then names that file row.
 */
export const updateAttachment = defineUpdate({
  name: 'updateAttachment',
  route: '/attachments/:id',
  params: idParams,
  body: updateAttachmentSchema,
  permission: { feature: 'equipment.attachment', flag: 'update' },
  kind: 'attachments',
  apply: (_current, { body }) => ({ ...sentFields(body, ['title', 'description', 'specifier']), ...(body.file && { filenodeid: body.file.fileid }) }),
});

/** "Dokument löschen" after the confirmation: a tombstone; the file stays (another record may use it). */
export const deleteAttachment = defineDelete({
  name: 'deleteAttachment',
  route: '/attachments/:id',
  params: idParams,
  body: deleteAttachmentSchema,
  permission: { feature: 'equipment.attachment', flag: 'delete' },
  kind: 'attachments',
});

export const attachmentMutations = [updateAttachment, deleteAttachment] as const;
