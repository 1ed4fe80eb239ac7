/** Small read-backs the API tests use to prove what was (not) written. */
import { count, eq, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../../src/server/db/client';
import { syncClients, tenantVersions } from '../../../src/server/db/schema';

export async function rowCount(db: Db, table: PgTable, where?: SQL): Promise<number> {
  const [row] = await db.select({ n: count() }).from(table).where(where);
  return row!.n;
}

/** The tenant's current change version (0 before its first write). */
export async function tenantVersion(db: Db, legalentitynodeid: string): Promise<number> {
  const [row] = await db.select({ version: tenantVersions.version }).from(tenantVersions).where(eq(tenantVersions.legalentitynodeid, legalentitynodeid));
  return row?.version ?? 0;
}

/** The last mutation id the server applied for a device (undefined: the device is not registered). */
export async function lastMutationId(db: Db, clientid: string): Promise<number | undefined> {
  const [row] = await db.select({ last: syncClients.lastMutationId }).from(syncClients).where(eq(syncClients.clientid, clientid));
  return row?.last;
}
