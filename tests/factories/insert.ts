import type { PgInsertValue, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../src/server/db/client';

// What every inserter of the factories shares. Rows belong to a tenant; overrides replace the builder's defaults.

export type Tenant = { legalentitynodeid: string };
export type Overrides<T> = Partial<T> & Tenant;

/** Writes one built row and returns it as stored (with the schema's defaults). */
export async function insertRow<T extends PgTable>(db: Db, table: T, values: PgInsertValue<T>): Promise<T['$inferSelect']> {
  const [row] = (await db.insert(table).values(values).returning()) as T['$inferSelect'][];
  return row!;
}

/**
 * The parent a test named, or a new one in the same tenant: the inserters create the parents a test leaves out
 * (a machine's type, an area's plant, …).
 */
export async function parentOf(db: Db, given: string | undefined, tenant: Tenant, insertParent: (db: Db, tenant: Tenant) => Promise<{ nodeid: string }>): Promise<string> {
  return given ?? (await insertParent(db, { legalentitynodeid: tenant.legalentitynodeid })).nodeid;
}
