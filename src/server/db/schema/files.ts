import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ATTACHMENT_CATEGORIES, ATTACHMENT_TARGET_KINDS, FILE_STATUSES } from '../../../shared/domain/attachment';
import { tenantColumns, timestamps } from './columns';
import { checkIn, tenantConstraints } from './constraints';
import { users, type LocalizedText } from './core';

/**
 * A stored blob, registered by POST /files and completed by the PUT of its bytes (docs/sync.md § Files).
 * `fileid` is the spec's file identity; replacing a file's content registers the next `fileversion` of the same
 * fileid, so each version is its own row and bytes are never overwritten in place.
 */
export const files = pgTable('files', {
  ...tenantColumns(),
  fileid: uuid('fileid').notNull(),
  fileversion: integer('fileversion').notNull().default(1),
  /** Local store: 'local'; S3: the bucket name. */
  bucketid: text('bucketid').notNull(),
  /** Object key inside the bucket (local store: path below DATA_DIR/files). */
  storagekey: text('storagekey').notNull(),
  mimetype: text('mimetype').notNull(),
  /** File name extension as registered (`extensions[].extension`), without the dot. */
  extension: text('extension'),
  /** Declared size in bytes; the upload is complete only when this many bytes arrived. */
  size: bigint('size', { mode: 'number' }),
  /** Hex SHA-256 of the stored bytes, set on completion: the same bytes PUT again are accepted, others are not. */
  sha256: text('sha256'),
  status: text('status', { enum: FILE_STATUSES }).notNull().default('pending'),
  completedAt: timestamp('completed_at', { withTimezone: true }),
  createdbynodeid: uuid('createdbynodeid').references(() => users.nodeid, { onDelete: 'set null' }),
}, (t) => [
  ...tenantConstraints('files', t),
  uniqueIndex('files_fileid_version_uq').on(t.fileid, t.fileversion),
  uniqueIndex('files_storage_uq').on(t.bucketid, t.storagekey),
  // why: the cleanup job looks for pending files older than the upload window.
  index('files_pending_idx').on(t.createdAt).where(sql`${t.status} = 'pending'`),
  checkIn('files', 'status', t.status, FILE_STATUSES),
  check('files_size_ck', sql`${t.size} is null or ${t.size} >= 0`),
  check('files_fileversion_ck', sql`${t.fileversion} >= 1`),
]);

/**
 * The documentation tab's categories. Global reference data: the ids are a closed set the clients know; the
 * table carries their display names and order.
 */
export const attachmentCategories = pgTable('attachment_categories', {
  categoryid: text('categoryid', { enum: ATTACHMENT_CATEGORIES }).primaryKey(),
  name: jsonb('name').$type<LocalizedText>().notNull(),
  position: integer('position').notNull(),
  ...timestamps,
}, (t) => [checkIn('attachment_categories', 'categoryid', t.categoryid, ATTACHMENT_CATEGORIES)]);

/**
 * A titled file hung on any node (`isattachmentof`: machine, notification, solution step, FAQ, report, task).
 * No foreign key on the target because it can be any of several tables; `targetkind` names which, so an
 * owner's delete removes its attachments in the same transaction. Append-only in sync terms.
 */
export const attachments = pgTable('attachments', {
  ...tenantColumns(),
  title: text('title').notNull(),
  description: text('description'),
  /** The documentation category id; null for attachments outside the documentation tab. */
  specifier: text('specifier', { enum: ATTACHMENT_CATEGORIES }).references(() => attachmentCategories.categoryid, { onDelete: 'restrict' }),
  // why restrict: a file referenced by an attachment must not vanish under it; delete the attachment first.
  filenodeid: uuid('filenodeid').notNull().references(() => files.nodeid, { onDelete: 'restrict' }),
  isattachmentof: uuid('isattachmentof').notNull(),
  targetkind: text('targetkind', { enum: ATTACHMENT_TARGET_KINDS }).notNull(),
  authornodeid: uuid('authornodeid').references(() => users.nodeid, { onDelete: 'set null' }),
}, (t) => [
  ...tenantConstraints('attachments', t),
  index('attachments_target_idx').on(t.isattachmentof),
  index('attachments_file_idx').on(t.filenodeid),
  checkIn('attachments', 'targetkind', t.targetkind, ATTACHMENT_TARGET_KINDS),
]);
