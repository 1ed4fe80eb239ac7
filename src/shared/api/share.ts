import { z } from 'zod';
import { isShareEmail, SHARE_EMAIL_ERROR } from '../domain/share';
import { langField } from './fields';

/**
 * POST /api/notifications/share (spec part 1 §3 "Share: nodeid, receiver, name", §7): the notification, the
 * recipient's e-mail (§5 rule, `domain/share.ts`) and `name`, the notification's title as the sharing device shows
 * it. The mail itself is built from the server's record (its title, not `name`), so a stale device cannot put other
 * text into it; `name` only names the share in the device's sync panel.
 */
export const shareNotificationSchema = z.object({
  nodeid: z.uuid(),
  receiver: z
    .string({ error: SHARE_EMAIL_ERROR })
    .trim()
    .refine(isShareEmail, SHARE_EMAIL_ERROR),
  name: z.string({ error: 'Must be a text' }).max(500, 'Must be at most 500 characters').optional(),
  /** The mail's language (its labels); default de as every save (§9). */
  lang: langField,
});
export type ShareNotificationInput = z.input<typeof shareNotificationSchema>;
export type ShareNotification = z.output<typeof shareNotificationSchema>;
