/** Small read-backs the API tests use to prove what was (not) written. */
import { count, eq, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../../src/server/db/client';
import { tenantVersions } from '../../../src/server/db/schema';

export async function rowCount(db: Db, table: PgTable, where?: SQL): Promise<number> {
  const [row] = await db.select({ n: count() }).from(table).where(where);
  return row!.n;
}

/** The tenant's current change version (0 before its first write). */
export async function tenantVersion(db: Db, legalentitynodeid: string): Promise<number> {
  const [row] = await db.select({ version: tenantVersions.version }).from(tenantVersions).where(eq(tenantVersions.legalentitynodeid, legalentitynodeid));
  return row?.version ?? 0;
}
