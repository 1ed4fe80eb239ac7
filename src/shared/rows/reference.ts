import { z } from 'zod';
import { ATTACHMENT_CATEGORIES } from '../domain/attachment';
import { localizedText, nodeidField } from './row';

/**
 * Reference data every screen needs. Units and attachment categories are the same for every tenant (no tenant,
 * no version: they come with every pull from 0, at version 0); users are the tenant's people, as much of them as
 * another user's screen shows.
 */

/** A unit of measure (cost types, counter types): `displayName` under its column name, as the feed sends it. */
export const unitRowSchema = z.object({
  nodeid: nodeidField,
  unitid: z.string(),
  namespace: z.string(),
  symbol: z.string(),
  displayName: z.object({ plural: localizedText, singular: localizedText.optional() }),
});
export type UnitRow = z.infer<typeof unitRowSchema>;

/** A documentation category; its nodeid is the category id. */
export const attachmentCategoryRowSchema = z.object({
  nodeid: z.enum(ATTACHMENT_CATEGORIES),
  categoryid: z.enum(ATTACHMENT_CATEGORIES),
  name: localizedText,
  position: z.number().int(),
});
export type AttachmentCategoryRow = z.infer<typeof attachmentCategoryRowSchema>;

/** A person as other users see them: never password hashes, history, 2FA secrets or contact details beyond e-mail (and that not to everyone). */
export const userRowSchema = z.object({
  nodeid: nodeidField,
  givenname: z.string(),
  surname: z.string(),
  /**
   * '' on a colleague's row for a caller without `user` read (`readsOtherUsersDetails`, docs/sync.md § Pull by
   * permission); required all the same, so every caller's rows, and older apps' mirrors, keep one shape.
   */
  email: z.string(),
  active: z.boolean(),
  profileid: z.string(),
  image: z
    .object({ fileid: z.string(), url: z.string().optional(), mimetype: z.string().optional(), bucketid: z.string().optional(), fileversion: z.number().int().optional() })
    .nullable(),
});
export type UserRow = z.infer<typeof userRowSchema>;
