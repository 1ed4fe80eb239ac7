import { eq } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Notification } from '../../shared/api/notifications';
import { localized } from '../../shared/domain/text';
import type { Db } from '../db/client';
import { areas, brands, equipment, equipmentPools, equipmentTypes, notifications, users } from '../db/schema';

/**
 * A notification with its machine (name, type, brand, pool, area) and its author, the select and joins the details
 * (GET /notifications/:nodeid) and the lists (POST /notifications/equipments|unassigned|assigned) share. `extra`
 * adds columns of tables the caller joins after (the details' chat room). The caller adds tenant scope and filters.
 */
export function selectNotificationsWithMachine<E extends Record<string, PgColumn>>(db: Db, extra: E) {
  return db
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
      ...extra,
    })
    .from(notifications)
    .innerJoin(equipment, eq(equipment.nodeid, notifications.equipmentnodeid))
    .leftJoin(equipmentTypes, eq(equipmentTypes.nodeid, equipment.equipmenttypenodeid))
    .leftJoin(brands, eq(brands.nodeid, equipmentTypes.brandnodeid))
    .leftJoin(equipmentPools, eq(equipmentPools.nodeid, equipment.equipmentpoolnodeid))
    .leftJoin(areas, eq(areas.nodeid, equipment.areanodeid))
    .leftJoin(users, eq(users.nodeid, notifications.authornodeid));
}

type NotificationRow = typeof notifications.$inferSelect;

interface NotificationWithMachineRow {
  n: NotificationRow;
  equipmentName: string;
  model: string | null;
  brand: string | null;
  poolId: string | null;
  poolName: Parameters<typeof localized>[0] | null;
  areaId: string | null;
  areaName: string | null;
  authorId: string | null;
  givenname: string | null;
  surname: string | null;
}

type NotificationWithMachine = Pick<Notification, 'nodeid' | 'type' | 'status' | 'title' | 'description' | 'errorcode' | 'created' | 'progressstarted' | 'closed' | 'dueuntil' | 'equipmentnodeid' | 'isnotificationof' | 'hasauthor'>;

/** The payload fields the details and the list items share, from a row of selectNotificationsWithMachine: the notification, its machine (`isnotificationof`) and its author (`hasauthor`). */
export function notificationWithMachineOf(row: NotificationWithMachineRow, lang: string): NotificationWithMachine {
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
      pool: row.poolId && row.poolName ? { nodeid: row.poolId, name: localized(row.poolName, lang) ?? '' } : null,
      area: row.areaId && row.areaName !== null ? { nodeid: row.areaId, name: row.areaName } : null,
    },
    hasauthor: row.authorId && row.givenname !== null && row.surname !== null ? { nodeid: row.authorId, givenname: row.givenname, surname: row.surname } : null,
  };
}
