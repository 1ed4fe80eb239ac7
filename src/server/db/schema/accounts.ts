import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { checkIn } from './constraints';
import { legalEntities, users } from './core';

// Server-side bookkeeping that is not synced to devices: one-time account links and the outgoing mail queue.

/** What a one-time link does: confirm a trial sign-up, let an invited user set a password, or reset it. */
export const ACCOUNT_TOKEN_PURPOSES = ['activation', 'setpassword', 'passwordreset'] as const;

/**
 * One-time tokens behind /set-password/{token} and the reset and activation e-mails. Stored hashed like
 * refresh tokens; `usedAt` makes a second use fail.
 */
export const accountTokens = pgTable('account_tokens', {
  id: uuid('id').primaryKey(),
  usernodeid: uuid('usernodeid').notNull().references(() => users.nodeid, { onDelete: 'cascade' }),
  purpose: text('purpose', { enum: ACCOUNT_TOKEN_PURPOSES }).notNull(),
  tokenHash: text('token_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('account_tokens_hash_uq').on(t.tokenHash),
  index('account_tokens_user_idx').on(t.usernodeid),
  checkIn('account_tokens', 'purpose', t.purpose, ACCOUNT_TOKEN_PURPOSES),
]);

export const MAIL_STATUSES = ['pending', 'sent', 'failed'] as const;

/**
 * Outgoing e-mail (shares, reminders, account links), written in the same transaction as the change that
 * causes it and sent by a worker that claims rows with FOR UPDATE SKIP LOCKED, so several server instances
 * never send one mail twice. `dedupekey` makes producers idempotent too: a reminder for one task occurrence
 * and user ('reminder:<task>:<due>:<user>') can only be queued once, whichever instance gets there first.
 */
export const mailOutbox = pgTable('mail_outbox', {
  id: uuid('id').primaryKey(),
  legalentitynodeid: uuid('legalentitynodeid').references(() => legalEntities.nodeid, { onDelete: 'cascade' }),
  dedupekey: text('dedupekey'),
  recipient: text('recipient').notNull(),
  subject: text('subject').notNull(),
  textbody: text('textbody').notNull(),
  htmlbody: text('htmlbody'),
  /**
   * The files the mail attaches (`files.nodeid`, each one stored version), chosen when it was queued: a share's text
   * names what is attached, so the worker sends exactly these — never a photo added later. Null: none.
   */
  attachments: jsonb('attachments').$type<string[]>(),
  status: text('status', { enum: MAIL_STATUSES }).notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  nextattemptat: timestamp('nextattemptat', { withTimezone: true }).notNull().defaultNow(),
  lasterror: text('lasterror'),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('mail_outbox_dedupe_uq').on(t.dedupekey),
  index('mail_outbox_due_idx').on(t.nextattemptat).where(sql`${t.status} = 'pending'`),
  checkIn('mail_outbox', 'status', t.status, MAIL_STATUSES),
]);
