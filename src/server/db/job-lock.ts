import { sql } from 'drizzle-orm';
import type { Tx } from './client';

/**
 * Takes a transaction-level advisory lock if no other session holds it (released at commit or rollback): true
 * when this transaction may do the job's work, false when another instance is doing it right now. For periodic
 * jobs every instance runs (jobs/periodic.ts): only one does the work, so their deletes never wait on each other.
 */
export async function tryJobLock(tx: Tx, key: bigint): Promise<boolean> {
  const result = await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(${key.toString()}::bigint) as locked`);
  return (result as unknown as { rows: { locked: boolean }[] }).rows[0]?.locked === true;
}
