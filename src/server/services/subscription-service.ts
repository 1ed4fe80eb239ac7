import { and, asc, eq } from 'drizzle-orm';
import type { CreateSubscription, Subscription } from '../../shared/api/subscriptions';
import { subscriptionRecord, subscriptionTarget, type SubscriptionTarget } from '../../shared/domain/subscription';
import { can, type PermissionSubject } from '../../shared/permissions';
import type { SubscriptionRow as SubscriptionRowShape } from '../../shared/rows/structure';
import type { Db, Tx } from '../db/client';
import { areas, equipmentPools, sites, structureSubscriptions, tombstones, users } from '../db/schema';
import { conflict, forbidden, NODEID_TAKEN, notFound } from '../http-errors';
import { nextVersion, recordTombstone } from './change-feed';
import { toRowShape } from './rows';
import { writeTransaction, type Actor, type ServiceContext } from './service-context';
import { lockParent, ofTenant } from './structure-common';

/** The tombstone kind of a subscription: its table name (docs/api.md § Change feed). */
export const SUBSCRIPTION_TOMBSTONE_KIND = 'structure_subscriptions';

type SubscriptionRow = typeof structureSubscriptions.$inferSelect;
/** Managing another user's subscriptions depends on the caller's permissions. */
export type Manager = Actor & PermissionSubject;

const toSubscription = (row: SubscriptionRow): Subscription => ({
  nodeid: row.nodeid,
  usernodeid: row.usernodeid,
  sitenodeid: row.sitenodeid,
  areanodeid: row.areanodeid,
  equipmentpoolnodeid: row.equipmentpoolnodeid,
  version: row.version,
});

/** GET /api/subscriptions: one user's entries, by id. */
export async function listSubscriptions(ctx: ServiceContext, actor: Manager, usernodeid: string = actor.usernodeid): Promise<Subscription[]> {
  await assertMayManageSubscriptionsOf(ctx.db, actor, usernodeid);
  const rows = await ctx.db
    .select()
    .from(structureSubscriptions)
    .where(and(eq(structureSubscriptions.legalentitynodeid, actor.legalentitynodeid), eq(structureSubscriptions.usernodeid, usernodeid)))
    .orderBy(asc(structureSubscriptions.nodeid));
  return rows.map(toSubscription);
}

/**
 * Follow a site, an area or a pool: the entry with its derived id (subscriptionRecord, the rule the declaration
 * followStructure applies on the device). Following it again answers the entry it has (a replayed or repeated
 * outbox entry, or another device that was first). The target must be the tenant's (404 otherwise).
 */
export async function createSubscription(ctx: ServiceContext, actor: Manager, input: CreateSubscription): Promise<SubscriptionRowShape> {
  const target = subscriptionTarget({ sitenodeid: input.sitenodeid ?? null, areanodeid: input.areanodeid ?? null, equipmentpoolnodeid: input.equipmentpoolnodeid ?? null })!;
  return writeTransaction(ctx, 'subscription.create', async (tx) => {
    await assertMayManageSubscriptionsOf(tx, actor, input.usernodeid);
    await assertTargetOfTenant(tx, actor, target);
    return toRowShape(await subscribe(tx, actor.legalentitynodeid, input.usernodeid, target)) as SubscriptionRowShape;
  });
}

/**
 * Inserts the entry unless the user follows the target already (then answers that row). Used by the route and
 * by the creates that subscribe their creator (a new area). Re-following reuses the derived id, so its old
 * tombstone goes: a device pulling later must not see the row deleted after it came back.
 */
export async function subscribe(tx: Tx, legalentitynodeid: string, usernodeid: string, target: SubscriptionTarget, version?: number): Promise<SubscriptionRow> {
  const record = subscriptionRecord(usernodeid, target);
  const [existing] = await tx.select().from(structureSubscriptions).where(sameTarget(legalentitynodeid, record));
  if (existing) return existing;
  const [inserted] = await tx
    .insert(structureSubscriptions)
    .values({ ...record, legalentitynodeid, version: version ?? (await nextVersion(tx, legalentitynodeid)) })
    .onConflictDoNothing()
    .returning();
  // A concurrent request stored it first (the unique index on user and target): that row is the answer.
  if (!inserted) {
    const [winner] = await tx.select().from(structureSubscriptions).where(sameTarget(legalentitynodeid, record));
    // The derived id held by an entry for another target of the same id: only records made before one nodeid
    // named one record (the node_ids registry) can share an id; a 409 names it instead of a 500.
    if (!winner) throw conflict(NODEID_TAKEN);
    return winner;
  }
  await tx
    .delete(tombstones)
    .where(and(eq(tombstones.legalentitynodeid, legalentitynodeid), eq(tombstones.kind, SUBSCRIPTION_TOMBSTONE_KIND), eq(tombstones.nodeid, record.nodeid)));
  return inserted;
}

/**
 * End one entry. One that is gone already (its target was deleted meanwhile, or this delete came twice) is no
 * error: the answer is the version of the delete that ended it, from the tenant's tombstone. An id the tenant
 * never had (or another tenant's) is a 404 like everywhere else, so the answer tells nothing about other tenants;
 * so is another user's entry, present or gone, for a caller who may not manage it (mayEndEntryOf).
 */
export async function deleteSubscription(ctx: ServiceContext, actor: Manager, nodeid: string): Promise<{ nodeid: string; version: number }> {
  const le = actor.legalentitynodeid;
  return writeTransaction(ctx, 'subscription.delete', async (tx) => {
    const [row] = await tx
      .select()
      .from(structureSubscriptions)
      .where(ofTenant(structureSubscriptions, actor, nodeid))
      .for('update');
    if (!row) {
      const stone = await goneSince(tx, le, nodeid);
      if (!stone || !mayEndEntryOf(actor, stone.usernodeid)) throw notFound('Subscription not found');
      return { nodeid, version: stone.version };
    }
    if (!mayEndEntryOf(actor, row.usernodeid)) throw notFound('Subscription not found');
    const version = await nextVersion(tx, le);
    await tx.delete(structureSubscriptions).where(eq(structureSubscriptions.nodeid, nodeid));
    await recordTombstone(tx, le, SUBSCRIPTION_TOMBSTONE_KIND, nodeid, version, row.usernodeid);
    return { nodeid, version };
  });
}

/**
 * Whether `actor` may end (or learn of) an entry of `usernodeid`: their own, or anyone's with user update (the
 * entry is of the actor's tenant, so its user is too). The answer otherwise is the 404 of an id the tenant never
 * had, not a 403: entry ids are derived from user and target (subscriptionNodeId), so a 403, or a tombstone's
 * version, would tell anyone who guesses an id whom another user follows or followed. `null`: a tombstone written
 * before tombstones named their user (migration 0004), answered as before.
 */
function mayEndEntryOf(actor: Manager, usernodeid: string | null): boolean {
  return usernodeid === null || managesSubscriptionsOf(actor, usernodeid);
}

/** The rule of every route that tells or changes whom a user follows: one's own, or anyone's with user update. */
function managesSubscriptionsOf(actor: Manager, usernodeid: string): boolean {
  return usernodeid === actor.usernodeid || can(actor, 'user', 'update');
}

/** The delete that ended the tenant's entry `nodeid` (its version, and whose entry it was), if the tenant has its tombstone. */
async function goneSince(tx: Tx, le: string, nodeid: string): Promise<{ version: number; usernodeid: string | null } | undefined> {
  const [stone] = await tx
    .select({ version: tombstones.version, usernodeid: tombstones.usernodeid })
    .from(tombstones)
    .where(and(eq(tombstones.legalentitynodeid, le), eq(tombstones.kind, SUBSCRIPTION_TOMBSTONE_KIND), eq(tombstones.nodeid, nodeid)));
  return stone ? { version: Number(stone.version), usernodeid: stone.usernodeid } : undefined;
}

/**
 * Everyone manages (and sees) their own subscriptions; another user's need `user` update (user administration),
 * and that user must be of the caller's tenant (404). Every route that tells whom a user follows uses this rule
 * (GET /api/equipmentpools?usernodeid too), so none of them shows more than the subscriptions routes.
 */
export async function assertMayManageSubscriptionsOf(db: Db | Tx, actor: Manager, usernodeid: string): Promise<void> {
  if (!managesSubscriptionsOf(actor, usernodeid)) throw forbidden();
  if (usernodeid === actor.usernodeid) return;
  const [user] = await db
    .select({ nodeid: users.nodeid })
    .from(users)
    .where(ofTenant(users, actor, usernodeid));
  if (!user) throw notFound('User not found');
}

/** The followed plant, area or pool, locked for the entry that hangs on it (lockParent); 404 when there is none. */
async function assertTargetOfTenant(tx: Tx, actor: Actor, target: SubscriptionTarget): Promise<void> {
  const table = target.type === 'site' ? sites : target.type === 'area' ? areas : equipmentPools;
  if (!(await lockParent(tx, table, actor, target.nodeid))) throw notFound(target.type === 'site' ? 'Site not found' : target.type === 'area' ? 'Area not found' : 'Equipment pool not found');
}

function sameTarget(legalentitynodeid: string, record: ReturnType<typeof subscriptionRecord>) {
  const target = record.sitenodeid
    ? eq(structureSubscriptions.sitenodeid, record.sitenodeid)
    : record.areanodeid
      ? eq(structureSubscriptions.areanodeid, record.areanodeid)
      : eq(structureSubscriptions.equipmentpoolnodeid, record.equipmentpoolnodeid!);
  return and(eq(structureSubscriptions.legalentitynodeid, legalentitynodeid), eq(structureSubscriptions.usernodeid, record.usernodeid), target);
}
