import { and, asc, eq, gt, isNotNull, isNull, lt, ne, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { LoginRequest, Plan, RefreshResponse, Session } from '../../shared/api/auth';
import { ACCOUNT_INACTIVE_MESSAGE, LOGIN_FAILED_MESSAGE } from '../../shared/api/errors';
import { parseDuration } from '../../shared/domain/billing';
import { addDuration } from '../../shared/domain/trial';
import { normalizeEmail } from '../../shared/validation';
import type { AuthContext } from '../auth/auth-context';
import { verifyAgainstDummy, verifyPassword } from '../auth/password';
import { generateRefreshToken, hashDeviceSecret, hashRefreshToken, sameHash, type AccessClaims, type AccessTokenSigner } from '../auth/tokens';
import type { Db, Tx } from '../db/client';
import { tryJobLock } from '../db/job-lock';
import { billingInfos, legalEntities, plans, profiles, refreshTokens, subscriptions, tenantVersions, users } from '../db/schema';
import { HttpError, tooManyRequests, unauthorized } from '../http-errors';
import { preparedPerDatabase } from './prepared';
import { writeTransaction, type Actor, type ServiceContext } from './service-context';

/** The spec's `appid` of the session payload: which app the tokens were issued for. */
export const APP_ID = 'anlagenbuch';

export interface TokenSettings {
  signer: AccessTokenSigner;
  refreshTokenTtlDays: number;
}

type UserRow = typeof users.$inferSelect;
type LegalEntityRow = typeof legalEntities.$inferSelect;

const DAY_MS = 24 * 60 * 60 * 1000;
const REFRESH_FAILED_MESSAGE = 'Refresh token invalid or expired';

/**
 * How long after a rotation the previous token may be presented once more. On a hall's flaky Wi-Fi the answer
 * to a refresh can be lost after the server committed it; the device then still holds only the old token.
 * Without this window that device would be treated as a thief and logged out with unsynced work queued
 * (docs/sync.md, scenario 7). Auth0 calls the same idea the "reuse interval".
 */
export const REFRESH_REUSE_GRACE_MS = 60_000;

/** A device as the server keeps it on a refresh-token family: its client id and the hash of its secret. */
interface DeviceBinding {
  clientId: string;
  secretHash: string;
}

/** The device credentials of a login or refresh body, when both parts were sent. */
export function deviceBindingOf(input: { deviceid?: string | undefined; devicesecret?: string | undefined }): DeviceBinding | undefined {
  if (!input.deviceid || !input.devicesecret) return undefined;
  return { clientId: input.deviceid, secretHash: hashDeviceSecret(input.devicesecret) };
}

export interface LoginLimit {
  /** Seconds the account is still limited for (too many failed logins from anywhere), 0 when it is not. */
  accountBlockedForSeconds: number;
}

/**
 * POST /api/auth/login. Unknown e-mail and wrong password answer the same 401 after the same argon2 work; the
 * inactive check comes after the password check, so it does not reveal which accounts exist either.
 * While the account is limited (`limit`), only a device that has signed this user in before (its client id AND
 * secret match one of the user's refresh-token families) gets its password checked; any other caller gets 429
 * before the check, so guessing from elsewhere neither continues nor locks the real user's tablet out.
 */
export async function login(ctx: ServiceContext, settings: TokenSettings, input: LoginRequest, limit: LoginLimit = { accountBlockedForSeconds: 0 }): Promise<Session> {
  const device = deviceBindingOf(input);
  const [found] = await ctx.db
    .select({ user: users, legalEntity: legalEntities })
    .from(users)
    .innerJoin(legalEntities, eq(legalEntities.nodeid, users.legalentitynodeid))
    .where(and(eq(sql`lower(${users.email})`, normalizeEmail(input.email)), isNull(users.deletedAt)))
    .limit(1);
  if (limit.accountBlockedForSeconds > 0 && !(found && device && (await isKnownDevice(ctx.db, found.user.nodeid, device)))) {
    throw tooManyRequests(limit.accountBlockedForSeconds);
  }
  const passwordOk = found?.user.passwordHash ? await verifyPassword(found.user.passwordHash, input.password) : await verifyAgainstDummy(input.password);
  if (!found || !passwordOk) throw new HttpError(401, LOGIN_FAILED_MESSAGE);
  if (!found.user.active) throw new HttpError(403, ACCOUNT_INACTIVE_MESSAGE);

  const { user, legalEntity } = found;
  const tokens = await writeTransaction(ctx, 'auth.login', (tx) => issueTokens(tx, settings, user, randomUUID(), device));
  return buildSession(ctx.db, user, legalEntity, tokens);
}

/** True when `device` (client id and secret) has signed `usernodeid` in before: a family of that user is bound to it. */
async function isKnownDevice(db: Db, usernodeid: string, device: DeviceBinding): Promise<boolean> {
  const rows = await db
    .select({ secretHash: refreshTokens.deviceSecretHash })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.usernodeid, usernodeid), eq(refreshTokens.deviceClientId, device.clientId)));
  return rows.some((row) => row.secretHash !== null && sameHash(row.secretHash, device.secretHash));
}

type RefreshOutcome = { kind: 'ok'; tokens: RefreshResponse } | { kind: 'rejected' };

export interface RefreshInput {
  token: string;
  deviceid?: string | undefined;
  devicesecret?: string | undefined;
}

/**
 * POST /api/object/refresh-token; the rules are docs/api.md § Authentication, step 3. In short: only the device
 * the family is bound to may refresh; its current token rotates; the token rotated just before may be presented
 * ONCE more by that device within REFRESH_REUSE_GRACE_MS (its answer was lost), which retires the unused
 * successor and answers a new pair. Everything else is reuse: the whole family is revoked and the answer is 401.
 * The row lock (FOR UPDATE) serialises concurrent refreshes of one token, so of any number of them at most one
 * rotation and one retry succeed. The revoke commits even though the answer is a 401, which is why the outcome
 * is returned from the transaction instead of thrown inside it.
 */
export async function refresh(ctx: ServiceContext, settings: TokenSettings, input: RefreshInput): Promise<RefreshResponse> {
  const device = deviceBindingOf(input);
  const outcome = await writeTransaction(ctx, 'auth.refresh', async (tx): Promise<RefreshOutcome> => {
    const [row] = await tx.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hashRefreshToken(input.token))).for('update');
    if (!row) return { kind: 'rejected' };
    const reuse = async (): Promise<RefreshOutcome> => {
      await revokeFamily(tx, row.familyId);
      return { kind: 'rejected' };
    };
    // A retired or revoked token comes back only from a second holder (the device itself holds the newest one).
    if (row.revokedAt) return reuse();
    const bound = boundDevice(row);
    if (bound && !(device && bound.clientId === device.clientId && sameHash(bound.secretHash, device.secretHash))) return reuse();
    if (row.expiresAt.getTime() <= Date.now()) return { kind: 'rejected' };
    const [user] = await tx.select().from(users).where(eq(users.nodeid, row.usernodeid));
    if (!user || !user.active || user.deletedAt) return reuse();

    if (row.rotatedAt) {
      const retry = bound !== undefined && row.retriedAt === null && Date.now() - row.rotatedAt.getTime() <= REFRESH_REUSE_GRACE_MS && !(await successorWasUsed(tx, row));
      if (!retry) return reuse();
      await revokeLiveTokens(tx, row.familyId);
      await tx.update(refreshTokens).set({ retriedAt: new Date() }).where(eq(refreshTokens.id, row.id));
    } else {
      await tx.update(refreshTokens).set({ rotatedAt: new Date() }).where(eq(refreshTokens.id, row.id));
    }
    // An unbound family (a login without device credentials) is bound to the first device that refreshes it.
    const binding = bound ?? device;
    if (!bound && binding) {
      await tx.update(refreshTokens).set({ deviceClientId: binding.clientId, deviceSecretHash: binding.secretHash }).where(eq(refreshTokens.familyId, row.familyId));
    }
    return { kind: 'ok', tokens: await issueTokens(tx, settings, user, row.familyId, binding) };
  });
  if (outcome.kind === 'rejected') throw unauthorized(REFRESH_FAILED_MESSAGE);
  return outcome.tokens;
}

function boundDevice(row: typeof refreshTokens.$inferSelect): DeviceBinding | undefined {
  return row.deviceClientId && row.deviceSecretHash ? { clientId: row.deviceClientId, secretHash: row.deviceSecretHash } : undefined;
}

/**
 * POST /api/auth/logout. Ends the session of the access token used for the call (its `sid`, which the auth
 * query found alive and the caller's), so a logout without a body ends it too, and revokes the family of the
 * given refresh token when it belongs to the caller; a token that is unknown or someone else's is ignored (the
 * answer is the same, so it reveals nothing). Revoking a family ends its access tokens at once: the auth query
 * refuses a token whose family has no live row left (authContextQuery).
 */
export async function logout(ctx: ServiceContext, caller: Actor & { sid: string | null }, token: string | undefined): Promise<void> {
  if (!token && !caller.sid) return;
  await writeTransaction(ctx, 'auth.logout', async (tx) => {
    const families = new Set<string>();
    if (caller.sid) families.add(caller.sid);
    if (token) {
      const [row] = await tx
        .select({ familyId: refreshTokens.familyId })
        .from(refreshTokens)
        .where(and(eq(refreshTokens.tokenHash, hashRefreshToken(token)), eq(refreshTokens.usernodeid, caller.usernodeid)));
      if (row) families.add(row.familyId);
    }
    for (const familyId of families) await revokeFamily(tx, familyId);
  });
}

/**
 * The caller of an authenticated request: user, profile and organisation in one query over primary keys and
 * unique indexes. Run on every request rather than cached, so a deactivation or a profile change applies to
 * the next request; undefined when the user is gone, inactive or has moved tenants, or when the token's session
 * (`sid`, its refresh-token family) has ended. The same statement reads the tenant's change state
 * (AuthContext.tenantstate), which answers built from the tenant's rows are kept by (routes/versioned-answer.ts).
 */
export async function loadAuthContext(db: Db, claims: AccessClaims): Promise<AuthContext | undefined> {
  const sid = claims.sid ?? null;
  const [row] = await authContextQuery(db).execute({ usernodeid: claims.usernodeid, legalentitynodeid: claims.legalentitynodeid, sid });
  if (!row) return undefined;
  const { version, versionxmin, ...caller } = row;
  return { ...caller, features: caller.features ?? {}, tenantstate: `${version ?? 0}:${versionxmin ?? ''}`, sid };
}

/** The query of loadAuthContext, prepared once (services/prepared.ts): it runs on every authenticated request. */
const authContextQuery = preparedPerDatabase((db: Db) =>
  db
    .select({
      usernodeid: users.nodeid,
      legalentitynodeid: users.legalentitynodeid,
      userid: users.userid,
      clientid: legalEntities.clientid,
      admin: users.admin,
      superuser: users.superuser,
      profileid: users.profileid,
      features: profiles.features,
      version: tenantVersions.version,
      // why the row's xmin beside the version: it changes with every write of the row, also one that takes the
      // version back (a restore or `db:seed --reset` while a server runs), so the pair never repeats.
      versionxmin: sql<string | null>`${tenantVersions}.xmin::text`,
    })
    .from(users)
    .innerJoin(legalEntities, eq(legalEntities.nodeid, users.legalentitynodeid))
    .leftJoin(profiles, and(eq(profiles.legalentitynodeid, users.legalentitynodeid), eq(profiles.profileid, users.profileid)))
    .leftJoin(tenantVersions, eq(tenantVersions.legalentitynodeid, users.legalentitynodeid))
    .where(
      and(
        eq(users.nodeid, sql.placeholder('usernodeid')),
        eq(users.legalentitynodeid, sql.placeholder('legalentitynodeid')),
        eq(users.active, true),
        isNull(users.deletedAt),
        // The session is alive while its family has a row not revoked: revokeFamily (logout, reuse, a deactivated
        // user's refresh) revokes every row, while a grace retry retires only the unused successor and leaves the
        // family alive — so "no revoked row" would be the wrong test. Deleted rows count as ended, never as alive.
        // In this same statement (no second round trip): on PostgreSQL an InitPlan, one index scan on
        // refresh_tokens_family_idx that stops at the first live row (a revoked family reads all its rows, for the
        // at most ACCESS_TOKEN_TTL its tokens are still presented). The usernodeid makes the family the caller's,
        // which logout relies on; a parameter rather than users.nodeid, because the correlated form was planned as
        // a hashed subplan reading every row of the family. sid is a parameter too (the statement is prepared
        // once): null for a token from before sids, which only its short exp bounds (auth/tokens.ts).
        sql`(${sql.placeholder('sid')}::uuid is null or exists (select 1 from ${refreshTokens} where ${refreshTokens.familyId} = ${sql.placeholder('sid')}::uuid and ${refreshTokens.usernodeid} = ${sql.placeholder('usernodeid')} and ${refreshTokens.revokedAt} is null))`,
      ),
    )
    .prepare('auth_context'),
);

async function issueTokens(tx: Tx, settings: TokenSettings, user: UserRow, familyId: string, device: DeviceBinding | undefined): Promise<RefreshResponse> {
  const refreshToken = generateRefreshToken();
  await tx.insert(refreshTokens).values({
    id: uuidv7(),
    familyId,
    usernodeid: user.nodeid,
    tokenHash: refreshToken.hash,
    deviceClientId: device?.clientId ?? null,
    deviceSecretHash: device?.secretHash ?? null,
    expiresAt: new Date(Date.now() + settings.refreshTokenTtlDays * DAY_MS),
  });
  const accesstoken = await settings.signer.sign({ usernodeid: user.nodeid, legalentitynodeid: user.legalentitynodeid, sid: familyId });
  return { accesstoken, refreshtoken: refreshToken.token };
}

/** True when a token of the family issued after `token` has itself been rotated, i.e. was used. */
async function successorWasUsed(tx: Tx, token: typeof refreshTokens.$inferSelect): Promise<boolean> {
  // why the id check: JS dates hold milliseconds, PostgreSQL microseconds, so `token` itself can compare later.
  const [used] = await tx
    .select({ id: refreshTokens.id })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.familyId, token.familyId), ne(refreshTokens.id, token.id), gt(refreshTokens.createdAt, token.createdAt), isNotNull(refreshTokens.rotatedAt)))
    .limit(1);
  return used !== undefined;
}

/** Retires the family's not-yet-used tokens, leaving the family itself alive. */
async function revokeLiveTokens(tx: Tx, familyId: string): Promise<void> {
  await tx
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.rotatedAt), isNull(refreshTokens.revokedAt)));
}

async function revokeFamily(tx: Tx, familyId: string): Promise<void> {
  await tx
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** The session payload of spec part 2 §3, every field from the database. */
async function buildSession(db: Db, user: UserRow, legalEntity: LegalEntityRow, tokens: RefreshResponse): Promise<Session> {
  const le = user.legalentitynodeid;
  const [profileRows, planRows, billingRows, clients] = await Promise.all([
    db.select().from(profiles).where(eq(profiles.legalentitynodeid, le)).orderBy(asc(profiles.profileid)),
    db
      .select({ subscription: subscriptions, planid: plans.planid })
      .from(subscriptions)
      .innerJoin(plans, eq(plans.nodeid, subscriptions.plannodeid))
      .where(eq(subscriptions.legalentitynodeid, le))
      .orderBy(asc(subscriptions.startingfrom)),
    db.select().from(billingInfos).where(eq(billingInfos.legalentitynodeid, le)).limit(1),
    user.superuser
      ? db
          .select({ clientid: legalEntities.clientid, name: legalEntities.name })
          .from(legalEntities)
          .where(isNull(legalEntities.ownerlegalentitynodeid))
          .orderBy(asc(legalEntities.name))
      : Promise.resolve(undefined),
  ]);

  const now = Date.now();
  const current = currentSubscriptions(planRows);
  const sessionPlans: Plan[] = current.map(({ subscription, planid }) => ({
    nodeid: subscription.nodeid,
    // why the plan key, not its display name: the client finds the trial by the name 'free' (domain/trial.ts).
    name: planid,
    quotas: subscription.quotas,
    startingfrom: subscription.startingfrom.getTime(),
    noticeperiod: subscription.noticeperiod,
    status: { isvalid: isSubscriptionValid(subscription, now) },
  }));
  const billing = billingRows[0];

  return {
    accesstoken: tokens.accesstoken,
    refreshtoken: tokens.refreshtoken,
    legalentitynodeid: le,
    usernodeid: user.nodeid,
    userid: user.userid,
    clientid: legalEntity.clientid,
    clientinfo: { name: legalEntity.name, clienttype: legalEntity.clienttype },
    appid: APP_ID,
    superuser: user.superuser,
    // why the profile id: the users list's "user type" is the profile id (part 2 §3 "User (list item)").
    userType: user.profileid,
    autologoutweb: user.autologoutweb,
    twoFa: user.twofaEnabled,
    twoFaGenerated: user.twofaSecret !== null,
    userinfo: { admin: user.admin, profileid: user.profileid, givenname: user.givenname, surname: user.surname, email: user.email },
    profiles: profileRows.map((p) => ({ id: p.profileid, nodeid: p.nodeid, name: p.name, features: p.features })),
    plans: sessionPlans,
    baseinfo: { organisation: legalEntity.name, lang: user.lang },
    billinginfo: billing
      ? {
          subscriptionid: current[0]?.subscription.subscriptionid ?? '',
          billingname: billing.billingname,
          billingstreet: billing.billingstreet,
          billingstreetnumber: billing.billingstreetnumber,
          billingzipcode: billing.billingzipcode,
          billingcity: billing.billingcity,
          billingcountry: billing.billingcountry,
          billingbillingemail: billing.billingbillingemail ?? '',
        }
      : null,
    ...(clients ? { clients } : {}),
  };
}

/**
 * The subscriptions the session reports as `plans`: the active ones when there are any (a trial that ended
 * before the paid plan began is history, not a reason to send the user to the order wizard); otherwise the
 * latest one, so an ended trial arrives with `isvalid: false` and the client redirects to ordering.
 */
function currentSubscriptions<T extends { subscription: typeof subscriptions.$inferSelect }>(rows: T[]): T[] {
  const active = rows.filter((row) => row.subscription.status === 'active');
  if (active.length > 0) return active;
  const latest = rows.at(-1);
  return latest ? [latest] : [];
}

/** Active subscriptions are valid; a trial until its term has run out; cancelled and expired ones are not. */
function isSubscriptionValid(subscription: typeof subscriptions.$inferSelect, now: number): boolean {
  if (subscription.status === 'active') return true;
  if (subscription.status !== 'trial') return false;
  const term = parseDuration(subscription.term);
  return term !== undefined && now <= addDuration(subscription.startingfrom.getTime(), term);
}

/** Advisory lock key of the refresh-token cleanup: a fixed bigint unique to this job ("anl:sess" in ASCII). */
export const SESSION_CLEANUP_LOCK = 0x616e6c3a73657373n;

/**
 * Deletes refresh-token rows that expired before `before` (jobs/session-cleanup.ts; docs/decisions.md "An access
 * token ends with its session"). Such a row can do nothing any more: presented, an expired token is refused
 * whether its row is there or not, and a session lives by its newest row, which expires REFRESH_TOKEN_TTL_DAYS
 * after its last refresh — a family whose every row is gone ended that long ago. What the rows still told: that a
 * device had signed the user in (the login lockout lets such devices try), now only for a while after the expiry.
 * One instance at a time (an advisory lock); returns how many rows went.
 */
export async function deleteExpiredRefreshTokens(db: Db, before: Date): Promise<number> {
  return db.transaction(async (tx) => {
    if (!(await tryJobLock(tx, SESSION_CLEANUP_LOCK))) return 0;
    const removed = await tx.delete(refreshTokens).where(lt(refreshTokens.expiresAt, before)).returning({ id: refreshTokens.id });
    return removed.length;
  });
}
