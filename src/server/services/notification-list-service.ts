import { and, desc, eq, exists, inArray, lt, not, type SQL } from 'drizzle-orm';
import { NOTIFICATION_LIST_MAX, type NotificationListItem, type NotificationListRequest } from '../../shared/api/notification-lists';
import { localized } from '../../shared/domain/text';
import { areas, brands, equipment, equipmentPools, equipmentTypes, notificationAssignments, notifications, users } from '../db/schema';
import type { Actor, ServiceContext } from './service-context';

/**
 * The notification lists of spec part 1 §7 (POST /notifications/equipments|unassigned|assigned; the contract is in
 * src/shared/api/notification-lists.ts). Every query is scoped to the caller's tenant; ids of other tenants' machines
 * simply match nothing.
 */

export type NotificationListName = 'equipments' | 'unassigned' | 'assigned';

const assignmentOf = (usernodeid?: string) =>
  and(
    eq(notificationAssignments.notificationnodeid, notifications.nodeid),
    eq(notificationAssignments.legalentitynodeid, notifications.legalentitynodeid),
    ...(usernodeid ? [eq(notificationAssignments.usernodeid, usernodeid)] : []),
  );

export async function listNotifications(ctx: ServiceContext, actor: Actor, list: NotificationListName, input: NotificationListRequest): Promise<NotificationListItem[]> {
  const machines = [...new Set(input.equipmentnodeids)];
  if (list === 'equipments' && machines.length === 0) return [];
  const conditions: (SQL | undefined)[] = [eq(notifications.legalentitynodeid, actor.legalentitynodeid)];
  if (machines.length > 0) conditions.push(inArray(notifications.equipmentnodeid, machines));
  const assignmentQuery = (usernodeid?: string) => ctx.db.select({ one: notificationAssignments.nodeid }).from(notificationAssignments).where(assignmentOf(usernodeid));
  if (list === 'unassigned') conditions.push(lt(notifications.status, 2), not(exists(assignmentQuery())));
  if (list === 'assigned') conditions.push(lt(notifications.status, 2), exists(assignmentQuery(actor.usernodeid)));

  const rows = await ctx.db
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
    })
    .from(notifications)
    .innerJoin(equipment, eq(equipment.nodeid, notifications.equipmentnodeid))
    .leftJoin(equipmentTypes, eq(equipmentTypes.nodeid, equipment.equipmenttypenodeid))
    .leftJoin(brands, eq(brands.nodeid, equipmentTypes.brandnodeid))
    .leftJoin(equipmentPools, eq(equipmentPools.nodeid, equipment.equipmentpoolnodeid))
    .leftJoin(areas, eq(areas.nodeid, equipment.areanodeid))
    .leftJoin(users, eq(users.nodeid, notifications.authornodeid))
    .where(and(...conditions))
    .orderBy(desc(notifications.created), desc(notifications.nodeid))
    .limit(NOTIFICATION_LIST_MAX);

  const ids = rows.map((row) => row.n.nodeid);
  const assignees = new Map<string, string[]>();
  if (ids.length > 0) {
    const assigned = await ctx.db
      .select({ notification: notificationAssignments.notificationnodeid, user: notificationAssignments.usernodeid })
      .from(notificationAssignments)
      .where(and(eq(notificationAssignments.legalentitynodeid, actor.legalentitynodeid), inArray(notificationAssignments.notificationnodeid, ids)));
    for (const row of assigned) assignees.set(row.notification, [...(assignees.get(row.notification) ?? []), row.user]);
  }

  return rows.map((row) => {
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
        pool: row.poolId && row.poolName ? { nodeid: row.poolId, name: localized(row.poolName, input.lang) ?? '' } : null,
        area: row.areaId && row.areaName !== null ? { nodeid: row.areaId, name: row.areaName } : null,
      },
      hasauthor: row.authorId && row.givenname !== null && row.surname !== null ? { nodeid: row.authorId, givenname: row.givenname, surname: row.surname } : null,
      maintenancetasknodeid: n.maintenancetasknodeid,
      isassignedto: (assignees.get(n.nodeid) ?? []).sort(),
      version: n.version,
    };
  });
}
