import { z } from 'zod';
import { epochMs, nodeidField, tenantRow } from './row';

/** Discussions: a notification has at most one room; messages are append-only. */

export const chatRoomRowSchema = tenantRow({
  name: z.string(),
  notificationnodeid: nodeidField.nullable(),
});
export type ChatRoomRow = z.infer<typeof chatRoomRowSchema>;

/** `sent` is the device's time; the order of the feed is the server's version. */
export const chatMessageRowSchema = tenantRow({
  chatroomnodeid: nodeidField,
  authornodeid: nodeidField.nullable(),
  body: z.string(),
  sent: epochMs,
});
export type ChatMessageRow = z.infer<typeof chatMessageRowSchema>;
