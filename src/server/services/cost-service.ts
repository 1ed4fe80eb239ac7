import { asc, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { CostType, CostUnitInfo, CreateCost, UpdateCost } from '../../shared/api/costs';
import { canReadKind, type SyncKind } from '../../shared/api/sync';
import { localized } from '../../shared/domain/text';
import { createCost as createMutation, updateCost as updateMutation } from '../../shared/mutations/costs';
import type { PermissionSubject } from '../../shared/permissions';
import type { CostRow } from '../../shared/rows/costs';
import type { Tx } from '../db/client';
import { costTypes, costs, maintenanceTasks, notifications, reports, units } from '../db/schema';
import { conflict, forbidden, notFound } from '../http-errors';
import { nextVersionCte } from './change-feed';
import { writeChangedFields } from './record-history';
import { applyContext, toColumnValues, toRowShape } from './rows';
import { writeTransaction, type Actor, type ServiceContext } from './service-context';
import { assertBodyIdMatches, existingForCreate, lockOwnRow, lockParent, ofTenant } from './structure-common';

/**
 * Effort and costs (spec part 1 §2.2, §3, §5, §7): the writes of src/shared/mutations/costs.ts and the cost types
 * and units the effort capture shows. Every query is scoped to the caller's tenant (another tenant's cost, type or
 * source is a 404); writes take the tenant's next change version, so the rows reach other devices by the pull.
 */

const KIND = 'costs';
const COST_NOT_FOUND = 'Cost not found';
const SOURCE_NOT_FOUND = 'hasCostSourceNodeId: Cost source not found';
const TYPE_NOT_FOUND = 'costTypeNodeId: Cost type not found';

type SourceColumn = 'notificationnodeid' | 'reportnodeid' | 'maintenancetasknodeid';

// ---------------------------------------------------------------- reads

function toUnit(unit: typeof units.$inferSelect, lang: string): CostUnitInfo {
  return {
    nodeid: unit.nodeid,
    unitid: unit.unitid,
    unitId: unit.unitid,
    namespace: unit.namespace,
    symbol: unit.symbol,
    name: localized(unit.displayName.plural, lang) ?? unit.unitid,
    displayName: unit.displayName as CostUnitInfo['displayName'],
  };
}

/** GET /costtypes: the tenant's types (the standard ones with their key), in display position, names in `lang`. */
export async function listCostTypes(ctx: ServiceContext, actor: Actor, lang: string): Promise<CostType[]> {
  const rows = await ctx.db
    .select({ type: costTypes, unit: units })
    .from(costTypes)
    .innerJoin(units, eq(units.nodeid, costTypes.unitnodeid))
    .where(eq(costTypes.legalentitynodeid, actor.legalentitynodeid))
    .orderBy(asc(costTypes.position), asc(costTypes.nodeid));
  return rows.map(({ type, unit }) => ({
    nodeid: type.nodeid,
    costtypeid: type.costtypeid ?? null,
    name: localized(type.name, lang) ?? '',
    unit: toUnit(unit, lang),
    position: type.position,
    version: type.version,
  }));
}

/** GET /units: the units reference data, the same for every tenant. */
export async function listUnits(ctx: ServiceContext, lang: string): Promise<CostUnitInfo[]> {
  const rows = await ctx.db.select().from(units).orderBy(asc(units.namespace), asc(units.unitid));
  return rows.map((unit) => toUnit(unit, lang));
}

// ---------------------------------------------------------------- writes

/** Which column `hasCostSourceNodeId` goes to: the caller's notification, report or maintenance task; else 404. */
async function sourceColumn(tx: Tx, actor: Actor, nodeid: string): Promise<SourceColumn> {
  const candidates = [
    ['notificationnodeid', notifications],
    ['reportnodeid', reports],
    ['maintenancetasknodeid', maintenanceTasks],
  ] as const;
  for (const [column, table] of candidates) {
    if (await lockParent(tx, table, actor, nodeid)) return column;
  }
  throw notFound(SOURCE_NOT_FOUND);
}

async function assertCostTypeOfTenant(tx: Tx, actor: Actor, nodeid: string): Promise<void> {
  if (!(await lockParent(tx, costTypes, actor, nodeid))) throw notFound(TYPE_NOT_FOUND);
}

/** The kind of record each source column names, whose read permission a cost booked on it needs. */
const SOURCE_KINDS: Record<SourceColumn, SyncKind> = { notificationnodeid: 'notifications', reportnodeid: 'reports', maintenancetasknodeid: 'maintenancetasks' };

/**
 * A cost is part of what it is booked on: who may not read that record may not book on it nor change its costs
 * (403), as with attachments (docs/security.md: a create needs read of what it hangs on). The route's own reads
 * cover a notification; a report also needs `notification.report`, a maintenance task `equipment.maintenancetask`.
 */
function assertSourceReadable(actor: PermissionSubject, column: SourceColumn): void {
  if (!canReadKind(actor, SOURCE_KINDS[column])) throw forbidden();
}

const columnOf = (row: typeof costs.$inferSelect): SourceColumn => (row.notificationnodeid ? 'notificationnodeid' : row.reportnodeid ? 'reportnodeid' : 'maintenancetasknodeid');

const sourceOf = (row: typeof costs.$inferSelect): string | null => row.notificationnodeid ?? row.reportnodeid ?? row.maintenancetasknodeid;

/**
 * createCost: the row the declaration computes, on the source the id names, the caller as author. The same
 * create sent again under a new mutation id answers the row it made; an id used by another record answers 409,
 * a deleted cost's id 410.
 */
export async function createCost(ctx: ServiceContext, actor: Actor & PermissionSubject, input: CreateCost): Promise<CostRow> {
  const nodeid = input.nodeid ?? uuidv7();
  return writeTransaction(ctx, 'cost.create', async (tx) => {
    const column = await sourceColumn(tx, actor, input.hasCostSourceNodeId);
    assertSourceReadable(actor, column);
    await assertCostTypeOfTenant(tx, actor, input.costTypeNodeId);
    // why the cast: a declaration's `apply` is typed as any row change; createCost's makes exactly these fields.
    const fields = createMutation.apply!(undefined, { params: {}, body: { ...input, nodeid } }, applyContext(actor)) as Pick<CostRow, 'name' | 'value' | 'costtypenodeid' | 'specifier' | 'authornodeid'>;
    const [found] = await tx.select().from(costs).where(eq(costs.nodeid, nodeid));
    const same = await existingForCreate(tx, actor, KIND, nodeid, found, (row) =>
      row.value === fields.value && row.costtypenodeid === fields.costtypenodeid && row.specifier === fields.specifier && sourceOf(row) === input.hasCostSourceNodeId && row.name === fields.name,
    );
    if (same) return toRowShape(same) as CostRow;
    // why the version taken in the insert and the answer from its returning: from the version to the commit every
    // other writer of the tenant waits (docs/decisions.md "Write: the version late").
    const next = nextVersionCte(tx, actor.legalentitynodeid);
    const [row] = await tx
      .with(next.cte)
      .insert(costs)
      .values({
        nodeid,
        legalentitynodeid: actor.legalentitynodeid,
        version: next.version,
        name: fields.name,
        value: fields.value,
        costtypenodeid: fields.costtypenodeid,
        specifier: fields.specifier,
        authornodeid: fields.authornodeid,
        notificationnodeid: column === 'notificationnodeid' ? input.hasCostSourceNodeId : null,
        reportnodeid: column === 'reportnodeid' ? input.hasCostSourceNodeId : null,
        maintenancetasknodeid: column === 'maintenancetasknodeid' ? input.hasCostSourceNodeId : null,
      })
      .returning();
    return toRowShape(row!) as CostRow;
  });
}

/**
 * updateCost: the fields sent (value, name, type, specifier); what it overwrites goes to the record history. The
 * source may be repeated but never changed (409): a cost booked on one notification does not move to another.
 */
export async function updateCost(ctx: ServiceContext, actor: Actor & PermissionSubject, nodeid: string, input: UpdateCost): Promise<CostRow> {
  assertBodyIdMatches('nodeid', input.nodeid, nodeid);
  return writeTransaction(ctx, 'cost.update', async (tx) => {
    const current = await lockOwnRow(tx, costs, actor, nodeid, () => notFound(COST_NOT_FOUND), 'change');
    assertSourceReadable(actor, columnOf(current));
    if (input.hasCostSourceNodeId !== undefined && input.hasCostSourceNodeId !== sourceOf(current)) {
      throw conflict('hasCostSourceNodeId: A cost cannot move to another source');
    }
    if (input.costTypeNodeId !== undefined) await assertCostTypeOfTenant(tx, actor, input.costTypeNodeId);
    const change = updateMutation.apply!(toRowShape(current), { params: { id: nodeid }, body: input }, applyContext(actor));
    const patch = toColumnValues(costs, change) as Partial<typeof costs.$inferSelect>;
    const written = await writeChangedFields(tx, actor, { table: costs, kind: KIND, nodeid, current, patch, where: ofTenant(costs, actor, nodeid) });
    return toRowShape(written ?? current) as CostRow;
  });
}
