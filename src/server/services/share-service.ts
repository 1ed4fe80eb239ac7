import { and, asc, eq, gte, inArray, min, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { ShareNotification } from '../../shared/api/share';
import { readableAttachmentTargets } from '../../shared/api/sync';
import type { PermissionSubject } from '../../shared/permissions';
import type { NotificationRow } from '../../shared/rows/notifications';
import type { Db, Tx } from '../db/client';
import { attachments, equipment, files, mailOutbox, notifications, users } from '../db/schema';
import { HttpError, notFound } from '../http-errors';
import { buildShareMail, type SharedPhoto } from '../mail/share-mail';
import type { MailAttachment } from '../mail/transport';
import type { FileStorage } from '../storage/file-storage';
import { queueMail } from './mail-outbox-service';
import { toRowShape } from './rows';
import { writeTransaction, type Actor, type ServiceContext } from './service-context';
import { ofTenant } from './structure-common';

/**
 * "Meldung teilen" (spec part 1 §2.2, §5, §7): POST /notifications/share queues an e-mail with the notification's
 * summary in the mail outbox, in the write's transaction (so a refused or rolled-back share sends nothing, and the
 * mutation log's replay of a resent share answers without queueing it again). The worker (mail/worker.ts) sends it
 * with the photos attached; photos over SHARE_ATTACHMENT_MAX_BYTES (or past the total) are named with the link.
 */

/** One photo larger than this goes as a link, not an attachment. */
export const SHARE_ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;
/** All attachments of one mail together: what common mail servers accept with room for the encoding. */
export const SHARE_ATTACHMENTS_TOTAL_BYTES = 15 * 1024 * 1024;
export const SHARE_RATE_WINDOW_MS = 60 * 60 * 1000;
const NOT_FOUND = 'Notification not found';

/**
 * The dedupe key of a share's mail: who shared (the rate limit counts by it) and what (the worker's photos). A
 * sharer who may not read the notification's attachments sends its text only: their key names no notification
 * (`text:` in its place), so the worker attaches nothing.
 */
const shareKeyPrefix = (usernodeid: string) => `share:${usernodeid}:`;
const shareKey = (usernodeid: string, notificationnodeid: string, withPhotos: boolean) =>
  `${shareKeyPrefix(usernodeid)}${withPhotos ? notificationnodeid : `text:${notificationnodeid}`}:${uuidv7()}`;

/** The notification a share mail is about, from its dedupe key; undefined for any other mail. */
export function sharedNotificationOf(dedupekey: string | null): string | undefined {
  const match = /^share:[0-9a-f-]{36}:([0-9a-f-]{36}):/.exec(dedupekey ?? '');
  return match?.[1];
}

export interface SharePhoto extends SharedPhoto {
  filenodeid: string;
  storagekey: string;
  mimetype: string;
  extension: string | null;
}

/** The notification's photos (its image attachments with complete bytes), oldest first, each attached or linked. */
async function sharedPhotos(db: Db | Tx, legalentitynodeid: string, notificationnodeid: string, only?: string[]): Promise<SharePhoto[]> {
  const rows = await db
    .select({ title: attachments.title, filenodeid: files.nodeid, size: files.size, storagekey: files.storagekey, mimetype: files.mimetype, extension: files.extension })
    .from(attachments)
    .innerJoin(files, eq(files.nodeid, attachments.filenodeid))
    .where(
      and(
        eq(attachments.legalentitynodeid, legalentitynodeid),
        eq(attachments.isattachmentof, notificationnodeid),
        eq(attachments.targetkind, 'notification'),
        eq(files.status, 'complete'),
        sql`${files.mimetype} like 'image/%'`,
        only ? inArray(files.nodeid, only) : undefined,
      ),
    )
    .orderBy(asc(attachments.createdAt));
  let total = 0;
  return rows.map((row) => {
    const size = row.size ?? null;
    const fits = size !== null && size <= SHARE_ATTACHMENT_MAX_BYTES && total + size <= SHARE_ATTACHMENTS_TOTAL_BYTES;
    if (fits) total += size;
    return { ...row, size, attached: fits };
  });
}

function tooManyShares(limit: number, retryAfterSeconds: number): HttpError {
  return new HttpError(429, `Too many shares: at most ${limit} e-mails per hour, retry in ${retryAfterSeconds} seconds`, undefined, { 'retry-after': String(retryAfterSeconds) });
}

export interface ShareSettings {
  publicUrl: string;
  ratePerHour: number;
  nowMs?: number;
}

/**
 * Queues the share's mail and answers the notification's row as it stands (the share changes nothing on it).
 * Another tenant's or an unknown notification is a 404; more than `ratePerHour` shares of the caller within the
 * last hour a 429 (its shares are counted under a lock on the caller's row, so parallel requests cannot pass it).
 */
export async function shareNotification(ctx: ServiceContext, actor: Actor & PermissionSubject, input: ShareNotification, settings: ShareSettings): Promise<NotificationRow> {
  // why: the photos are the notification's attachments; a sharer who may not open them must not mail them either
  // (the rule of their downloads, readableAttachmentTargets). The text goes as for anyone with notification read.
  const withPhotos = readableAttachmentTargets(actor).includes('notification');
  const now = settings.nowMs ?? Date.now();
  return writeTransaction(ctx, 'notification.share', async (tx) => {
    const [sharer] = await tx
      .select({ givenname: users.givenname, surname: users.surname, email: users.email })
      .from(users)
      .where(ofTenant(users, actor, actor.usernodeid))
      .for('no key update');
    if (!sharer) throw notFound('User not found');
    const [found] = await tx
      .select({ n: notifications, machineName: equipment.name, equipmentid: equipment.equipmentid })
      .from(notifications)
      .innerJoin(equipment, eq(equipment.nodeid, notifications.equipmentnodeid))
      .where(ofTenant(notifications, actor, input.nodeid));
    if (!found) throw notFound(NOT_FOUND);

    const since = new Date(now - SHARE_RATE_WINDOW_MS);
    const [window] = await tx
      .select({ n: sql<number>`count(*)::int`, oldest: min(mailOutbox.createdAt) })
      .from(mailOutbox)
      .where(and(sql`${mailOutbox.dedupekey} like ${`${shareKeyPrefix(actor.usernodeid)}%`}`, gte(mailOutbox.createdAt, since)));
    if ((window?.n ?? 0) >= settings.ratePerHour) {
      const oldest = window?.oldest ? new Date(window.oldest).getTime() : now;
      throw tooManyShares(settings.ratePerHour, Math.max(1, Math.ceil((oldest + SHARE_RATE_WINDOW_MS - now) / 1000)));
    }

    const n = found.n;
    const photos = withPhotos ? await sharedPhotos(tx, actor.legalentitynodeid, n.nodeid) : [];
    const mail = buildShareMail({
      lang: input.lang,
      publicUrl: settings.publicUrl,
      notification: { nodeid: n.nodeid, type: n.type, status: n.status, title: n.title, description: n.description, errorcode: n.errorcode, created: n.created },
      machine: { name: found.machineName, equipmentid: found.equipmentid },
      sharer,
      photos,
    });
    await queueMail(tx, {
      legalentitynodeid: actor.legalentitynodeid,
      recipient: input.receiver,
      subject: mail.subject,
      textbody: mail.text,
      htmlbody: mail.html,
      dedupekey: shareKey(actor.usernodeid, n.nodeid, withPhotos),
      // why: the text just written names what is attached; the worker may send hours later (SMTP retries).
      attachments: photos.filter((photo) => photo.attached).map((photo) => photo.filenodeid),
    });
    return toRowShape(n) as NotificationRow;
  });
}

/**
 * The attachments of a share mail at send time: exactly the file versions the mail recorded as attached when it was
 * queued (`mail_outbox.attachments`, which its text lists), read from file storage — a photo added to the
 * notification since is not sent, whatever the SMTP retries' delay. A recorded photo removed since (its attachment
 * deleted, its bytes gone) is left out; the mail still names it. A share mail queued before the column existed
 * (null) attaches the photos as they stand, as it did.
 */
export async function shareMailAttachments(
  ctx: ServiceContext,
  storage: FileStorage,
  mail: { legalentitynodeid: string | null; dedupekey: string | null; attachments: string[] | null },
): Promise<MailAttachment[]> {
  const { legalentitynodeid, dedupekey } = mail;
  const notificationnodeid = sharedNotificationOf(dedupekey);
  if (!notificationnodeid || !legalentitynodeid) return [];
  if (mail.attachments !== null && mail.attachments.length === 0) return [];
  const [still] = await ctx.db.select({ nodeid: notifications.nodeid }).from(notifications).where(and(eq(notifications.nodeid, notificationnodeid), eq(notifications.legalentitynodeid, legalentitynodeid)));
  if (!still) return [];
  const recorded = mail.attachments ?? undefined;
  const result: MailAttachment[] = [];
  for (const photo of await sharedPhotos(ctx.db, legalentitynodeid, notificationnodeid, recorded)) {
    // The recorded set is what the text says is attached; only an old mail's (none recorded) is decided now.
    if (!recorded && !photo.attached) continue;
    const bytes = await storage.get(photo.storagekey);
    if (!bytes) continue;
    const extension = photo.extension ? `.${photo.extension}` : '';
    const filename = photo.title.toLowerCase().endsWith(extension.toLowerCase()) ? photo.title : `${photo.title}${extension}`;
    result.push({ filename, content: Buffer.from(bytes), contentType: photo.mimetype });
  }
  return result;
}

