import { asc, eq } from 'drizzle-orm';
import type { Profile } from '../../shared/api/auth';
import { profiles } from '../db/schema';
import type { Actor, ServiceContext } from './service-context';

/** GET /api/profiles: the permission profiles of the caller's organisation, as the session carries them. */
export async function listProfiles(ctx: ServiceContext, actor: Actor): Promise<Profile[]> {
  const rows = await ctx.db.select().from(profiles).where(eq(profiles.legalentitynodeid, actor.legalentitynodeid)).orderBy(asc(profiles.profileid));
  return rows.map((p) => ({ id: p.profileid, nodeid: p.nodeid, name: p.name, features: p.features }));
}
