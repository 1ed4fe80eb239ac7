import { getTableColumns } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { ApplyContext, SyncRow } from '../../shared/mutations/mutation';

/**
 * Between database rows and the row shape of src/shared/rows (what the change feed sends, the device's mirror
 * stores and a write answers): times as epoch ms with null for unset, bookkeeping columns left out.
 */

type DbRow = Record<string, unknown>;

/** Columns that are internal bookkeeping, never sent to a device. */
const BOOKKEEPING = new Set(['createdAt', 'updatedAt', 'deletedAt']);

/** The database row in the row shape: dates as epoch ms, bookkeeping and `omit` left out. */
export function toRowShape(row: DbRow, omit: readonly string[] = []): SyncRow {
  const data: DbRow = {};
  for (const [key, value] of Object.entries(row)) {
    if (BOOKKEEPING.has(key) || omit.includes(key)) continue;
    data[key] = value instanceof Date ? value.getTime() : value;
  }
  return data as SyncRow;
}

/** Fields of the row shape (a declaration's `apply` result) as column values: epoch ms → Date for time columns. */
export function toColumnValues<T extends PgTable>(table: T, fields: Record<string, unknown>): Partial<T['$inferInsert']> {
  const columns = getTableColumns(table) as Record<string, { columnType: string }>;
  const values: DbRow = {};
  for (const [key, value] of Object.entries(fields)) {
    const column = columns[key];
    if (!column) continue;
    values[key] = column.columnType === 'PgTimestamp' && typeof value === 'number' ? new Date(value) : value;
  }
  return values as Partial<T['$inferInsert']>;
}

/** What a declaration's `apply` gets on the server: the server's clock and the caller. */
export function applyContext(actor: { usernodeid: string }): ApplyContext {
  return { now: Date.now(), usernodeid: actor.usernodeid };
}
