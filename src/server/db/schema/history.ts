import { bigint, foreignKey, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { legalEntities, users } from './core';

/** One overwritten field: the value before the write and the value the write set. */
export interface FieldChange {
  old: unknown;
  new: unknown;
}

/**
 * What a write overwrote (docs/sync.md § Conflicts: field by field, last write wins in server commit
 * order, "the overwritten values stay in the record's history, so nothing is lost"). One row per write that
 * changed something; `kind` is the table name as in tombstones, `version` the tenant change version of the
 * write. Server-side only: not part of the change feed.
 */
export const recordHistory = pgTable('record_history', {
  id: uuid('id').primaryKey(),
  legalentitynodeid: uuid('legalentitynodeid').notNull(),
  kind: text('kind').notNull(),
  nodeid: uuid('nodeid').notNull(),
  version: bigint('version', { mode: 'number' }).notNull(),
  changes: jsonb('changes').$type<Record<string, FieldChange>>().notNull(),
  /** Context of the write, e.g. `{previousStatus}`: the status the device saw when it changed the status. */
  context: jsonb('context').$type<Record<string, unknown>>(),
  usernodeid: uuid('usernodeid').references(() => users.nodeid, { onDelete: 'set null' }),
  /** When the server wrote it. */
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  /**
   * When the user made the change on their device (X-Made-At, which every write of the app's outbox carries, read on
   * the server's clock; never later than `at`); null for a write without it. Shown beside `at`, never used to order
   * writes.
   */
  madeat: timestamp('madeat', { withTimezone: true }),
}, (t) => [
  index('record_history_node_idx').on(t.kind, t.nodeid, t.version),
  foreignKey({ name: 'record_history_le_fk', columns: [t.legalentitynodeid], foreignColumns: [legalEntities.nodeid] }).onDelete('cascade'),
]);
