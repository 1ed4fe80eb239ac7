import { sql, type SQL } from 'drizzle-orm';
import { check, foreignKey, index, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { legalEntities } from './core';

interface TenantColumns {
  legalentitynodeid: AnyPgColumn;
  version: AnyPgColumn;
}

/**
 * What every tenant-owned, synced table needs besides its columns: the change-feed index (pulls read
 * `legalentitynodeid = $1 and version > $2 order by version`) and the tenant foreign key. Deleting a legal
 * entity deletes everything it owns, so offboarding a customer is one statement.
 */
export function tenantConstraints(table: string, t: TenantColumns) {
  return [
    index(`${table}_le_version_idx`).on(t.legalentitynodeid, t.version),
    foreignKey({ name: `${table}_le_fk`, columns: [t.legalentitynodeid], foreignColumns: [legalEntities.nodeid] }).onDelete('cascade'),
  ];
}

/**
 * `column in (…)` for a check constraint over a closed value set from src/shared. The values are inlined
 * because a constraint cannot take parameters; they come from our own `as const` arrays, never from input.
 */
export function inValues(column: AnyPgColumn, values: readonly (string | number)[]): SQL {
  const list = values.map((v) => (typeof v === 'number' ? String(v) : `'${v.replaceAll("'", "''")}'`)).join(', ');
  return sql`${column} in (${sql.raw(list)})`;
}

/** A check named after its table and column that keeps a column inside a closed value set. */
export function checkIn(table: string, columnName: string, column: AnyPgColumn, values: readonly (string | number)[]) {
  return check(`${table}_${columnName}_ck`, inValues(column, values));
}
