import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { AclUser } from '../../shared/api/structure';
import type { User } from '../../shared/api/users';
import { users } from '../db/schema';
import { notFound } from '../http-errors';
import type { Actor, ServiceContext } from './service-context';
import { normalizeEmail } from '../../shared/validation';

/** GET /api/users/acl/{clientid}: every (not deleted) user of the caller's organisation, by name. */
export async function listAclUsers(ctx: ServiceContext, actor: Actor): Promise<AclUser[]> {
  const rows = await ctx.db
    .select({ userid: users.userid, usernodeid: users.nodeid, givenname: users.givenname, surname: users.surname, active: users.active, profileid: users.profileid })
    .from(users)
    .where(and(eq(users.legalentitynodeid, actor.legalentitynodeid), isNull(users.deletedAt)))
    .orderBy(asc(users.surname), asc(users.givenname), asc(users.nodeid));
  return rows.map(({ profileid, ...user }) => ({ ...user, userinfo: { profileid } }));
}

export async function getUser(ctx: ServiceContext, actor: Actor, nodeid: string): Promise<User> {
  const [row] = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.nodeid, nodeid), eq(users.legalentitynodeid, actor.legalentitynodeid), isNull(users.deletedAt)));
  if (!row) throw notFound('User not found');
  return {
    nodeid: row.nodeid,
    legalentitynodeid: row.legalentitynodeid,
    userid: row.userid,
    givenname: row.givenname,
    surname: row.surname,
    email: row.email,
    mobilephone: row.mobilephone,
    landlinephone: row.landlinephone,
    image: row.image ?? null,
    department: row.department,
    costcenter: row.costcenter,
    personnelnumber: row.personnelnumber,
    professionaltraining: row.professionaltraining ?? null,
    qualification: row.qualification,
    profileid: row.profileid,
    admin: row.admin,
    active: row.active,
    lang: row.lang,
    version: row.version,
  };
}

/** Which of these e-mail addresses belong to an active account (the start banner lists only working demo logins). */
export async function activeAccountEmails(ctx: ServiceContext, emails: readonly string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const wanted = emails.map(normalizeEmail);
  const rows = await ctx.db
    .select({ email: sql<string>`lower(${users.email})` })
    .from(users)
    .where(and(inArray(sql`lower(${users.email})`, wanted), eq(users.active, true), isNull(users.deletedAt)));
  return new Set(rows.map((r) => r.email));
}
