import { z } from 'zod';
import { trimText } from '../domain/text';
import { ATTACHMENT_CATEGORIES, ATTACHMENT_TARGET_KINDS } from '../domain/attachment';
import { fileRefInputSchema } from './files';
import { deleteBodySchema, langField } from './fields';

/**
 * Attachment contracts of spec part 1 §3 and §7 (POST, PUT, DELETE /attachments[/{id}]). An attachment is a
 * titled, complete file hung on a node of the tenant (`isattachmentof`: machine, equipment type,
 * notification, solution step, FAQ, report, maintenance task). Shared by the upload dialogs, the outbox and
 * the routes.
 */

const TITLE_MAX = 500;

/** A documentation category; empty or null for attachments outside the documentation tab. */
const specifier = z
  .union([z.enum(ATTACHMENT_CATEGORIES, { error: `Must be one of ${ATTACHMENT_CATEGORIES.join(', ')}` }), z.literal(''), z.null()])
  .transform((value) => (value ? value : null));

const description = z
  .string()
  .overwrite(trimText)
  .max(20_000, 'Must be at most 20000 characters')
  .nullish()
  .transform((value) => (value ? value : null));

const title = z
  .string({ error: (issue) => (issue.input === undefined || issue.input === null ? 'Required' : 'Must be a text') })
  .overwrite(trimText)
  .min(1, 'Required')
  .max(TITLE_MAX, `Must be at most ${TITLE_MAX} characters`);

/** POST /api/attachments. `nodeid` is chosen by the device; the file must be complete (409 while pending). */
export const createAttachmentSchema = z.object({
  lang: langField,
  nodeid: z.uuid().optional(),
  title,
  description,
  specifier: specifier.optional(),
  file: fileRefInputSchema,
  isattachmentof: z.uuid(),
});
export type CreateAttachmentInput = z.input<typeof createAttachmentSchema>;
export type CreateAttachment = z.output<typeof createAttachmentSchema>;

/** PUT /api/attachments/{id}: {lang, title, description, specifier, attachmentnodeid, file}; only the fields sent change. */
export const updateAttachmentSchema = z.object({
  lang: langField,
  attachmentnodeid: z.uuid().optional(),
  title: title.optional(),
  description: description.optional(),
  specifier: specifier.optional(),
  file: fileRefInputSchema.optional(),
});
export type UpdateAttachmentInput = z.input<typeof updateAttachmentSchema>;
export type UpdateAttachment = z.output<typeof updateAttachmentSchema>;

/** DELETE /api/attachments/{id}: the spec's body {nodeid}, optional; when sent it must equal the path. */
export const deleteAttachmentSchema = deleteBodySchema('nodeid');

export const attachmentSchema = z.object({
  nodeid: z.uuid(),
  title: z.string(),
  description: z.string().nullable(),
  specifier: z.enum(ATTACHMENT_CATEGORIES).nullable(),
  isattachmentof: z.uuid(),
  targetkind: z.enum(ATTACHMENT_TARGET_KINDS),
  fileid: z.uuid(),
  fileversion: z.number().int(),
  bucketid: z.string(),
  mimetype: z.string(),
  /** Signed download URL (expires; reload the record for a fresh one). */
  url: z.string(),
  file: z.object({ fileid: z.uuid(), fileversion: z.number().int(), bucketid: z.string(), mimetype: z.string(), url: z.string() }),
  version: z.number().int(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

