import { and, asc, eq, exists, inArray, isNotNull, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { CreateShiftModel, Shift, ShiftModel, UpdateShiftModel } from '../../shared/api/shiftmodels';
import { endsNextDay, formatTimeOfDay, parseTimeOfDay } from '../../shared/domain/shift';
import { can, type PermissionSubject } from '../../shared/permissions';
import type { ShiftModelRow } from '../../shared/rows/structure';
import type { Db, Tx } from '../db/client';
import { areas, equipment, recordHistory, shiftModels, shifts, tombstones } from '../db/schema';
import { forbidden, idDeleted, idInUse } from '../http-errors';
import { nextVersion, recordTombstones } from './change-feed';
import { deleteWithOwned } from './ownership';
import { appendHistory } from './record-history';
import { toRowShape } from './rows';
import { writeTransaction, type Actor, type ServiceContext } from './service-context';
import { deletedIds, existingForCreate, notFoundError, ofTenant } from './structure-common';

type ShiftRowInput = CreateShiftModel['shifts'][number];
type ShiftDbRow = typeof shifts.$inferSelect;
type Owner = { type: 'area' | 'equipment'; nodeid: string; shiftmodelnodeid: string | null };
type Caller = Actor & PermissionSubject;

const MODEL_KIND = 'shift_models';
const ROW_KIND = 'shifts';

export function toShift(row: Pick<ShiftDbRow, 'nodeid' | 'startminute' | 'endminute' | 'weekdays' | 'unmanned'>): Shift {
  return {
    nodeid: row.nodeid,
    start: formatTimeOfDay(row.startminute),
    end: formatTimeOfDay(row.endminute),
    weekdays: [...row.weekdays],
    unmanned: row.unmanned,
    endsnextday: endsNextDay(row.startminute, row.endminute),
  };
}

/** The rows of the given models, in editor order, by model. */
export async function shiftsOfModels(db: Db | Tx, le: string, modelIds: readonly string[]): Promise<Map<string, Shift[]>> {
  const byModel = new Map<string, Shift[]>();
  if (modelIds.length === 0) return byModel;
  const rows = await db
    .select()
    .from(shifts)
    .where(and(eq(shifts.legalentitynodeid, le), inArray(shifts.shiftmodelnodeid, [...new Set(modelIds)])))
    .orderBy(asc(shifts.position), asc(shifts.nodeid));
  for (const row of rows) byModel.set(row.shiftmodelnodeid, [...(byModel.get(row.shiftmodelnodeid) ?? []), toShift(row)]);
  return byModel;
}

/**
 * The device chooses a row's id, like every record's: an id another shift row has — another tenant's, or a row of
 * another plan — is refused (409 naming the row, as every client-chosen id, docs/security.md § Bad input), never
 * left to the primary key. A row the tenant deleted stays deleted (410 naming the row, as a deleted record's id,
 * docs/api.md § Conventions): one id must not name a row of a deleted plan and then a row of another. `own`: for a
 * change of an existing plan, its id and the ids of its rows the change keeps; a row a PUT of that same plan removed
 * may come back (a device that read the plan before sends it again, and the last write wins). Called before the
 * write takes its version. Ids of records of other kinds are not shift rows and stay usable, as for every other kind.
 */
export async function assertShiftRowIdsFree(tx: Tx, le: string, rows: readonly ShiftRowInput[], own?: { modelId: string; kept: ReadonlySet<string> }): Promise<void> {
  const wanted = rows.flatMap((row, index) => (row.nodeid && !own?.kept.has(row.nodeid) ? [{ nodeid: row.nodeid, index }] : []));
  if (wanted.length === 0) return;
  const ids = wanted.map((row) => row.nodeid);
  const taken = new Set((await tx.select({ nodeid: shifts.nodeid }).from(shifts).where(inArray(shifts.nodeid, ids))).map((row) => row.nodeid));
  const first = wanted.find((row) => taken.has(row.nodeid));
  if (first) throw idInUse(`shifts.${first.index}.nodeid`);
  // why the history: a PUT records its tombstones and the plan's history entry under one version (updateShiftModel).
  const removedByThisPlan = own
    ? exists(
        tx
          .select({ one: sql`1` })
          .from(recordHistory)
          .where(and(eq(recordHistory.legalentitynodeid, le), eq(recordHistory.kind, MODEL_KIND), eq(recordHistory.nodeid, own.modelId), eq(recordHistory.version, tombstones.version))),
      )
    : undefined;
  const deleted = await deletedIds(tx, le, ROW_KIND, ids, removedByThisPlan);
  const firstDeleted = wanted.find((row) => deleted.has(row.nodeid));
  if (firstDeleted) throw idDeleted(`shifts.${firstDeleted.index}.nodeid`);
}

/** Inserts a model with its rows under `version` (inside the caller's transaction). */
export async function insertShiftModel(tx: Tx, le: string, nodeid: string, rows: readonly ShiftRowInput[], version: number): Promise<void> {
  await tx.insert(shiftModels).values({ nodeid, legalentitynodeid: le, version });
  await insertShiftRows(tx, le, nodeid, rows, version);
}

async function insertShiftRows(tx: Tx, le: string, modelId: string, rows: readonly ShiftRowInput[], version: number): Promise<void> {
  if (rows.length === 0) return;
  await tx.insert(shifts).values(
    rows.map((row, position) => ({
      nodeid: row.nodeid ?? uuidv7(),
      legalentitynodeid: le,
      shiftmodelnodeid: modelId,
      position,
      weekdays: [...row.weekdays],
      startminute: parseTimeOfDay(row.start)!,
      endminute: parseTimeOfDay(row.end)!,
      unmanned: row.unmanned,
      version,
    })),
  );
}

/**
 * POST /api/shiftmodels: a plan for the area or machine `shiftmodelof`. Editing an area's plan needs `site`
 * update, a machine's `equipment` update. An owner that has a plan gets the new one instead: the old one and
 * its rows are deleted with tombstones. A machine that gets its own plan stops taking the area's
 * (`useareashiftmodel` false). Answers the plan's row. The declaration's `apply` (createShifts) is not used here:
 * it only gives the device's mirror row the saved rows, which on the server are `shifts` rows of their own.
 */
export async function createShiftModel(ctx: ServiceContext, caller: Caller, input: CreateShiftModel): Promise<ShiftModelRow> {
  const le = caller.legalentitynodeid;
  const nodeid = input.nodeid ?? uuidv7();
  return writeTransaction(ctx, 'shiftmodel.create', async (tx) => {
    const owner = await findOwner(tx, le, input.shiftmodelof);
    if (!owner) throw notFoundError('Area or equipment');
    assertMayEdit(caller, owner);
    const [row] = await tx.select({ nodeid: shiftModels.nodeid, legalentitynodeid: shiftModels.legalentitynodeid }).from(shiftModels).where(eq(shiftModels.nodeid, nodeid));
    const same = await existingForCreate(tx, caller, MODEL_KIND, nodeid, row, () => owner.shiftmodelnodeid === nodeid);
    if (same) return shiftModelRow(tx, le, nodeid);
    await assertShiftRowIdsFree(tx, le, input.shifts);
    const replaced = await lockShiftModels(tx, le, [owner.shiftmodelnodeid]);
    const version = await nextVersion(tx, le);

    await insertShiftModel(tx, le, nodeid, input.shifts, version);
    await setOwnerModel(tx, caller, owner, nodeid, version);
    await replaced.deleteOrphaned(version);
    return shiftModelRow(tx, le, nodeid);
  });
}

/** PUT /api/shiftmodels/{id}: replaces the rows. Rows sent with a known nodeid keep it; rows not sent are deleted. */
export async function updateShiftModel(ctx: ServiceContext, caller: Caller, nodeid: string, input: UpdateShiftModel): Promise<ShiftModelRow> {
  const le = caller.legalentitynodeid;
  return writeTransaction(ctx, 'shiftmodel.update', async (tx) => {
    const [model] = await tx.select({ nodeid: shiftModels.nodeid }).from(shiftModels).where(ofTenant(shiftModels, caller, nodeid)).for('no key update'); // a change keeps the key: see lockOwnRow (structure-common.ts)
    if (!model) throw notFoundError('Shift model');
    const owner = await ownerOfModel(tx, le, nodeid);
    assertMayEdit(caller, owner);
    const current = await tx.select().from(shifts).where(and(eq(shifts.legalentitynodeid, le), eq(shifts.shiftmodelnodeid, nodeid)));
    const currentIds = new Set(current.map((r) => r.nodeid));
    const keptIds = new Set(input.shifts.flatMap((r) => (r.nodeid && currentIds.has(r.nodeid) ? [r.nodeid] : [])));
    await assertShiftRowIdsFree(tx, le, input.shifts, { modelId: nodeid, kept: keptIds });
    const version = await nextVersion(tx, le);

    const removed = current.filter((r) => !keptIds.has(r.nodeid)).map((r) => r.nodeid);
    if (removed.length > 0) await tx.delete(shifts).where(and(eq(shifts.legalentitynodeid, le), inArray(shifts.nodeid, removed)));
    for (const [position, row] of input.shifts.entries()) {
      const values = { position, weekdays: [...row.weekdays], startminute: parseTimeOfDay(row.start)!, endminute: parseTimeOfDay(row.end)!, unmanned: row.unmanned, version };
      if (row.nodeid && keptIds.has(row.nodeid)) {
        await tx.update(shifts).set({ ...values, updatedAt: new Date() }).where(ofTenant(shifts, caller, row.nodeid));
      } else {
        await tx.insert(shifts).values({ nodeid: row.nodeid ?? uuidv7(), legalentitynodeid: le, shiftmodelnodeid: nodeid, ...values });
      }
    }
    await tx.update(shiftModels).set({ version, updatedAt: new Date() }).where(eq(shiftModels.nodeid, nodeid));
    await recordTombstones(tx, le, ROW_KIND, removed, version);
    await appendHistory(tx, caller, {
      kind: MODEL_KIND,
      nodeid,
      version,
      changes: { shifts: { old: current.sort((a, b) => a.position - b.position).map(toShift), new: input.shifts } },
    });
    return shiftModelRow(tx, le, nodeid);
  });
}

/** DELETE /api/shiftmodels/{id}: the owner keeps existing without a plan (and gets the new version). */
export async function deleteShiftModel(ctx: ServiceContext, caller: Caller, nodeid: string): Promise<{ nodeid: string; version: number }> {
  const le = caller.legalentitynodeid;
  return writeTransaction(ctx, 'shiftmodel.delete', async (tx) => {
    // why the owners first, then the plan, then the version: a change of the area or machine locks it, then takes
    // the version; a delete of the owner locks it, then its plan (lockShiftModels). Owner before plan, rows before
    // the version, everywhere (docs/decisions.md "Write: the version late").
    const areaOwners = and(eq(areas.legalentitynodeid, le), eq(areas.shiftmodelnodeid, nodeid));
    const machineOwners = and(eq(equipment.legalentitynodeid, le), eq(equipment.shiftmodelnodeid, nodeid));
    await tx.select({ nodeid: areas.nodeid }).from(areas).where(areaOwners).orderBy(asc(areas.nodeid)).for('no key update');
    await tx.select({ nodeid: equipment.nodeid }).from(equipment).where(machineOwners).orderBy(asc(equipment.nodeid)).for('no key update');
    const [model] = await tx.select({ nodeid: shiftModels.nodeid }).from(shiftModels).where(ofTenant(shiftModels, caller, nodeid)).for('update');
    if (!model) throw notFoundError('Shift model');
    const owner = await ownerOfModel(tx, le, nodeid);
    assertMayEdit(caller, owner);
    const version = await nextVersion(tx, le);
    const now = new Date();
    await tx.update(areas).set({ shiftmodelnodeid: null, version, updatedAt: now }).where(areaOwners);
    await tx.update(equipment).set({ shiftmodelnodeid: null, version, updatedAt: now }).where(machineOwners);
    await deleteShiftModelsIfOrphaned(tx, le, [nodeid], version);
    return { nodeid, version };
  });
}

/** The plan's row (src/shared/rows/structure.ts): what its writes answer. */
async function shiftModelRow(tx: Tx, le: string, nodeid: string): Promise<ShiftModelRow> {
  const [model] = await tx.select().from(shiftModels).where(and(eq(shiftModels.nodeid, nodeid), eq(shiftModels.legalentitynodeid, le)));
  if (!model) throw notFoundError('Shift model');
  return toRowShape(model) as ShiftModelRow;
}

export async function getShiftModel(db: Db | Tx, actor: Actor, nodeid: string): Promise<ShiftModel> {
  const le = actor.legalentitynodeid;
  const [model] = await db.select().from(shiftModels).where(ofTenant(shiftModels, actor, nodeid));
  if (!model) throw notFoundError('Shift model');
  const owner = await ownerOfModel(db, le, nodeid);
  const rows = await shiftsOfModels(db, le, [nodeid]);
  return { nodeid, shiftmodelof: owner ? { type: owner.type, nodeid: owner.nodeid } : null, shifts: rows.get(nodeid) ?? [], version: model.version };
}

/**
 * Deletes those of `candidates` no area or machine points at any more, with their rows, leaving tombstones
 * under `version`. Used when an owner gets a new plan or is deleted.
 */
/**
 * The shift plans `candidates` (nulls skipped), locked before a write that may leave them without an owner takes the
 * tenant's version: a plan's update locks it, then takes the version (docs/decisions.md "Write: the version late").
 * `deleteOrphaned(version)` then deletes those no area or machine uses any more.
 */
export async function lockShiftModels(tx: Tx, le: string, candidates: readonly (string | null)[]): Promise<{ deleteOrphaned(version: number): Promise<void> }> {
  const ids = [...new Set(candidates.filter((id): id is string => id !== null))];
  if (ids.length > 0) await tx.select({ nodeid: shiftModels.nodeid }).from(shiftModels).where(and(eq(shiftModels.legalentitynodeid, le), inArray(shiftModels.nodeid, ids))).orderBy(asc(shiftModels.nodeid)).for('update');
  return { deleteOrphaned: (version) => deleteShiftModelsIfOrphaned(tx, le, ids, version) };
}

async function deleteShiftModelsIfOrphaned(tx: Tx, le: string, candidates: readonly string[], version: number): Promise<void> {
  const unique = [...new Set(candidates)];
  if (unique.length === 0) return;
  const stillUsed = new Set<string>();
  const usedByEquipment = await tx.select({ id: equipment.shiftmodelnodeid }).from(equipment).where(and(eq(equipment.legalentitynodeid, le), inArray(equipment.shiftmodelnodeid, unique)));
  const usedByAreas = await tx
    .select({ id: areas.shiftmodelnodeid })
    .from(areas)
    .where(and(eq(areas.legalentitynodeid, le), isNotNull(areas.shiftmodelnodeid), inArray(areas.shiftmodelnodeid, unique)));
  for (const { id } of [...usedByEquipment, ...usedByAreas]) if (id) stillUsed.add(id);
  const orphaned = unique.filter((id) => !stillUsed.has(id));
  if (orphaned.length === 0) return;
  await deleteWithOwned(tx, le, MODEL_KIND, orphaned, version);
}

/**
 * The area or machine whose shift plan a write changes, locked for it. No key update: the write changes the owner's
 * plan link, never its key, so a quick report on the machine (key share) does not wait for it (see lockOwnRow).
 */
async function findOwner(tx: Tx, le: string, nodeid: string): Promise<Owner | undefined> {
  const [area] = await tx.select({ nodeid: areas.nodeid, shiftmodelnodeid: areas.shiftmodelnodeid }).from(areas).where(and(eq(areas.nodeid, nodeid), eq(areas.legalentitynodeid, le))).for('no key update');
  if (area) return { type: 'area', ...area };
  const [machine] = await tx
    .select({ nodeid: equipment.nodeid, shiftmodelnodeid: equipment.shiftmodelnodeid })
    .from(equipment)
    .where(and(eq(equipment.nodeid, nodeid), eq(equipment.legalentitynodeid, le)))
    .for('no key update');
  return machine ? { type: 'equipment', ...machine } : undefined;
}

async function ownerOfModel(db: Db | Tx, le: string, modelId: string): Promise<Owner | undefined> {
  const [area] = await db.select({ nodeid: areas.nodeid }).from(areas).where(and(eq(areas.legalentitynodeid, le), eq(areas.shiftmodelnodeid, modelId))).limit(1);
  if (area) return { type: 'area', nodeid: area.nodeid, shiftmodelnodeid: modelId };
  const [machine] = await db.select({ nodeid: equipment.nodeid }).from(equipment).where(and(eq(equipment.legalentitynodeid, le), eq(equipment.shiftmodelnodeid, modelId))).limit(1);
  return machine ? { type: 'equipment', nodeid: machine.nodeid, shiftmodelnodeid: modelId } : undefined;
}

/** An area's plan is part of the plant (`site` update); a machine's, or a plan without owner, of the machine (`equipment` update). */
function assertMayEdit(caller: Caller, owner: Owner | undefined): void {
  const feature = owner?.type === 'area' ? 'site' : 'equipment';
  if (!can(caller, feature, 'update')) throw forbidden();
}

async function setOwnerModel(tx: Tx, caller: Caller, owner: Owner, modelId: string, version: number): Promise<void> {
  const le = caller.legalentitynodeid;
  const now = new Date();
  if (owner.type === 'area') {
    await tx.update(areas).set({ shiftmodelnodeid: modelId, version, updatedAt: now }).where(and(eq(areas.nodeid, owner.nodeid), eq(areas.legalentitynodeid, le)));
  } else {
    await tx.update(equipment).set({ shiftmodelnodeid: modelId, useareashiftmodel: false, version, updatedAt: now }).where(and(eq(equipment.nodeid, owner.nodeid), eq(equipment.legalentitynodeid, le)));
  }
  await appendHistory(tx, caller, {
    kind: owner.type === 'area' ? 'areas' : 'equipment',
    nodeid: owner.nodeid,
    version,
    changes: owner.shiftmodelnodeid === modelId ? {} : { shiftmodelnodeid: { old: owner.shiftmodelnodeid, new: modelId } },
  });
}
