import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../db/client';
import { mailOutbox } from '../db/schema';
import { writeTransaction, type ServiceContext } from './service-context';

/**
 * The outgoing mail queue (table mail_outbox, docs/data-model.md): producers write a mail in the transaction of
 * the change that causes it (`queueMail`), the worker (src/server/mail/worker.ts) claims due rows, sends them and
 * records the outcome. Claiming is a lease: a short transaction takes due rows with FOR UPDATE SKIP LOCKED, counts
 * the attempt and moves `nextattemptat` past the lease, so another instance (or this one's next tick) skips them
 * while the SMTP conversation runs outside any transaction — on PGlite an open transaction would hold the only
 * connection for as long as the mail server takes.
 */

export type OutboxMail = typeof mailOutbox.$inferSelect;

export interface QueuedMail {
  legalentitynodeid: string;
  recipient: string;
  subject: string;
  textbody: string;
  htmlbody: string;
  /** Unique: a producer that could run twice queues one mail (see the table). */
  dedupekey: string;
  /** The files (`files.nodeid`) the mail attaches, fixed now: the worker sends these and no others. */
  attachments?: string[];
}

/** A mail claimed longer than this without an outcome (its instance died mid-send) is due again. */
export const MAIL_LEASE_MS = 5 * 60 * 1000;
/** After this many failed attempts the mail is `failed` and no longer tried. */
export const MAIL_MAX_ATTEMPTS = 8;

/** The wait before attempt `attempts + 1`: 30 s doubling, at most 6 hours. */
export function mailRetryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 6 * 60 * 60 * 1000);
}

export async function queueMail(tx: Tx, mail: QueuedMail): Promise<string> {
  const id = uuidv7();
  await tx.insert(mailOutbox).values({ id, ...mail });
  return id;
}

/** Claims up to `limit` due mails for this run (see above). */
export async function claimDueMails(ctx: ServiceContext, options: { nowMs?: number; limit?: number } = {}): Promise<OutboxMail[]> {
  const now = new Date(options.nowMs ?? Date.now());
  return writeTransaction(ctx, 'mail.claim', async (tx) => {
    const due = await tx
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextattemptat, now)))
      .orderBy(asc(mailOutbox.nextattemptat))
      .limit(options.limit ?? 20)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(mailOutbox)
      .set({ attempts: sql`${mailOutbox.attempts} + 1`, nextattemptat: new Date(now.getTime() + MAIL_LEASE_MS) })
      .where(inArray(mailOutbox.id, due.map((row) => row.id)))
      .returning();
  });
}

export async function markMailSent(ctx: ServiceContext, id: string): Promise<void> {
  await ctx.db.update(mailOutbox).set({ status: 'sent', sentAt: new Date(), lasterror: null }).where(eq(mailOutbox.id, id));
}

/** A failed attempt: retried after the backoff, or given up (`failed`) after MAIL_MAX_ATTEMPTS. */
export async function markMailFailed(ctx: ServiceContext, mail: Pick<OutboxMail, 'id' | 'attempts'>, error: string, nowMs: number = Date.now()): Promise<'retry' | 'failed'> {
  const givenUp = mail.attempts >= MAIL_MAX_ATTEMPTS;
  await ctx.db
    .update(mailOutbox)
    .set(givenUp ? { status: 'failed', lasterror: error.slice(0, 2000) } : { lasterror: error.slice(0, 2000), nextattemptat: new Date(nowMs + mailRetryDelayMs(mail.attempts)) })
    .where(eq(mailOutbox.id, mail.id));
  return givenUp ? 'failed' : 'retry';
}

export async function mailById(ctx: ServiceContext, id: string): Promise<OutboxMail | undefined> {
  const [row] = await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return row;
}
