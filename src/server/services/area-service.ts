import { and, asc, eq, inArray } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Area } from '../../shared/api/areas';
import type { MutationParsed } from '../../shared/mutations/mutation';
import { createArea as createMutation, updateArea as updateMutation } from '../../shared/mutations/structure';
import type { AreaRow as AreaRowShape } from '../../shared/rows/structure';
import { follows, selectionOf } from '../../shared/domain/subscription';
import type { Db, Tx } from '../db/client';
import { areas, equipment, sites, structureSubscriptions } from '../db/schema';
import { lockMachinesOf, planAssignments, type Mover } from './assign-service';
import { nextVersion } from './change-feed';
import { deleteWithOwned } from './ownership';
import { appendHistory, writeChangedFields } from './record-history';
import { applyContext, toColumnValues, toRowShape } from './rows';
import { writeTransaction, type Actor, type ServiceContext } from './service-context';
import { assertShiftRowIdsFree, insertShiftModel, lockShiftModels, shiftsOfModels } from './shiftmodel-service';
import { existingForCreate, lockOwnRow, lockParent, notFoundError, ofTenant } from './structure-common';
import { subscribe } from './subscription-service';

const KIND = 'areas';
type AreaRow = typeof areas.$inferSelect;

export async function listAreas(db: Db, actor: Actor): Promise<Area[]> {
  const rows = await db.select().from(areas).where(eq(areas.legalentitynodeid, actor.legalentitynodeid)).orderBy(asc(areas.name), asc(areas.nodeid));
  return toAreas(db, actor, rows);
}

export async function getArea(db: Db | Tx, actor: Actor, nodeid: string): Promise<Area> {
  const [row] = await db.select().from(areas).where(ofTenant(areas, actor, nodeid));
  if (!row) throw notFoundError('Area');
  const [area] = await toAreas(db, actor, [row]);
  return area!;
}

/**
 * createArea (spec part 2 §7): the row the declaration computes (src/shared/mutations/structure.ts), optionally
 * its shift plan, the machines of `assign.payload` moved into it, and with `isSiteSubs` the creator's subscription
 * to it — one transaction, one version. The plant must be the caller's (404 otherwise).
 */
export async function createArea(ctx: ServiceContext, actor: Mover, args: MutationParsed<typeof createMutation>): Promise<AreaRowShape> {
  const input = args.body;
  const le = actor.legalentitynodeid;
  const nodeid = input.nodeid ?? uuidv7();
  return writeTransaction(ctx, 'area.create', async (tx) => {
    if (!(await lockParent(tx, sites, actor, input.sitenodeid))) throw notFoundError('Site');
    const fields = toColumnValues(areas, createMutation.apply!(undefined, args, applyContext(actor))) as Partial<AreaRow>;
    const [existing] = await tx.select().from(areas).where(eq(areas.nodeid, nodeid));
    const same = await existingForCreate(tx, actor, KIND, nodeid, existing, (row) => row.name === fields.name && row.sitenodeid === fields.sitenodeid && row.areaid === fields.areaid);
    if (same) return areaRow(same);

    const assignment = input.assign ? await planAssignments(tx, actor, input.assign.payload, { type: 'area', nodeid }) : undefined;
    if (input.shifts) await assertShiftRowIdsFree(tx, le, input.shifts);
    const version = await nextVersion(tx, le);
    let shiftmodelnodeid: string | null = null;
    if (input.shifts && input.shifts.length > 0) {
      shiftmodelnodeid = uuidv7();
      await insertShiftModel(tx, le, shiftmodelnodeid, input.shifts, version);
    }
    const [inserted] = await tx
      .insert(areas)
      .values({ ...(fields as typeof areas.$inferInsert), nodeid, legalentitynodeid: le, shiftmodelnodeid, version })
      .returning();
    await assignment?.write(version);
    if (input.isSiteSubs) await subscribeToArea(tx, actor, input.sitenodeid, nodeid, version);
    return areaRow(inserted!);
  });
}

/** The creator sees the new area on the dashboard, unless the whole plant is followed already. */
async function subscribeToArea(tx: Tx, actor: Actor, sitenodeid: string, areanodeid: string, version: number): Promise<void> {
  const le = actor.legalentitynodeid;
  const own = await tx
    .select()
    .from(structureSubscriptions)
    .where(and(eq(structureSubscriptions.legalentitynodeid, le), eq(structureSubscriptions.usernodeid, actor.usernodeid)));
  const target = { type: 'area', nodeid: areanodeid } as const;
  if (follows(selectionOf(own), target, sitenodeid)) return;
  await subscribe(tx, le, actor.usernodeid, target, version);
}

/** updateArea: the declaration's change on the locked row, only the fields sent; the overwritten values go to the record history. */
export async function updateArea(ctx: ServiceContext, actor: Actor, args: MutationParsed<typeof updateMutation>): Promise<AreaRowShape> {
  const nodeid = args.params.id;
  return writeTransaction(ctx, 'area.update', async (tx) => {
    const current = await lockOwnRow(tx, areas, actor, nodeid, () => notFoundError('Area'), 'change');
    const patch = toColumnValues(areas, updateMutation.apply!(toRowShape(current), args, applyContext(actor))) as Partial<AreaRow>;
    return areaRow((await writeChangedFields(tx, actor, { table: areas, kind: KIND, nodeid, current, patch, where: ofTenant(areas, actor, nodeid) })) ?? current);
  });
}

/**
 * deleteArea {areanodeid}: its machines stay, unlinked from it ('Nicht verknüpfte Geräte' unless they are in a
 * pool) and get the new version; subscriptions to it and its shift plan go, each with a tombstone.
 */
export async function deleteArea(ctx: ServiceContext, actor: Actor, nodeid: string): Promise<{ nodeid: string; version: number }> {
  const le = actor.legalentitynodeid;
  return writeTransaction(ctx, 'area.delete', async (tx) => {
    // why the rows first and the version last: see deleteEquipment (equipment-service.ts).
    const area = await lockOwnRow(tx, areas, actor, nodeid, () => notFoundError('Area'), 'delete');
    const machines = await lockMachinesOf(tx, actor, 'area', [nodeid]);
    const plan = await lockShiftModels(tx, le, [area.shiftmodelnodeid]);
    const { version } = await deleteWithOwned(tx, le, KIND, [nodeid], 'next');
    await machines.unlink(version);
    await plan.deleteOrphaned(version);
    await appendHistory(tx, actor, { kind: KIND, nodeid, version, changes: {}, context: { deleted: true, name: area.name, sitenodeid: area.sitenodeid } });
    return { nodeid, version };
  });
}

/** The area's row (src/shared/rows/structure.ts): what its writes answer. */
function areaRow(row: AreaRow): AreaRowShape {
  return toRowShape(row) as AreaRowShape;
}

async function toAreas(db: Db | Tx, actor: Actor, rows: AreaRow[]): Promise<Area[]> {
  if (rows.length === 0) return [];
  const le = actor.legalentitynodeid;
  const ids = rows.map((r) => r.nodeid);
  const siteRows = await db.select({ nodeid: sites.nodeid, name: sites.name }).from(sites).where(and(eq(sites.legalentitynodeid, le), inArray(sites.nodeid, [...new Set(rows.map((r) => r.sitenodeid))])));
  const machines = await db
    .select({ nodeid: equipment.nodeid, name: equipment.name, equipmentid: equipment.equipmentid, areanodeid: equipment.areanodeid })
    .from(equipment)
    .where(and(eq(equipment.legalentitynodeid, le), inArray(equipment.areanodeid, ids)))
    .orderBy(asc(equipment.name), asc(equipment.nodeid));
  const shiftRows = await shiftsOfModels(db, le, rows.flatMap((r) => (r.shiftmodelnodeid ? [r.shiftmodelnodeid] : [])));
  const siteNames = new Map(siteRows.map((s) => [s.nodeid, s.name]));
  return rows.map((row) => ({
    nodeid: row.nodeid,
    name: row.name,
    areaid: row.areaid,
    sitenodeid: row.sitenodeid,
    sitename: siteNames.get(row.sitenodeid) ?? '',
    hasequipment: machines.filter((m) => m.areanodeid === row.nodeid).map(({ nodeid, name, equipmentid }) => ({ nodeid, name, equipmentid })),
    hasshiftmodel: row.shiftmodelnodeid ? { nodeid: row.shiftmodelnodeid, shifts: shiftRows.get(row.shiftmodelnodeid) ?? [] } : null,
    version: row.version,
  }));
}
