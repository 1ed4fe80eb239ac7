import { and, asc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { AttachmentTargetKind } from '../../shared/domain/attachment';
import type { Tx } from '../db/client';
import {
  areas,
  attachments,
  brands,
  chatMessages,
  chatRoomMembers,
  chatRooms,
  costs,
  counterReadings,
  counters,
  equipment,
  equipmentPools,
  equipmentTypes,
  faqs,
  maintenanceTasks,
  notificationAssignments,
  notifications,
  reports,
  shiftModels,
  shifts,
  sites,
  structureSubscriptions,
  workflowSteps,
  workflows,
} from '../db/schema';
import { privateUserColumn, recordTombstoneList, type DeletedRow, type WriteVersion } from './change-feed';
import type { TenantTable } from './structure-common';

/**
 * What exists only through another record, declared once. Deleting a record deletes everything it owns,
 * transitively, each row leaving a tombstone of its kind so devices drop it too. What merely points at a record
 * is not owned and stays for the service to handle: machines of a deleted area or pool are unlinked, a counter's
 * tasks lose their trigger, shift plans are shared by reference and go only when no one uses them any more.
 */

/** The kinds a delete can reach, by tombstone kind (the table name, as the change feed reports deletes). */
const TABLES = {
  sites,
  areas,
  equipment_pools: equipmentPools,
  structure_subscriptions: structureSubscriptions,
  shift_models: shiftModels,
  shifts,
  brands,
  equipment_types: equipmentTypes,
  equipment,
  notifications,
  maintenance_tasks: maintenanceTasks,
  counters,
  counter_readings: counterReadings,
  faqs,
  workflows,
  workflow_steps: workflowSteps,
  reports,
  costs,
  notification_assignments: notificationAssignments,
  chat_rooms: chatRooms,
  chat_room_members: chatRoomMembers,
  chat_messages: chatMessages,
  attachments,
} satisfies Record<string, TenantTable>;

export type OwnedKind = keyof typeof TABLES;

/** A row of `kind` belongs to the `owner` record its `column` names (when `only` holds too). */
interface Owner {
  owner: OwnedKind;
  column: PgColumn;
  only?: SQL;
}

const by = (owner: OwnedKind, column: PgColumn): Owner => ({ owner, column });

// why typed as a full record: a new attachment target must say here whose delete takes its attachments along.
const ATTACHMENT_OWNERS: Record<AttachmentTargetKind, OwnedKind> = {
  equipment: 'equipment',
  equipmenttype: 'equipment_types',
  notification: 'notifications',
  workflowstep: 'workflow_steps',
  faq: 'faqs',
  report: 'reports',
  maintenancetask: 'maintenance_tasks',
};

/**
 * Every kind with its owners; a kind comes after all kinds that own it, so collecting runs down this list and
 * deleting runs up it (what is owned goes before its owner, so no foreign key cascade removes a row unseen).
 */
const OWNERSHIP: readonly { kind: OwnedKind; ownedBy: readonly Owner[] }[] = [
  { kind: 'sites', ownedBy: [] },
  { kind: 'areas', ownedBy: [by('sites', areas.sitenodeid)] },
  { kind: 'equipment_pools', ownedBy: [] },
  {
    kind: 'structure_subscriptions',
    ownedBy: [by('sites', structureSubscriptions.sitenodeid), by('areas', structureSubscriptions.areanodeid), by('equipment_pools', structureSubscriptions.equipmentpoolnodeid)],
  },
  { kind: 'shift_models', ownedBy: [] },
  { kind: 'shifts', ownedBy: [by('shift_models', shifts.shiftmodelnodeid)] },
  { kind: 'brands', ownedBy: [] },
  { kind: 'equipment_types', ownedBy: [by('brands', equipmentTypes.brandnodeid)] },
  { kind: 'equipment', ownedBy: [] },
  { kind: 'notifications', ownedBy: [by('equipment', notifications.equipmentnodeid)] },
  { kind: 'maintenance_tasks', ownedBy: [by('equipment', maintenanceTasks.equipmentnodeid)] },
  { kind: 'counters', ownedBy: [by('equipment', counters.equipmentnodeid)] },
  { kind: 'counter_readings', ownedBy: [by('counters', counterReadings.counternodeid)] },
  { kind: 'faqs', ownedBy: [by('equipment', faqs.equipmentnodeid), by('equipment_types', faqs.equipmenttypenodeid)] },
  { kind: 'workflows', ownedBy: [by('notifications', workflows.notificationnodeid), by('maintenance_tasks', workflows.maintenancetasknodeid)] },
  { kind: 'workflow_steps', ownedBy: [by('workflows', workflowSteps.workflownodeid)] },
  { kind: 'reports', ownedBy: [by('notifications', reports.notificationnodeid)] },
  { kind: 'costs', ownedBy: [by('notifications', costs.notificationnodeid), by('reports', costs.reportnodeid), by('maintenance_tasks', costs.maintenancetasknodeid)] },
  { kind: 'notification_assignments', ownedBy: [by('notifications', notificationAssignments.notificationnodeid)] },
  { kind: 'chat_rooms', ownedBy: [by('notifications', chatRooms.notificationnodeid)] },
  { kind: 'chat_room_members', ownedBy: [by('chat_rooms', chatRoomMembers.chatroomnodeid)] },
  { kind: 'chat_messages', ownedBy: [by('chat_rooms', chatMessages.chatroomnodeid)] },
  {
    kind: 'attachments',
    ownedBy: Object.entries(ATTACHMENT_OWNERS).map(([targetkind, owner]) => ({ owner, column: attachments.isattachmentof, only: eq(attachments.targetkind, targetkind as AttachmentTargetKind) })),
  },
];

/** The nodeids a delete removed, per kind (empty for kinds it did not reach). */
export type DeletedRows = Record<OwnedKind, string[]>;

/**
 * Deletes the records `nodeids` of `kind` (of the tenant `le`) with everything they own, and records a tombstone
 * for each row. Every row is locked while it is collected, so nothing can be added under a record between finding
 * and deleting it. `version`: the write's version when it took one already (it stamps other rows too, as a delete
 * that unlinks machines does); `'next'`: the tenant's next version, taken after every row is locked and deleted, in
 * the one statement that records the tombstones. So a delete holds the version's lock for that statement alone,
 * and it locks its rows before the version as every other write does: no lock cycle with a change of one of them
 * (docs/decisions.md "Write: the version late"). Ids go as one array parameter each, so a record owning more rows
 * than a statement takes parameters (a counter with years of readings) is deleted too. Answers the deleted rows and
 * the version.
 */
export async function deleteWithOwned(tx: Tx, le: string, kind: OwnedKind, nodeids: readonly string[], version: WriteVersion): Promise<{ deleted: DeletedRows; version: number }> {
  const found = Object.fromEntries(OWNERSHIP.map((entry) => [entry.kind, [] as string[]])) as DeletedRows;
  const ids = async (table: TenantTable, where: SQL | undefined) =>
    // why ordered: rows locked in one order (by id) by every write that locks several, so two never wait on each other.
    (await tx.select({ nodeid: table.nodeid }).from(table).where(and(eq(table.legalentitynodeid, le), where)).orderBy(asc(table.nodeid)).for('update')).map((row) => row.nodeid as string);

  if (nodeids.length > 0) found[kind] = await ids(TABLES[kind], anyOf(TABLES[kind].nodeid, nodeids));
  for (const { kind: owned, ownedBy } of OWNERSHIP) {
    const links = ownedBy.filter((link) => found[link.owner].length > 0).map((link) => and(anyOf(link.column, found[link.owner]), link.only));
    if (links.length === 0) continue;
    found[owned] = [...new Set([...found[owned], ...(await ids(TABLES[owned], or(...links)))])];
  }

  const deleted = Object.fromEntries(OWNERSHIP.map((entry) => [entry.kind, [] as string[]])) as DeletedRows;
  const gone: DeletedRow[] = [];
  for (const { kind: owned } of [...OWNERSHIP].reverse()) {
    if (found[owned].length === 0) continue;
    const table: TenantTable = TABLES[owned];
    const user = privateUserColumn(table);
    const rows = await tx
      .delete(table)
      .where(and(eq(table.legalentitynodeid, le), anyOf(table.nodeid, found[owned])))
      .returning({ nodeid: table.nodeid, ...(user ? { usernodeid: user } : {}) });
    deleted[owned] = rows.map((row) => row.nodeid as string);
    gone.push(...rows.map((row): DeletedRow => ({ kind: owned, nodeid: row.nodeid as string, usernodeid: (row.usernodeid as string | undefined) ?? null })));
  }
  return { deleted, version: await recordTombstoneList(tx, le, gone, version) };
}

/** `column = any($ids)`: one array parameter however many ids (`inArray` sends one parameter per id). */
function anyOf(column: PgColumn, ids: readonly string[]): SQL {
  return sql`${column} = any(${sql.param([...ids])}::uuid[])`;
}
