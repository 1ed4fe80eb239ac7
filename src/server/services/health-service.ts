import { sql } from 'drizzle-orm';
import type { ServiceContext } from './service-context';

/** True when the database answers a trivial query. */
export async function databaseIsReachable(ctx: ServiceContext): Promise<boolean> {
  try {
    await ctx.db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
