import { and, count, eq, inArray, or } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { CreateNotification, Notification, UpdateNotification } from '../../shared/api/notifications';
import { clampDeviceTime } from '../../shared/domain/device-time';
import { applyStatusTransition, isUsableNotificationType, type StatusTimestampChanges } from '../../shared/domain/notification';
import type { Db, Tx } from '../db/client';
import {
  areas,
  attachments,
  brands,
  chatMessages,
  chatRoomMembers,
  chatRooms,
  costs,
  equipment,
  equipmentPools,
  equipmentTypes,
  notificationAssignments,
  notifications,
  reports,
  tombstones,
  users,
  workflowSteps,
  workflows,
} from '../db/schema';
import { badRequest, conflict, HttpError, notFound } from '../http-errors';
import { nextVersion, recordTombstone, recordTombstones } from './change-feed';
import { appendHistory, changedFields } from './record-history';
import { writeTransaction, type Actor, type ServiceContext } from './service-context';

type NotificationRow = typeof notifications.$inferSelect;

const KIND = 'notifications';
const NOT_FOUND = 'Notification not found';
/** Deletes win over later edits: a write to a deleted notification answers 410, a never-known id 404. */
const GONE = 'Notification was deleted';

export async function getNotification(ctx: ServiceContext, actor: Actor, nodeid: string, lang: string): Promise<Notification> {
  const [row] = await ctx.db
    .select({
      n: notifications,
      equipmentName: equipment.name,
      model: equipmentTypes.model,
      brand: brands.name,
      poolId: equipmentPools.nodeid,
      poolName: equipmentPools.name,
      areaId: areas.nodeid,
      areaName: areas.name,
      authorId: users.nodeid,
      givenname: users.givenname,
      surname: users.surname,
      chatroom: chatRooms.nodeid,
    })
    .from(notifications)
    .innerJoin(equipment, eq(equipment.nodeid, notifications.equipmentnodeid))
    .leftJoin(equipmentTypes, eq(equipmentTypes.nodeid, equipment.equipmenttypenodeid))
    .leftJoin(brands, eq(brands.nodeid, equipmentTypes.brandnodeid))
    .leftJoin(equipmentPools, eq(equipmentPools.nodeid, equipment.equipmentpoolnodeid))
    .leftJoin(areas, eq(areas.nodeid, equipment.areanodeid))
    .leftJoin(users, eq(users.nodeid, notifications.authornodeid))
    .leftJoin(chatRooms, eq(chatRooms.notificationnodeid, notifications.nodeid))
    .where(notificationOfTenant(actor, nodeid));
  if (!row) throw (await isDeleted(ctx.db, actor, nodeid)) ? gone() : notFound(NOT_FOUND);
  const counts = await countChildren(ctx.db, actor, nodeid);
  const n = row.n;
  return {
    nodeid: n.nodeid,
    type: n.type,
    status: n.status,
    title: n.title,
    description: n.description,
    errorcode: n.errorcode,
    created: n.created.getTime(),
    progressstarted: n.progressstarted?.getTime() ?? 0,
    closed: n.closed?.getTime() ?? 0,
    dueuntil: n.dueuntil?.getTime() ?? null,
    equipmentnodeid: n.equipmentnodeid,
    isnotificationof: {
      nodeid: n.equipmentnodeid,
      name: row.equipmentName,
      brand: row.brand,
      model: row.model,
      pool: row.poolId && row.poolName ? { nodeid: row.poolId, name: row.poolName[lang] ?? row.poolName.de ?? Object.values(row.poolName)[0] ?? '' } : null,
      area: row.areaId && row.areaName !== null ? { nodeid: row.areaId, name: row.areaName } : null,
    },
    hasauthor: row.authorId && row.givenname !== null && row.surname !== null ? { nodeid: row.authorId, givenname: row.givenname, surname: row.surname } : null,
    haschatroom: row.chatroom ? { nodeid: row.chatroom } : null,
    maintenancetasknodeid: n.maintenancetasknodeid,
    counts,
    version: n.version,
  };
}

/**
 * createNotification. The author is the caller; the machine must be the caller's tenant's (404 otherwise). An
 * id that exists answers 409 (the mutation log answers a replay before this runs); a deleted one 410.
 */
export async function createNotification(ctx: ServiceContext, actor: Actor, input: CreateNotification, lang: string): Promise<Notification> {
  const nodeid = input.nodeid ?? uuidv7();
  await writeTransaction(ctx, 'notification.create', async (tx) => {
    await assertEquipmentOfTenant(tx, actor, input.equipmentnodeid);
    const version = await nextVersion(tx, actor.legalentitynodeid);
    const [existing] = await tx.select({ le: notifications.legalentitynodeid }).from(notifications).where(eq(notifications.nodeid, nodeid));
    if (existing) throw conflict('A notification with this nodeid already exists');
    if (await isDeleted(tx, actor, nodeid)) throw gone();

    const nowMs = Date.now();
    const created = clampDeviceTime(input.created, 0, nowMs);
    const status = input.status ?? 0;
    const stamps = deviceStamps(applyStatusTransition(0, status, nowMs), input, created, nowMs);
    await tx.insert(notifications).values({
      nodeid,
      legalentitynodeid: actor.legalentitynodeid,
      type: input.type,
      status,
      title: input.title,
      description: input.description,
      errorcode: input.errorcode,
      equipmentnodeid: input.equipmentnodeid,
      dueuntil: input.dueuntil ? new Date(input.dueuntil) : null,
      created: new Date(created),
      progressstarted: toDate(stamps.progressstarted),
      closed: toDate(stamps.closed),
      authornodeid: actor.usernodeid,
      version,
    });
  });
  return getNotification(ctx, actor, nodeid, lang);
}

/**
 * updateNotification: field-by-field last write wins in server commit order. A status change is a §4.2
 * transition from the server's own current status (`previousStatus`, what the device saw, is only recorded);
 * the timestamps the transition sets come from the device, clamped to [created, now]. What the write
 * overwrites goes to the record history.
 */
export async function updateNotification(ctx: ServiceContext, actor: Actor, nodeid: string, input: UpdateNotification, lang: string): Promise<Notification> {
  if (input.nodeid !== undefined && input.nodeid !== nodeid) throw badRequest('nodeid does not match the path', [{ field: 'nodeid', message: 'Must equal the id in the path' }]);
  await writeTransaction(ctx, 'notification.update', async (tx) => {
    const [current] = await tx.select().from(notifications).where(notificationOfTenant(actor, nodeid)).for('update');
    if (!current) throw (await isDeleted(tx, actor, nodeid)) ? gone() : notFound(NOT_FOUND);

    const fields = input.onlyStatusUpdate ? {} : fieldPatch(input);
    if (fields.type !== undefined && fields.type !== current.type && !isUsableNotificationType(fields.type)) {
      throw badRequest('Invalid body: type: Types 4 and 5 are not used', [{ field: 'type', message: 'Types 4 and 5 are not used' }]);
    }
    if (fields.equipmentnodeid !== undefined && fields.equipmentnodeid !== current.equipmentnodeid) await assertEquipmentOfTenant(tx, actor, fields.equipmentnodeid);

    const nowMs = Date.now();
    const statusPatch: Partial<NotificationRow> = {};
    if (input.status !== undefined && input.status !== current.status) {
      const stamps = deviceStamps(applyStatusTransition(current.status, input.status, nowMs), input, current.created.getTime(), nowMs);
      statusPatch.status = input.status;
      if (stamps.progressstarted !== undefined) statusPatch.progressstarted = toDate(stamps.progressstarted);
      if (stamps.closed !== undefined) statusPatch.closed = toDate(stamps.closed);
    }

    const patch: Partial<NotificationRow> = { ...fields, ...statusPatch };
    const changes = changedFields(current, patch);
    const context = input.status !== undefined ? { status: input.status, ...(input.previousStatus !== undefined && { previousStatus: input.previousStatus }), serverStatus: current.status } : undefined;
    if (Object.keys(changes).length === 0) {
      // why still recorded: a status write that lost to another device's transition is kept as context.
      if (context && input.previousStatus !== undefined && input.previousStatus !== current.status) {
        await appendHistory(tx, { legalentitynodeid: actor.legalentitynodeid, kind: KIND, nodeid, version: current.version, changes, context, usernodeid: actor.usernodeid });
      }
      return;
    }
    const version = await nextVersion(tx, actor.legalentitynodeid);
    await tx
      .update(notifications)
      .set({ ...patch, version, updatedAt: new Date() })
      .where(notificationOfTenant(actor, nodeid));
    await appendHistory(tx, { legalentitynodeid: actor.legalentitynodeid, kind: KIND, nodeid, version, changes, context, usernodeid: actor.usernodeid });
  });
  return getNotification(ctx, actor, nodeid, lang);
}

/**
 * deleteNotification, with everything that only exists through it (solutions and their steps, reports,
 * costs, assignments, its chat room, attachments on any of them), each leaving a tombstone. Deleting an
 * already deleted notification answers 410 like any later write to it.
 */
export async function deleteNotification(ctx: ServiceContext, actor: Actor, nodeid: string): Promise<{ nodeid: string; version: number }> {
  const le = actor.legalentitynodeid;
  return writeTransaction(ctx, 'notification.delete', async (tx) => {
    const [current] = await tx.select({ nodeid: notifications.nodeid }).from(notifications).where(notificationOfTenant(actor, nodeid)).for('update');
    if (!current) throw (await isDeleted(tx, actor, nodeid)) ? gone() : notFound(NOT_FOUND);
    const version = await nextVersion(tx, le);

    const ids = async <T extends { nodeid: string }>(rows: Promise<T[]>) => (await rows).map((r) => r.nodeid);
    const workflowIds = await ids(tx.select({ nodeid: workflows.nodeid }).from(workflows).where(and(eq(workflows.legalentitynodeid, le), eq(workflows.notificationnodeid, nodeid))));
    const stepIds = workflowIds.length ? await ids(tx.select({ nodeid: workflowSteps.nodeid }).from(workflowSteps).where(inArray(workflowSteps.workflownodeid, workflowIds))) : [];
    const reportIds = await ids(tx.select({ nodeid: reports.nodeid }).from(reports).where(and(eq(reports.legalentitynodeid, le), eq(reports.notificationnodeid, nodeid))));
    const costIds = await ids(
      tx
        .select({ nodeid: costs.nodeid })
        .from(costs)
        .where(and(eq(costs.legalentitynodeid, le), reportIds.length ? or(eq(costs.notificationnodeid, nodeid), inArray(costs.reportnodeid, reportIds)) : eq(costs.notificationnodeid, nodeid))),
    );
    const assignmentIds = await ids(tx.select({ nodeid: notificationAssignments.nodeid }).from(notificationAssignments).where(eq(notificationAssignments.notificationnodeid, nodeid)));
    const roomIds = await ids(tx.select({ nodeid: chatRooms.nodeid }).from(chatRooms).where(eq(chatRooms.notificationnodeid, nodeid)));
    const memberIds = roomIds.length ? await ids(tx.select({ nodeid: chatRoomMembers.nodeid }).from(chatRoomMembers).where(inArray(chatRoomMembers.chatroomnodeid, roomIds))) : [];
    const messageIds = roomIds.length ? await ids(tx.select({ nodeid: chatMessages.nodeid }).from(chatMessages).where(inArray(chatMessages.chatroomnodeid, roomIds))) : [];
    const owners = [nodeid, ...stepIds, ...reportIds, ...workflowIds];
    const attachmentIds = await ids(
      tx
        .delete(attachments)
        .where(and(eq(attachments.legalentitynodeid, le), inArray(attachments.isattachmentof, owners)))
        .returning({ nodeid: attachments.nodeid }),
    );

    // why chat rooms by hand: they reference the notification with cascade, but must leave tombstones.
    if (roomIds.length) await tx.delete(chatRooms).where(inArray(chatRooms.nodeid, roomIds));
    await tx.delete(notifications).where(notificationOfTenant(actor, nodeid));

    await recordTombstone(tx, le, KIND, nodeid, version);
    await recordTombstones(tx, le, 'workflows', workflowIds, version);
    await recordTombstones(tx, le, 'workflow_steps', stepIds, version);
    await recordTombstones(tx, le, 'reports', reportIds, version);
    await recordTombstones(tx, le, 'costs', costIds, version);
    await recordTombstones(tx, le, 'notification_assignments', assignmentIds, version);
    await recordTombstones(tx, le, 'chat_rooms', roomIds, version);
    await recordTombstones(tx, le, 'chat_room_members', memberIds, version);
    await recordTombstones(tx, le, 'chat_messages', messageIds, version);
    await recordTombstones(tx, le, 'attachments', attachmentIds, version);
    return { nodeid, version };
  });
}

// ---------------------------------------------------------------- helpers

function notificationOfTenant(actor: Actor, nodeid: string) {
  return and(eq(notifications.nodeid, nodeid), eq(notifications.legalentitynodeid, actor.legalentitynodeid));
}

async function isDeleted(db: Db | Tx, actor: Actor, nodeid: string): Promise<boolean> {
  const [row] = await db
    .select({ nodeid: tombstones.nodeid })
    .from(tombstones)
    .where(and(eq(tombstones.kind, KIND), eq(tombstones.nodeid, nodeid), eq(tombstones.legalentitynodeid, actor.legalentitynodeid)));
  return row !== undefined;
}

function gone(): HttpError {
  return new HttpError(410, GONE);
}

async function assertEquipmentOfTenant(tx: Tx, actor: Actor, equipmentnodeid: string): Promise<void> {
  const [row] = await tx
    .select({ nodeid: equipment.nodeid })
    .from(equipment)
    .where(and(eq(equipment.nodeid, equipmentnodeid), eq(equipment.legalentitynodeid, actor.legalentitynodeid)));
  if (!row) throw notFound('Equipment not found');
}

/** The ordinary field edits of an update; only the fields sent. */
function fieldPatch(input: UpdateNotification): Partial<NotificationRow> {
  return {
    ...(input.title !== undefined && { title: input.title }),
    ...(input.type !== undefined && { type: input.type }),
    ...(input.description !== undefined && { description: input.description }),
    ...(input.errorcode !== undefined && { errorcode: input.errorcode }),
    ...(input.equipmentnodeid !== undefined && { equipmentnodeid: input.equipmentnodeid }),
    ...(input.dueuntil !== undefined && { dueuntil: input.dueuntil ? new Date(input.dueuntil) : null }),
  };
}

/**
 * The transition's "now" replaced by the device's own time for that field when it sent one (a status changed
 * offline happened when the technician changed it), clamped to [created, server now]. Resets stay 0.
 */
function deviceStamps(
  changes: StatusTimestampChanges,
  device: { progressstarted?: number | undefined; closed?: number | undefined },
  createdMs: number,
  nowMs: number,
): StatusTimestampChanges {
  const pick = (set: number | undefined, sent: number | undefined) => (set === undefined || set === 0 ? set : clampDeviceTime(sent ? sent : undefined, createdMs, nowMs));
  const out: StatusTimestampChanges = {};
  const progressstarted = pick(changes.progressstarted, device.progressstarted);
  const closed = pick(changes.closed, device.closed);
  if (progressstarted !== undefined) out.progressstarted = progressstarted;
  if (closed !== undefined) out.closed = closed;
  // why: clamping each on its own could put "closed" before "progress started" when only one was sent.
  if (out.progressstarted && out.closed && out.closed < out.progressstarted) out.closed = out.progressstarted;
  return out;
}

function toDate(ms: number | undefined): Date | null {
  return ms ? new Date(ms) : null;
}

async function countChildren(db: Db, actor: Actor, nodeid: string): Promise<Notification['counts']> {
  const le = actor.legalentitynodeid;
  const [w] = await db.select({ n: count() }).from(workflows).where(and(eq(workflows.legalentitynodeid, le), eq(workflows.notificationnodeid, nodeid)));
  const [r] = await db.select({ n: count() }).from(reports).where(and(eq(reports.legalentitynodeid, le), eq(reports.notificationnodeid, nodeid)));
  const [a] = await db.select({ n: count() }).from(attachments).where(and(eq(attachments.legalentitynodeid, le), eq(attachments.isattachmentof, nodeid)));
  const [c] = await db.select({ n: count() }).from(costs).where(and(eq(costs.legalentitynodeid, le), eq(costs.notificationnodeid, nodeid)));
  return { hasworkflow: w?.n ?? 0, hasreport: r?.n ?? 0, hasattachment: a?.n ?? 0, hascost: c?.n ?? 0 };
}
