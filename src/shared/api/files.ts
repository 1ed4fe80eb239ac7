import { z } from 'zod';
import { isAllowedUploadExtension, normalizeExtension } from '../domain/upload-types';
import { queryInteger } from './fields';

/**
 * Two-step file upload of spec part 1 §7 and docs/sync.md § Files: POST /api/files registers files and
 * answers signed, expiring URLs; the device PUTs each file's raw bytes to its URL. A file is `pending` until
 * its bytes arrived, and only complete files can be attached.
 */

/**
 * One file to register. `nodeid` is the device's id for this upload (UUIDv7): registering it again signs a
 * fresh URL for the same file instead of making a new one. `fileid` (the spec's "only when editing") names an
 * existing file: while its latest version is pending the URL is signed again (an expired URL); once complete
 * a new version of it is registered. `size` and `mimetype` are optional; when given, the upload must match.
 */
export const fileRegistrationSchema = z.object({
  nodeid: z.uuid(),
  extension: z
    .string({ error: 'Required' })
    .transform(normalizeExtension)
    .refine((extension) => isAllowedUploadExtension(extension), 'Ungültiger Dateityp! Allowed: images, videos, pdf, word, excel, powerpoint, text, pages, numbers, keynote'),
  fileid: z.uuid().optional(),
  size: z.number().int().nonnegative().optional(),
  mimetype: z.string().min(1).max(200).optional(),
});
export type FileRegistrationInput = z.input<typeof fileRegistrationSchema>;

/**
 * A file id (`nodeid`) listed twice in one request is the same registration sent twice (answered once), and so is
 * the next version of one file (`fileid`) asked for twice; with another extension, size or type they would be two
 * files answered as one, and which one to keep is not the server's guess.
 */
function sameIdSameFile(entries: readonly z.output<typeof fileRegistrationSchema>[], ctx: z.RefinementCtx): void {
  const byNodeid = new Map<string, string>();
  const byFileid = new Map<string, string>();
  entries.forEach((entry, index) => {
    const content = [entry.extension, entry.size ?? null, entry.mimetype ?? null];
    const check = (seen: Map<string, string>, key: string | undefined, values: string, field: 'nodeid' | 'fileid', message: string) => {
      if (key === undefined) return;
      const first = seen.get(key);
      if (first === undefined) seen.set(key, values);
      else if (first !== values) ctx.addIssue({ code: 'custom', path: [index, field], message });
    };
    check(byNodeid, entry.nodeid, JSON.stringify([...content, entry.fileid ?? null]), 'nodeid', 'This file id is used twice with different values');
    check(byFileid, entry.fileid, JSON.stringify(content), 'fileid', 'A new version of this file is asked for twice with different values');
  });
}

/** POST /api/files. `count` must equal the number of extensions. */
export const registerFilesSchema = z
  .object({
    count: z.number().int().min(1).max(50),
    extensions: z.array(fileRegistrationSchema).min(1).max(50).superRefine(sameIdSameFile),
  })
  .refine((body) => body.count === body.extensions.length, { message: 'Must equal the number of extensions', path: ['count'] });
export type RegisterFilesInput = z.input<typeof registerFilesSchema>;
export type RegisterFiles = z.output<typeof registerFilesSchema>;

export const registeredFileSchema = z.object({
  nodeid: z.uuid(),
  fileid: z.uuid(),
  fileversion: z.number().int(),
  bucketid: z.string(),
  /** Signed URL for the PUT of the raw bytes; relative to this server's origin. */
  url: z.string(),
  /** When the URL stops working (epoch ms); then POST /api/files again with the same fileid. */
  expiresat: z.number().int(),
  status: z.enum(['pending', 'complete']),
  mimetype: z.string(),
});
export type RegisteredFile = z.infer<typeof registeredFileSchema>;

/** The spec's file reference inside attachments and other records. */
export const fileRefInputSchema = z.object({
  fileid: z.uuid(),
  fileversion: z.number().int().min(1).default(1),
  mimetype: z.string().max(200).optional(),
  bucketid: z.string().max(200).optional(),
});

/** Query of a signed file URL (PUT upload or GET download). */
export const signedUrlQuerySchema = z.object({ exp: queryInteger(0), sig: z.string().min(1).max(200) });
export const fileContentParamsSchema = z.object({ fileid: z.uuid(), fileversion: queryInteger(1) });

export const uploadResultSchema = z.object({ fileid: z.uuid(), fileversion: z.number().int(), status: z.literal('complete'), size: z.number().int(), mimetype: z.string() });

/** The message of an expired or forged signed URL (403). */
export const SIGNED_URL_EXPIRED_MESSAGE = 'Upload URL expired: request a new one with POST /api/files and the same fileid';

/** GET /api/files/{nodeid}/download: a signed download URL for one complete file of the caller's organisation. */
export const fileDownloadParamsSchema = z.object({ nodeid: z.uuid() });
export const fileDownloadSchema = z.object({
  nodeid: z.uuid(),
  fileid: z.uuid(),
  fileversion: z.number().int(),
  mimetype: z.string(),
  /** Signed GET URL, relative to this server's origin; the same within one hour (HTTP caches can keep it). */
  url: z.string(),
});
export type FileDownload = z.infer<typeof fileDownloadSchema>;
