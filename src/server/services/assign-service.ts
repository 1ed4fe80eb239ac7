import { and, eq, inArray } from 'drizzle-orm';
import type { AssignEquipments, AssignItem } from '../../shared/api/assign';
import { moveLinks, type EquipmentLinks, type LinkType } from '../../shared/domain/assignment';
import type { EquipmentRow } from '../../shared/rows/equipment';
import type { Tx } from '../db/client';
import { equipment } from '../db/schema';
import { badRequest, notFound } from '../http-errors';
import { nextVersion } from './change-feed';
import { appendHistory } from './record-history';
import { toRowShape } from './rows';
import { writeTransaction, type Actor, type ServiceContext } from './service-context';
import { classifyTargets, ofTenant } from './structure-common';

/** A machine's row as the change feed sends it (src/shared/rows/equipment.ts); the links are what this service writes. */
type MachineRow = EquipmentRow;

/**
 * POST /api/assign/equipments: the selection dialog's save, in one transaction and one change version. Answers the
 * row of each machine the payload names (src/shared/rows: the change feed's equipment row), in payload order.
 */
export async function assignEquipments(ctx: ServiceContext, actor: Actor, input: AssignEquipments): Promise<MachineRow[]> {
  return writeTransaction(ctx, 'equipment.assign', async (tx) => {
    const version = await nextVersion(tx, actor.legalentitynodeid);
    const machineIds = await applyAssignments(tx, actor, input.payload, version);
    if (machineIds.length === 0) return [];
    const rows = await tx
      .select()
      .from(equipment)
      .where(and(eq(equipment.legalentitynodeid, actor.legalentitynodeid), inArray(equipment.nodeid, machineIds)));
    const byId = new Map(rows.map((row) => [row.nodeid, toRowShape(row) as MachineRow]));
    return machineIds.map((nodeid) => byId.get(nodeid)!);
  });
}

/**
 * The moving semantics of spec part 2 §4 (`moveLinks`, the rule the device's mirror applies too), inside the
 * caller's transaction: per entry, first each `deleteequipmentof` link is removed if the machine still has it,
 * then `isequipmentof` (or `defaultTarget` for an entry without one) replaces the machine's area or pool link.
 * Entries for the same machine apply in order. Returns the machines the payload names, each once, in payload
 * order; those that changed get `version` and a record-history row with the old links. Unknown machines or
 * targets (including another tenant's) are 404 and nothing is written.
 */
export async function applyAssignments(tx: Tx, actor: Actor, items: readonly AssignItem[], version: number, defaultTarget?: { type: LinkType; nodeid: string }): Promise<string[]> {
  if (items.length === 0) return [];
  const le = actor.legalentitynodeid;
  const machineIds = [...new Set(items.map((i) => i.equipmentnodeid))];
  const rows = await tx
    .select({ nodeid: equipment.nodeid, areanodeid: equipment.areanodeid, equipmentpoolnodeid: equipment.equipmentpoolnodeid })
    .from(equipment)
    .where(and(eq(equipment.legalentitynodeid, le), inArray(equipment.nodeid, machineIds)))
    .for('update');
  if (rows.length !== machineIds.length) throw notFound('Equipment not found');

  const targets = await classifyTargets(tx, actor, items.flatMap((i) => (i.isequipmentof ? [i.isequipmentof] : [])));
  if (targets.unknown.length > 0) throw notFound('Area or equipment pool not found');

  const before = new Map<string, EquipmentLinks>(rows.map((r) => [r.nodeid, { areanodeid: r.areanodeid, equipmentpoolnodeid: r.equipmentpoolnodeid }]));
  const after = new Map(before);
  items.forEach((item, index) => {
    if (item.isequipmentof === undefined && !defaultTarget && item.deleteequipmentof.length === 0) {
      throw badRequest('Invalid body: payload.isequipmentof: Required', [{ field: `payload.${index}.isequipmentof`, message: 'Required' }]);
    }
    const target = item.isequipmentof
      ? { type: targets.areas.has(item.isequipmentof) ? ('area' as const) : ('pool' as const), nodeid: item.isequipmentof }
      : item.isequipmentof === undefined
        ? defaultTarget
        : undefined;
    after.set(item.equipmentnodeid, moveLinks(after.get(item.equipmentnodeid)!, item.deleteequipmentof, target));
  });

  const now = new Date();
  for (const [nodeid, links] of after) {
    const old = before.get(nodeid)!;
    if (old.areanodeid === links.areanodeid && old.equipmentpoolnodeid === links.equipmentpoolnodeid) continue;
    await tx.update(equipment).set({ ...links, version, updatedAt: now }).where(ofTenant(equipment, actor, nodeid));
    const changes: Record<string, { old: unknown; new: unknown }> = {};
    if (old.areanodeid !== links.areanodeid) changes.areanodeid = { old: old.areanodeid, new: links.areanodeid };
    if (old.equipmentpoolnodeid !== links.equipmentpoolnodeid) changes.equipmentpoolnodeid = { old: old.equipmentpoolnodeid, new: links.equipmentpoolnodeid };
    await appendHistory(tx, { legalentitynodeid: le, kind: 'equipment', nodeid, version, changes, usernodeid: actor.usernodeid });
  }
  return machineIds;
}

/**
 * Before an area or pool goes: its machines lose that link, get `version` (so devices learn they moved) and a
 * history row with the old link.
 */
export async function unlinkMachinesOf(tx: Tx, actor: Actor, type: 'area' | 'pool', containerIds: readonly string[], version: number): Promise<void> {
  if (containerIds.length === 0) return;
  const le = actor.legalentitynodeid;
  const column = type === 'area' ? equipment.areanodeid : equipment.equipmentpoolnodeid;
  const field = type === 'area' ? 'areanodeid' : 'equipmentpoolnodeid';
  const machines = await tx
    .select({ nodeid: equipment.nodeid, from: column })
    .from(equipment)
    .where(and(eq(equipment.legalentitynodeid, le), inArray(column, [...containerIds])));
  if (machines.length === 0) return;
  await tx
    .update(equipment)
    .set({ [field]: null, version, updatedAt: new Date() })
    .where(and(eq(equipment.legalentitynodeid, le), inArray(column, [...containerIds])));
  for (const machine of machines) {
    await appendHistory(tx, { legalentitynodeid: le, kind: 'equipment', nodeid: machine.nodeid, version, changes: { [field]: { old: machine.from, new: null } }, usernodeid: actor.usernodeid });
  }
}
