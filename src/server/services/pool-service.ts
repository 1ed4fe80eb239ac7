import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Pool } from '../../shared/api/equipmentpools';
import { localized, textIn } from '../../shared/domain/text';
import type { MutationParsed } from '../../shared/mutations/mutation';
import { createPool as createMutation, updatePool as updateMutation } from '../../shared/mutations/structure';
import type { EquipmentPoolRow } from '../../shared/rows/structure';
import type { Db, Tx } from '../db/client';
import { equipment, equipmentPools, structureSubscriptions } from '../db/schema';
import { notFound } from '../http-errors';
import { lockMachinesOf, planAssignments, type Mover } from './assign-service';
import { nextVersion } from './change-feed';
import { deleteWithOwned } from './ownership';
import { appendHistory, writeChangedFields } from './record-history';
import { applyContext, toColumnValues, toRowShape } from './rows';
import { writeTransaction, type Actor, type ServiceContext } from './service-context';
import { assertMayManageSubscriptionsOf, type Manager } from './subscription-service';
import { byName, existingForCreate, lockOwnRow, notFoundError, ofTenant } from './structure-common';

const KIND = 'equipment_pools';
type PoolRow = typeof equipmentPools.$inferSelect;

/** GET /api/equipmentpools: all pools of the tenant, or with `usernodeid` only those that user subscribes to. */
export async function listPools(db: Db, actor: Manager, lang: string, usernodeid?: string): Promise<Pool[]> {
  const le = actor.legalentitynodeid;
  let rows: PoolRow[];
  if (usernodeid) {
    await assertMayManageSubscriptionsOf(db, actor, usernodeid);
    const subscribed = await db
      .select({ id: structureSubscriptions.equipmentpoolnodeid })
      .from(structureSubscriptions)
      .where(and(eq(structureSubscriptions.legalentitynodeid, le), eq(structureSubscriptions.usernodeid, usernodeid), isNotNull(structureSubscriptions.equipmentpoolnodeid)));
    const ids = subscribed.flatMap((s) => (s.id ? [s.id] : []));
    rows = ids.length ? await db.select().from(equipmentPools).where(and(eq(equipmentPools.legalentitynodeid, le), inArray(equipmentPools.nodeid, ids))) : [];
  } else {
    rows = await db.select().from(equipmentPools).where(eq(equipmentPools.legalentitynodeid, le));
  }
  return (await toPools(db, actor, rows, lang)).sort(byName);
}

export async function getPool(db: Db | Tx, actor: Actor, nodeid: string, lang: string): Promise<Pool> {
  const [row] = await db.select().from(equipmentPools).where(ofTenant(equipmentPools, actor, nodeid));
  if (!row) throw notFoundError('Equipment pool');
  const [pool] = await toPools(db, actor, [row], lang);
  return pool!;
}

/**
 * createPool {lang, name, isequipmentpoolof, assign.payload}: the row the declaration computes
 * (src/shared/mutations/structure.ts) and the machines moved into it, one transaction. `isequipmentpoolof` must be
 * the caller's legal entity (404 otherwise).
 */
export async function createPool(ctx: ServiceContext, actor: Mover, args: MutationParsed<typeof createMutation>): Promise<EquipmentPoolRow> {
  const input = args.body;
  const le = actor.legalentitynodeid;
  if (input.isequipmentpoolof !== undefined && input.isequipmentpoolof !== le) throw notFound('Legal entity not found');
  const nodeid = input.nodeid ?? uuidv7();
  return writeTransaction(ctx, 'equipmentpool.create', async (tx) => {
    const [existing] = await tx.select().from(equipmentPools).where(eq(equipmentPools.nodeid, nodeid));
    const same = await existingForCreate(tx, actor, KIND, nodeid, existing, (row) => textIn(row.name, input.lang) === input.name);
    if (same) return poolRow(same);
    const assignment = input.assign ? await planAssignments(tx, actor, input.assign.payload, { type: 'pool', nodeid }) : undefined;
    const version = await nextVersion(tx, le);
    const fields = toColumnValues(equipmentPools, createMutation.apply!(undefined, args, applyContext(actor))) as typeof equipmentPools.$inferInsert;
    const [inserted] = await tx
      .insert(equipmentPools)
      .values({ ...fields, nodeid, legalentitynodeid: le, version })
      .returning();
    await assignment?.write(version);
    return poolRow(inserted!);
  });
}

/** updatePool {lang, name, equipmentpoolnodeid}: the declaration's change on the locked row — the name in `lang`; other languages stay. */
export async function updatePool(ctx: ServiceContext, actor: Actor, args: MutationParsed<typeof updateMutation>): Promise<EquipmentPoolRow> {
  const nodeid = args.params.id;
  return writeTransaction(ctx, 'equipmentpool.update', async (tx) => {
    const current = await lockOwnRow(tx, equipmentPools, actor, nodeid, () => notFoundError('Equipment pool'), 'change');
    const patch = toColumnValues(equipmentPools, updateMutation.apply!(toRowShape(current), args, applyContext(actor))) as Partial<PoolRow>;
    return poolRow((await writeChangedFields(tx, actor, { table: equipmentPools, kind: KIND, nodeid, current, patch, where: ofTenant(equipmentPools, actor, nodeid) })) ?? current);
  });
}

/** deletePool {equipmentpoolnodeid}: its machines stay, unlinked from it; subscriptions to it end. */
export async function deletePool(ctx: ServiceContext, actor: Actor, nodeid: string): Promise<{ nodeid: string; version: number }> {
  const le = actor.legalentitynodeid;
  return writeTransaction(ctx, 'equipmentpool.delete', async (tx) => {
    // why the rows first and the version last: see deleteEquipment (equipment-service.ts).
    const pool = await lockOwnRow(tx, equipmentPools, actor, nodeid, () => notFoundError('Equipment pool'), 'delete');
    const machines = await lockMachinesOf(tx, actor, 'pool', [nodeid]);
    const { version } = await deleteWithOwned(tx, le, KIND, [nodeid], 'next');
    await machines.unlink(version);
    await appendHistory(tx, actor, { kind: KIND, nodeid, version, changes: {}, context: { deleted: true, name: pool.name } });
    return { nodeid, version };
  });
}

/** The pool's row (src/shared/rows/structure.ts): what its writes answer. */
function poolRow(row: PoolRow): EquipmentPoolRow {
  return toRowShape(row) as EquipmentPoolRow;
}

async function toPools(db: Db | Tx, actor: Actor, rows: PoolRow[], lang: string): Promise<Pool[]> {
  if (rows.length === 0) return [];
  const machines = await db
    .select({ nodeid: equipment.nodeid, name: equipment.name, equipmentid: equipment.equipmentid, poolnodeid: equipment.equipmentpoolnodeid })
    .from(equipment)
    .where(and(eq(equipment.legalentitynodeid, actor.legalentitynodeid), inArray(equipment.equipmentpoolnodeid, rows.map((r) => r.nodeid))))
    .orderBy(asc(equipment.name), asc(equipment.nodeid));
  return rows.map((row) => ({
    nodeid: row.nodeid,
    name: localized(row.name, lang) ?? '',
    hasequipment: machines.filter((m) => m.poolnodeid === row.nodeid).map(({ nodeid, name, equipmentid }) => ({ nodeid, name, equipmentid })),
    version: row.version,
  }));
}
