import { index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { FEEDBACK_SUBJECTS } from '../../../shared/domain/feedback';
import { tenantColumns, timestamps } from './columns';
import { checkIn, tenantConstraints } from './constraints';
import { users, type LocalizedText } from './core';

// Help and feedback (part 2 §2.12): GET /support serves the global content, POST /feedback stores a message.

export const supportFaqs = pgTable('support_faqs', {
  nodeid: uuid('nodeid').primaryKey(),
  question: jsonb('question').$type<LocalizedText>().notNull(),
  answer: jsonb('answer').$type<LocalizedText>().notNull(),
  position: integer('position').notNull(),
  ...timestamps,
});

export const supportDocumentCategories = pgTable('support_document_categories', {
  nodeid: uuid('nodeid').primaryKey(),
  name: jsonb('name').$type<LocalizedText>().notNull(),
  position: integer('position').notNull(),
  ...timestamps,
});

/** A help document; `storagekey` is the spec's s3Path, opened from the storage host. */
export const supportDocuments = pgTable('support_documents', {
  nodeid: uuid('nodeid').primaryKey(),
  categorynodeid: uuid('categorynodeid').notNull().references(() => supportDocumentCategories.nodeid, { onDelete: 'cascade' }),
  title: jsonb('title').$type<LocalizedText>().notNull(),
  mimetype: text('mimetype').notNull(),
  storagekey: text('storagekey').notNull(),
  position: integer('position').notNull(),
  ...timestamps,
}, (t) => [index('support_documents_category_idx').on(t.categorynodeid, t.position)]);

/** A message from the feedback form. Kept per tenant so support can answer the organisation. */
export const feedback = pgTable('feedback', {
  ...tenantColumns(),
  subject: text('subject', { enum: FEEDBACK_SUBJECTS }).notNull(),
  body: text('body').notNull(),
  usernodeid: uuid('usernodeid').references(() => users.nodeid, { onDelete: 'set null' }),
}, (t) => [...tenantConstraints('feedback', t), checkIn('feedback', 'subject', t.subject, FEEDBACK_SUBJECTS)]);
