import { and, desc, eq, exists, inArray, lt, not, type SQL } from 'drizzle-orm';
import { NOTIFICATION_LIST_MAX, type NotificationListItem, type NotificationListRequest } from '../../shared/api/notification-lists';
import { notificationAssignments, notifications } from '../db/schema';
import { notificationWithMachineOf, selectNotificationsWithMachine } from './notification-query';
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

  const rows = await selectNotificationsWithMachine(ctx.db, {})
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
      ...notificationWithMachineOf(row, input.lang),
      maintenancetasknodeid: n.maintenancetasknodeid,
      isassignedto: (assignees.get(n.nodeid) ?? []).sort(),
      version: n.version,
    };
  });
}
