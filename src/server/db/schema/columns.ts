import { bigint, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Columns every tenant-owned, synced row carries: its UUID nodeid (clients create UUIDv7 ids offline), its
 * legal entity (tenant scope), times, and `version` — the tenant change version of its last write, which the
 * change feed orders pulls by (docs/sync.md § Change feed).
 */
export const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
};

export function tenantColumns() {
  return {
    nodeid: uuid('nodeid').primaryKey(),
    legalentitynodeid: uuid('legalentitynodeid').notNull(),
    ...timestamps,
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  };
}
