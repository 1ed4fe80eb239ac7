import { and, asc, eq, inArray } from 'drizzle-orm';
import type { AssignEquipments, AssignItem, DeleteEquipmentOf } from '../../shared/api/assign';
import { moveLinks, type EquipmentLinks, type LinkType } from '../../shared/domain/assignment';
import { can, type PermissionSubject } from '../../shared/permissions';
import type { EquipmentRow } from '../../shared/rows/equipment';
import type { Tx } from '../db/client';
import { equipment, tombstones } from '../db/schema';
import { badRequest, forbidden, notFound } from '../http-errors';
import { nextVersion } from './change-feed';
import { appendHistory } from './record-history';
import { toRowShape } from './rows';
import { writeTransaction, type Actor, type ServiceContext } from './service-context';
import { classifyTargets, ofTenant } from './structure-common';

const TARGET_NOT_FOUND = 'Area or equipment pool not found';

/** The tombstone kind (table name) of each link type's container. */
const CONTAINER_KIND: Record<LinkType, string> = { area: 'areas', pool: 'equipment_pools' };

/** A machine's row as the change feed sends it (src/shared/rows/equipment.ts); the links are what this service writes. */
type MachineRow = EquipmentRow;

/** Who moves machines: whether they may depends on their permissions (planAssignments). */
export type Mover = Actor & PermissionSubject;

/**
 * POST /api/assign/equipments: the selection dialog's save, in one transaction and one change version. Answers the
 * row of each machine the payload names (src/shared/rows: the change feed's equipment row), in payload order.
 */
export async function assignEquipments(ctx: ServiceContext, actor: Mover, input: AssignEquipments): Promise<MachineRow[]> {
  return writeTransaction(ctx, 'equipment.assign', async (tx) => {
    const plan = await planAssignments(tx, actor, input.payload);
    if (plan.machineIds.length === 0) return [];
    // why no version when nothing moves: a resend of the dialog's save changes no row, so no device needs to pull.
    if (plan.changed) await plan.write(await nextVersion(tx, actor.legalentitynodeid));
    const rows = await tx
      .select()
      .from(equipment)
      .where(and(eq(equipment.legalentitynodeid, actor.legalentitynodeid), inArray(equipment.nodeid, plan.machineIds)));
    const byId = new Map(rows.map((row) => [row.nodeid, toRowShape(row) as MachineRow]));
    return plan.machineIds.map((nodeid) => byId.get(nodeid)!);
  });
}

/** What planAssignments found: the machines the payload names, whether any link changes, and the write. */
export interface AssignmentPlan {
  /** Every machine the payload names, once each, in payload order. */
  machineIds: string[];
  /** Whether any machine's links change. */
  changed: boolean;
  /** Writes the changed links with `version` and a history row for each machine that moves. */
  write(version: number): Promise<void>;
}

/**
 * The moving semantics of spec part 2 §4 (`moveLinks`, the rule the device's mirror applies too), inside the
 * caller's transaction: per entry, first each `deleteequipmentof` link is removed if the machine still has it,
 * then `isequipmentof` (or `defaultTarget` for an entry without one) replaces the machine's area or pool link.
 * Entries for the same machine apply in order. Unknown machines or targets (including another tenant's), those to
 * link to and those to unlink from, are 404 and nothing is written; only an unlink from an area or pool the tenant
 * deleted is no error (assertRemovalsKnown). `defaultTarget` may be a container the same write is creating (an area or pool with its
 * first machines): it counts as known.
 *
 * Planning locks the areas and pools the machines move to (key share), then the machines (no key update: a quick
 * report on one still gets its key-share lock): containers before machines, as their deletes lock them. The caller
 * takes the tenant's version after every lock, so a change of one of these machines or a delete of one of these
 * containers never waits on this write in a circle (docs/decisions.md "Write: the version late").
 *
 * `decided`: the links of machines the caller's write has settled before the version — the machines it creates,
 * which are not in the database yet, and in an import those an earlier item moved (locked already). Their links are
 * taken from there instead of the database, and the plan records its own result there.
 *
 * Moving a machine that exists already changes that machine, so it needs `equipment` update (403 otherwise),
 * whichever write carries the move: the selection dialog's route declares it, and the creates of an area, a pool or
 * a machine carry an `assign.payload` under their own create permission. Machines of `decided` are the caller's own
 * write's (created by it, or moved by an earlier item that was checked).
 */
export async function planAssignments(
  tx: Tx,
  actor: Mover,
  items: readonly AssignItem[],
  defaultTarget?: { type: LinkType; nodeid: string },
  decided?: Map<string, EquipmentLinks>,
): Promise<AssignmentPlan> {
  if (items.length === 0) return { machineIds: [], changed: false, write: () => Promise.resolve() };
  const le = actor.legalentitynodeid;
  const machineIds = [...new Set(items.map((i) => i.equipmentnodeid))];
  const stored = machineIds.filter((nodeid) => !decided?.has(nodeid));
  if (stored.length > 0 && !can(actor, 'equipment', 'update')) throw forbidden();
  // The areas and pools before the machines, as a delete of an area or pool locks it before its machines.
  const named = items.flatMap((i) => (i.isequipmentof && i.isequipmentof !== defaultTarget?.nodeid ? [i.isequipmentof] : []));
  const removals = items.flatMap((i) => i.deleteequipmentof.filter((removal) => removal.nodeid !== defaultTarget?.nodeid));
  const targets = await classifyTargets(tx, actor, [...named, ...removals.map((removal) => removal.nodeid)]);
  const rows =
    stored.length === 0
      ? []
      : await tx
          .select({ nodeid: equipment.nodeid, areanodeid: equipment.areanodeid, equipmentpoolnodeid: equipment.equipmentpoolnodeid })
          .from(equipment)
          .where(and(eq(equipment.legalentitynodeid, le), inArray(equipment.nodeid, stored)))
          .orderBy(asc(equipment.nodeid)) // several rows are locked in one order (by id) everywhere: see deleteWithOwned
          .for('no key update');
  if (rows.length !== stored.length) throw notFound('Equipment not found');
  const unknown = new Set(targets.unknown);
  if (named.some((nodeid) => unknown.has(nodeid))) throw notFound(TARGET_NOT_FOUND);
  await assertRemovalsKnown(tx, actor, removals, targets);
  if (defaultTarget) (defaultTarget.type === 'area' ? targets.areas : targets.pools).add(defaultTarget.nodeid);

  const before = new Map<string, EquipmentLinks>([
    ...rows.map((r): [string, EquipmentLinks] => [r.nodeid, { areanodeid: r.areanodeid, equipmentpoolnodeid: r.equipmentpoolnodeid }]),
    ...machineIds.flatMap((nodeid): [string, EquipmentLinks][] => (decided?.has(nodeid) ? [[nodeid, decided.get(nodeid)!]] : [])),
  ]);
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
  for (const [nodeid, links] of after) decided?.set(nodeid, links);
  const changed = [...after].filter(([nodeid, links]) => {
    const old = before.get(nodeid)!;
    return old.areanodeid !== links.areanodeid || old.equipmentpoolnodeid !== links.equipmentpoolnodeid;
  });

  const write = async (version: number) => {
    const now = new Date();
    for (const [nodeid, links] of changed) {
      const old = before.get(nodeid)!;
      await tx.update(equipment).set({ ...links, version, updatedAt: now }).where(ofTenant(equipment, actor, nodeid));
      const changes: Record<string, { old: unknown; new: unknown }> = {};
      if (old.areanodeid !== links.areanodeid) changes.areanodeid = { old: old.areanodeid, new: links.areanodeid };
      if (old.equipmentpoolnodeid !== links.equipmentpoolnodeid) changes.equipmentpoolnodeid = { old: old.equipmentpoolnodeid, new: links.equipmentpoolnodeid };
      await appendHistory(tx, actor, { kind: 'equipment', nodeid, version, changes });
    }
  };
  return { machineIds, changed: changed.length > 0, write };
}

/**
 * Each `deleteequipmentof` target must be an area or pool (of the type it names) of the caller's tenant, else 404 as
 * for `isequipmentof`: an id that never was one, or another tenant's, is a wrong request, not "nothing to remove".
 * One the tenant deleted is known (its tombstone): the device's queued move names the old link its mirror shows, and
 * a colleague may have deleted that area or pool since; its machines lost the link with it, so removing it is
 * nothing, and the move must not be refused for ever.
 */
async function assertRemovalsKnown(tx: Tx, actor: Actor, removals: readonly DeleteEquipmentOf[], targets: { areas: Set<string>; pools: Set<string> }): Promise<void> {
  const missing = removals.filter((removal) => !(removal.type === 'area' ? targets.areas : targets.pools).has(removal.nodeid));
  if (missing.length === 0) return;
  const deleted = await tx
    .select({ kind: tombstones.kind, nodeid: tombstones.nodeid })
    .from(tombstones)
    .where(
      and(
        eq(tombstones.legalentitynodeid, actor.legalentitynodeid),
        inArray(tombstones.kind, Object.values(CONTAINER_KIND)),
        inArray(tombstones.nodeid, [...new Set(missing.map((removal) => removal.nodeid))]),
      ),
    );
  const gone = new Set(deleted.map((row) => `${row.kind}/${row.nodeid}`));
  if (missing.some((removal) => !gone.has(`${CONTAINER_KIND[removal.type]}/${removal.nodeid}`))) throw notFound(TARGET_NOT_FOUND);
}

/**
 * The machines linked to the areas or pools `containerIds`, locked (no key update) before a delete of those
 * containers takes the tenant's version; `unlink(version)` then takes the link away from each, stamps it with
 * the version (so devices learn they moved) and writes a history row with the old link. It unlinks by machine id:
 * the container's own delete may have cleared the column already (on delete set null), without a version.
 */
export async function lockMachinesOf(tx: Tx, actor: Actor, type: 'area' | 'pool', containerIds: readonly string[]): Promise<{ unlink(version: number): Promise<void> }> {
  const le = actor.legalentitynodeid;
  const column = type === 'area' ? equipment.areanodeid : equipment.equipmentpoolnodeid;
  const field = type === 'area' ? 'areanodeid' : 'equipmentpoolnodeid';
  const machines =
    containerIds.length === 0
      ? []
      : await tx
          .select({ nodeid: equipment.nodeid, from: column })
          .from(equipment)
          .where(and(eq(equipment.legalentitynodeid, le), inArray(column, [...containerIds])))
          .orderBy(asc(equipment.nodeid)) // the order planAssignments locks them in
          .for('no key update');
  const unlink = async (version: number) => {
    if (machines.length === 0) return;
    await tx
      .update(equipment)
      .set({ [field]: null, version, updatedAt: new Date() })
      .where(and(eq(equipment.legalentitynodeid, le), inArray(equipment.nodeid, machines.map((machine) => machine.nodeid))));
    for (const machine of machines) {
      await appendHistory(tx, actor, { kind: 'equipment', nodeid: machine.nodeid, version, changes: { [field]: { old: machine.from, new: null } } });
    }
  };
  return { unlink };
}
