import { and, count, desc, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { NOTIFICATION_CHANGES_MAX, STALE_STATUS_DETAIL, type CreateNotification, type Notification, type NotificationChange } from '../../shared/api/notifications';
import type { MutationParsed } from '../../shared/mutations/mutation';
import { createNotification as createMutation, updateNotification as updateMutation } from '../../shared/mutations/notifications';
import type { NotificationRow as NotificationRowShape } from '../../shared/rows/notifications';
import { isStaleStatusChange, isUsableNotificationType, type NotificationStatus } from '../../shared/domain/notification';
import type { Db, Tx } from '../db/client';
import { attachments, chatRooms, costs, equipment, notifications, recordHistory, reports, tombstones, users, workflows } from '../db/schema';
import { badRequest, conflict, HttpError, notFound } from '../http-errors';
import { nextVersionCte } from './change-feed';
import { deleteWithOwned } from './ownership';
import { appendHistory, changedFields } from './record-history';
import { applyContext, toColumnValues, toRowShape } from './rows';
import { notificationWithMachineOf, selectNotificationsWithMachine } from './notification-query';
import { writeTransaction, type Actor, type ServiceContext } from './service-context';
import { lockParent, ofTenant } from './structure-common';

type NotificationRow = typeof notifications.$inferSelect;

const KIND = 'notifications';
const NOT_FOUND = 'Notification not found';
/** Deletes win over later edits: a write to a deleted notification answers 410, a never-known id 404. */
const GONE = 'Notification was deleted';

export async function getNotification(ctx: ServiceContext, actor: Actor, nodeid: string, lang: string): Promise<Notification> {
  const [row] = await selectNotificationsWithMachine(ctx.db, { chatroom: chatRooms.nodeid })
    .leftJoin(chatRooms, eq(chatRooms.notificationnodeid, notifications.nodeid))
    .where(ofTenant(notifications, actor, nodeid));
  if (!row) throw (await isDeleted(ctx.db, actor, nodeid)) ? gone() : notFound(NOT_FOUND);
  const counts = await countChildren(ctx.db, actor, nodeid);
  const n = row.n;
  return {
    ...notificationWithMachineOf(row, lang),
    haschatroom: row.chatroom ? { nodeid: row.chatroom } : null,
    maintenancetasknodeid: n.maintenancetasknodeid,
    counts,
    version: n.version,
  };
}

/**
 * createNotification: the row the declaration computes (src/shared/mutations/notifications.ts), with the
 * caller as author and the server's clock. The machine must be the caller's tenant's (404 otherwise). An id
 * that exists answers 409 (the mutation log answers a replay before this runs); a deleted one 410.
 */
export async function createNotification(ctx: ServiceContext, actor: Actor, input: CreateNotification): Promise<NotificationRowShape> {
  const nodeid = input.nodeid ?? uuidv7();
  return writeTransaction(ctx, 'notification.create', async (tx) => {
    // why one statement for the three checks, the version taken in the insert and the row from the insert itself:
    // a quick report is the write a tablet queues by the hundred offline, and from the version to the commit every
    // other writer of the tenant waits (docs/decisions.md "Write: the version late"). A create racing this one for
    // the same id ends in the insert's own constraint error: a 409, nothing written. The check locks the machine
    // (key share) before the version, as lockParent (structure-common.ts) does for every other create.
    const [free] = await tx
      .select({
        machine: sql<boolean>`exists (${tx.select({ one: sql`1` }).from(equipment).where(ofTenant(equipment, actor, input.equipmentnodeid)).for('key share')})`,
        taken: sql<boolean>`exists (${tx.select({ one: sql`1` }).from(notifications).where(eq(notifications.nodeid, nodeid))})`,
        deleted: sql<boolean>`exists (${tx.select({ one: sql`1` }).from(tombstones).where(tombstoneOf(actor, nodeid))})`,
      })
      .from(sql`(select 1) as one`);
    if (!free?.machine) throw notFound('Equipment not found');
    if (free.taken) throw conflict('A notification with this nodeid already exists');
    if (free.deleted) throw gone();

    const fields = createMutation.apply!(undefined, { params: {}, body: { ...input, nodeid } }, applyContext(actor));
    const next = nextVersionCte(tx, actor.legalentitynodeid);
    const [row] = await tx
      .with(next.cte)
      .insert(notifications)
      .values({
        ...(toColumnValues(notifications, fields) as typeof notifications.$inferInsert),
        nodeid,
        legalentitynodeid: actor.legalentitynodeid,
        version: next.version,
      })
      .returning();
    return toRowShape(row!) as NotificationRowShape;
  });
}

/**
 * The notification's record history (what writes overwrote), newest first, at most NOTIFICATION_CHANGES_MAX: a
 * notification of the caller's tenant (404; a deleted one 410, as any read of it).
 */
export async function notificationChanges(ctx: ServiceContext, actor: Actor, nodeid: string): Promise<NotificationChange[]> {
  const [exists] = await ctx.db.select({ nodeid: notifications.nodeid }).from(notifications).where(ofTenant(notifications, actor, nodeid));
  if (!exists) throw (await isDeleted(ctx.db, actor, nodeid)) ? gone() : notFound(NOT_FOUND);
  const rows = await ctx.db
    .select({ version: recordHistory.version, at: recordHistory.at, madeat: recordHistory.madeat, changes: recordHistory.changes, context: recordHistory.context, userId: users.nodeid, givenname: users.givenname, surname: users.surname })
    .from(recordHistory)
    .leftJoin(users, eq(users.nodeid, recordHistory.usernodeid))
    .where(and(eq(recordHistory.legalentitynodeid, actor.legalentitynodeid), eq(recordHistory.kind, KIND), eq(recordHistory.nodeid, nodeid)))
    .orderBy(desc(recordHistory.version), desc(recordHistory.at))
    .limit(NOTIFICATION_CHANGES_MAX);
  return rows.map((row) => {
    const context = row.context ?? {};
    const lost = Object.keys(row.changes).length === 0 && typeof context.status === 'number';
    return {
      version: row.version,
      at: row.at.getTime(),
      madeAt: row.madeat?.getTime() ?? null,
      author: row.userId ? { nodeid: row.userId, givenname: row.givenname ?? '', surname: row.surname ?? '' } : null,
      changes: row.changes,
      lostStatus: lost ? { status: context.status as number, previousStatus: typeof context.previousStatus === 'number' ? context.previousStatus : null } : null,
    };
  });
}

/**
 * updateNotification: field-by-field last write wins in server commit order. The change is the declaration's
 * `apply` on the locked row: a status change is the §4.2 transition from the server's OWN current status, with the
 * device's times clamped to [created, now]; one made against a status another device has since moved on from,
 * which would take the notification back, is refused (409, `isStaleStatusChange`: the first transition wins).
 * What the write overwrites goes to the record history.
 */
export async function updateNotification(ctx: ServiceContext, actor: Actor, args: MutationParsed<typeof updateMutation>): Promise<NotificationRowShape> {
  const { params, body: input } = args;
  const nodeid = params.nodeid;
  return writeTransaction(ctx, 'notification.update', async (tx) => {
    const [current] = await tx.select().from(notifications).where(ofTenant(notifications, actor, nodeid)).for('no key update'); // a change keeps the key: see lockOwnRow (structure-common.ts)
    if (!current) throw (await isDeleted(tx, actor, nodeid)) ? gone() : notFound(NOT_FOUND);

    if (input.status !== undefined && isStaleStatusChange(current.status as NotificationStatus, input.previousStatus, input.status)) {
      throw new HttpError(409, `Status not changed: the notification's status is ${current.status} now; this device saw ${input.previousStatus}`, [{ ...STALE_STATUS_DETAIL }]);
    }
    const change = updateMutation.apply!(toRowShape(current), args, applyContext(actor));
    if (change.type !== undefined && change.type !== current.type && !isUsableNotificationType(change.type)) {
      throw badRequest('Invalid body: type: Types 4 and 5 are not used', [{ field: 'type', message: 'Types 4 and 5 are not used' }]);
    }
    if (typeof change.equipmentnodeid === 'string' && change.equipmentnodeid !== current.equipmentnodeid) await assertEquipmentOfTenant(tx, actor, change.equipmentnodeid);

    const patch = toColumnValues(notifications, change) as Partial<NotificationRow>;
    const changes = changedFields(current, patch);
    const context = input.status !== undefined ? { status: input.status, ...(input.previousStatus !== undefined && { previousStatus: input.previousStatus }), serverStatus: current.status } : undefined;
    if (Object.keys(changes).length === 0) {
      // why still recorded: a status write that lost to another device's transition is kept as context.
      if (context && input.previousStatus !== undefined && input.previousStatus !== current.status) {
        await appendHistory(tx, actor, { kind: KIND, nodeid, version: current.version, changes, context });
      }
      return toRowShape(current) as NotificationRowShape;
    }
    // why the version in the update and the row from its returning: from the version to the commit every other
    // writer of the tenant waits; two statements instead of four (docs/decisions.md "Write: the version late").
    const next = nextVersionCte(tx, actor.legalentitynodeid);
    const [row] = await tx
      .with(next.cte)
      .update(notifications)
      .set({ ...patch, version: next.version, updatedAt: new Date() })
      .where(ofTenant(notifications, actor, nodeid))
      .returning();
    await appendHistory(tx, actor, { kind: KIND, nodeid, version: row!.version, changes, context });
    return toRowShape(row!) as NotificationRowShape;
  });
}

/**
 * deleteNotification, with everything that only exists through it (ownership.ts: solutions and their steps,
 * reports, costs, assignments, its chat room, attachments on any of them), each leaving a tombstone. Deleting an
 * already deleted notification answers 410 like any later write to it.
 */
export async function deleteNotification(ctx: ServiceContext, actor: Actor, nodeid: string): Promise<{ nodeid: string; version: number }> {
  const le = actor.legalentitynodeid;
  return writeTransaction(ctx, 'notification.delete', async (tx) => {
    const [current] = await tx.select({ nodeid: notifications.nodeid }).from(notifications).where(ofTenant(notifications, actor, nodeid)).for('update');
    if (!current) throw (await isDeleted(tx, actor, nodeid)) ? gone() : notFound(NOT_FOUND);
    const { version } = await deleteWithOwned(tx, le, KIND, [nodeid], 'next');
    return { nodeid, version };
  });
}

// ---------------------------------------------------------------- helpers

function tombstoneOf(actor: Actor, nodeid: string) {
  return and(eq(tombstones.kind, KIND), eq(tombstones.nodeid, nodeid), eq(tombstones.legalentitynodeid, actor.legalentitynodeid));
}

async function isDeleted(db: Db | Tx, actor: Actor, nodeid: string): Promise<boolean> {
  const [row] = await db.select({ nodeid: tombstones.nodeid }).from(tombstones).where(tombstoneOf(actor, nodeid));
  return row !== undefined;
}

function gone(): HttpError {
  return new HttpError(410, GONE);
}

async function assertEquipmentOfTenant(tx: Tx, actor: Actor, equipmentnodeid: string): Promise<void> {
  if (!(await lockParent(tx, equipment, actor, equipmentnodeid))) throw notFound('Equipment not found');
}

async function countChildren(db: Db, actor: Actor, nodeid: string): Promise<Notification['counts']> {
  const le = actor.legalentitynodeid;
  const [w] = await db.select({ n: count() }).from(workflows).where(and(eq(workflows.legalentitynodeid, le), eq(workflows.notificationnodeid, nodeid)));
  const [r] = await db.select({ n: count() }).from(reports).where(and(eq(reports.legalentitynodeid, le), eq(reports.notificationnodeid, nodeid)));
  const [a] = await db.select({ n: count() }).from(attachments).where(and(eq(attachments.legalentitynodeid, le), eq(attachments.isattachmentof, nodeid)));
  const [c] = await db.select({ n: count() }).from(costs).where(and(eq(costs.legalentitynodeid, le), eq(costs.notificationnodeid, nodeid)));
  return { hasworkflow: w?.n ?? 0, hasreport: r?.n ?? 0, hasattachment: a?.n ?? 0, hascost: c?.n ?? 0 };
}
