import { and, asc, eq, inArray, not, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../db/client';
import { areas, equipmentPools, tombstones } from '../db/schema';
import { conflict, HttpError, NODEID_TAKEN, notFound } from '../http-errors';
import type { Actor } from './service-context';

/**
 * What the structure services (areas, pools, equipment, catalogue, shift models) share: the answer to a create
 * whose client-chosen nodeid exists already, and lookups scoped to the caller's tenant.
 */

export const RECORD_DELETED = 'This record was deleted';

/**
 * A create with a device-chosen nodeid that exists already. The mutation log answers true replays before the
 * route runs; this covers the outbox sending the same create under a new mutation id (e.g. after a dead
 * letter was retried): the same tenant's record with the same content is the answer (`row`), anything else
 * is 409 with one message, whether the id belongs to another record of the tenant or to another tenant, so
 * nothing about other tenants leaks. A nodeid the tenant deleted answers 410.
 */
export async function existingForCreate<R extends { legalentitynodeid: string | null }>(
  tx: Tx,
  actor: Actor,
  kind: string,
  nodeid: string,
  row: R | undefined,
  sameContent: (row: R) => boolean,
): Promise<R | undefined> {
  if (row) {
    if (row.legalentitynodeid === actor.legalentitynodeid && sameContent(row)) return row;
    throw conflict(NODEID_TAKEN);
  }
  if ((await deletedIds(tx, actor.legalentitynodeid, kind, [nodeid])).size > 0) throw new HttpError(410, RECORD_DELETED);
  return undefined;
}

/**
 * Those of `nodeids` that name records of `kind` the tenant `le` deleted (its tombstones), but for the tombstones
 * `except` lets through. A deleted record's id stays deleted for its tenant: the record's own id (existingForCreate)
 * and the ids a body names beside it (a plan's rows, a counter's readings).
 */
export async function deletedIds(tx: Tx, le: string, kind: string, nodeids: readonly string[], except?: SQL): Promise<Set<string>> {
  if (nodeids.length === 0) return new Set();
  const rows = await tx
    .select({ nodeid: tombstones.nodeid })
    .from(tombstones)
    .where(and(eq(tombstones.legalentitynodeid, le), eq(tombstones.kind, kind), inArray(tombstones.nodeid, [...new Set(nodeids)]), except && not(except)));
  return new Set(rows.map((row) => row.nodeid));
}

/** A table of records that belong to one tenant (legal entity). */
export type TenantTable = PgTable & { nodeid: PgColumn; legalentitynodeid: PgColumn };

/** "The caller's record `nodeid`": another tenant's record is found no more than a missing one (404, nothing leaks). */
export function ofTenant(table: TenantTable, actor: Actor, nodeid: string): SQL | undefined {
  return and(eq(table.nodeid, nodeid), eq(table.legalentitynodeid, actor.legalentitynodeid));
}

/**
 * Whether the caller's record `nodeid` of `table` exists, locked (key share) for a new row or link that is about to
 * hang on it. Every write takes its row locks before the tenant's version, and a delete locks its record before it
 * too, so a create and the delete of what it hangs on wait for each other instead of deadlocking, and a create that
 * comes second finds nothing (404) rather than failing on the foreign key (docs/decisions.md "Write: the version
 * late"). Key share lets changes of the record (no key update) through.
 */
export async function lockParent(tx: Tx, table: TenantTable, actor: Actor, nodeid: string): Promise<boolean> {
  const rows = await tx.select({ nodeid: table.nodeid }).from(table as PgTable).where(ofTenant(table, actor, nodeid)).for('key share');
  return rows.length > 0;
}

/** The caller's record `nodeid` of `table`, locked for this write (`FOR UPDATE`, or `FOR NO KEY UPDATE` for an update that keeps the key); `missing()` is thrown when there is none. */
export async function lockOwnRow<T extends TenantTable>(
  tx: Tx,
  table: T,
  actor: Actor,
  nodeid: string,
  missing: () => Error,
  // why the purpose decides the lock: a change keeps the row's key, so it takes FOR NO KEY UPDATE — FOR UPDATE also
  // blocks the KEY SHARE lock a foreign-key check takes, so a change (row lock, then the tenant's version) and a new
  // record referring to the row (version, then the foreign-key check) deadlocked under load (the soak: 503s on
  // machine memo updates while reports on that machine were created). A delete takes FOR UPDATE, which must keep
  // new references out until the row is gone.
  purpose: 'change' | 'delete',
): Promise<T['$inferSelect']> {
  const [row] = (await tx.select().from(table as PgTable).where(ofTenant(table, actor, nodeid)).for(purpose === 'change' ? 'no key update' : 'update')) as T['$inferSelect'][];
  if (!row) throw missing();
  return row;
}

/**
 * Which of `ids` are areas and which pools of the tenant; ids that are neither are `unknown`. The areas and pools
 * found are locked (key share, id order) for machines about to be linked to them: a write locks what it links to
 * before it takes the tenant's version (docs/decisions.md "Write: the version late").
 */
export async function classifyTargets(tx: Tx, actor: Actor, ids: readonly string[]): Promise<{ areas: Set<string>; pools: Set<string>; unknown: string[] }> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return { areas: new Set(), pools: new Set(), unknown: [] };
  const le = actor.legalentitynodeid;
  const areaRows = await tx.select({ nodeid: areas.nodeid }).from(areas).where(and(eq(areas.legalentitynodeid, le), inArray(areas.nodeid, unique))).orderBy(asc(areas.nodeid)).for('key share');
  const poolRows = await tx.select({ nodeid: equipmentPools.nodeid }).from(equipmentPools).where(and(eq(equipmentPools.legalentitynodeid, le), inArray(equipmentPools.nodeid, unique))).orderBy(asc(equipmentPools.nodeid)).for('key share');
  const areaSet = new Set(areaRows.map((r) => r.nodeid));
  const poolSet = new Set(poolRows.map((r) => r.nodeid));
  return { areas: areaSet, pools: poolSet, unknown: unique.filter((id) => !areaSet.has(id) && !poolSet.has(id)) };
}

/** A path id and the same id repeated in the body (the spec's payloads carry both) must agree. */
export function assertBodyIdMatches(field: string, bodyId: string | undefined, pathId: string): void {
  if (bodyId !== undefined && bodyId !== pathId) {
    throw new HttpError(400, `${field} does not match the path`, [{ field, message: 'Must equal the id in the path' }]);
  }
}

export function notFoundError(what: string): HttpError {
  return notFound(`${what} not found`);
}

// why the second name: equipment-service reads localised texts under it; the rule itself lives once, in shared.
export { localized as localizedText } from '../../shared/domain/text';

/** `text` written under `lang`, keeping the other languages. */
export { withLanguage } from '../../shared/domain/text';

export const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name, 'de');
