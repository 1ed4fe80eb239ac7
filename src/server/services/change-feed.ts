import { getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../db/client';
import { structureSubscriptions, tenantVersions, tombstones } from '../db/schema';

/**
 * The tables whose rows are private to one user, with the column naming that user: whom a user follows is told
 * only to them (docs/security.md). The pull sends such rows, and their tombstones, to that user's devices alone.
 */
const PRIVATE_TABLES: readonly { table: PgTable; user: PgColumn }[] = [{ table: structureSubscriptions, user: structureSubscriptions.usernodeid }];

const PRIVATE_BY_KIND = new Map(PRIVATE_TABLES.map((entry) => [getTableName(entry.table), entry.user]));

/** The column naming the user a row of `table` is private to; undefined for the tenant's rows. */
export function privateUserColumn(table: PgTable): PgColumn | undefined {
  return PRIVATE_BY_KIND.get(getTableName(table));
}

/** A deleted row: its tombstone kind (the table name), id, and the user it was private to (PRIVATE_TABLES). */
export interface DeletedRow {
  kind: string;
  nodeid: string;
  usernodeid?: string | null;
}

/**
 * Takes the tenant's next change version (docs/sync.md § Change feed). The upsert creates the counter row
 * on first use and otherwise increments it; either way the row stays locked until the transaction ends, so a
 * second writer of the same tenant waits, and commit order equals version order: a pull with `version > N`
 * never skips a write that commits late.
 *
 * Call it once per transaction and stamp every row the transaction writes with the result. Rows written by one
 * transaction therefore share a version; the pull must not split one version across pages.
 */
export async function nextVersion(tx: Tx, legalentitynodeid: string): Promise<number> {
  const result = await tx.execute<{ version: number | string }>(nextVersionStatement(legalentitynodeid));
  const row = (result as unknown as { rows: { version: number | string }[] }).rows[0];
  if (!row) throw new Error('tenant_versions upsert returned no row');
  return Number(row.version);
}

/**
 * nextVersion as a statement answering `version`, for a write that takes the version and writes its rows in one
 * statement (`with v as (…) insert … select … v.version`): one round trip less under the version's lock.
 */
export function nextVersionStatement(legalentitynodeid: string): SQL {
  return sql`insert into ${tenantVersions} (legalentitynodeid, version) values (${legalentitynodeid}, 1)
    on conflict (legalentitynodeid) do update set version = ${tenantVersions}.version + 1
    returning version`;
}

/**
 * The version a write stamps its rows with: a number when its transaction took one already (it stamps other rows
 * too), or `'next'`: the tenant's next version, taken by the statement that writes, after the write has locked
 * what it changes (docs/decisions.md "Write: the version late").
 */
export type WriteVersion = number | 'next';

/** A statement answering `version` for a write's `with v as (…)`: nextVersionStatement for `'next'`, else the number. */
export function versionStatement(legalentitynodeid: string, version: WriteVersion): SQL {
  return version === 'next' ? nextVersionStatement(legalentitynodeid) : sql`select ${version}::bigint as version`;
}

/**
 * nextVersionStatement as a CTE for drizzle's builders, and the value that stamps a row with it:
 * `tx.with(next.cte).update(table).set({ …, version: next.version })` (or `.insert`). The upsert runs once however
 * often the statement refers to it; the version's lock is taken by that statement, not before it.
 */
export function nextVersionCte(tx: Tx, legalentitynodeid: string) {
  const cte = tx.$with('next_version', { version: sql<number>`version` }).as(nextVersionStatement(legalentitynodeid));
  return { cte, version: sql<number>`(select version from ${cte})` };
}

/**
 * Records that a row was deleted, so a device that pulls later removes it too. A node deleted, restored by an
 * offline device's create and deleted again keeps one tombstone with the latest version.
 */
export async function recordTombstone(tx: Tx, legalentitynodeid: string, kind: string, nodeid: string, version: number, usernodeid?: string): Promise<void> {
  await recordTombstoneList(tx, legalentitynodeid, [{ kind, nodeid, usernodeid }], version);
}

/**
 * Tombstones for rows of several kinds in one statement (the ids as array parameters, so any number of rows), at
 * `version`, or at the tenant's next version taken in that same statement (`'next'`: a delete's rows locked and
 * removed before it). Answers the version.
 */
export async function recordTombstoneList(tx: Tx, legalentitynodeid: string, rows: readonly DeletedRow[], version: WriteVersion): Promise<number> {
  if (rows.length === 0) return version === 'next' ? nextVersion(tx, legalentitynodeid) : version;
  const result = await tx.execute<{ version: number | string }>(sql`
    with v as (${versionStatement(legalentitynodeid, version)})
    insert into ${tombstones} (legalentitynodeid, kind, nodeid, version, usernodeid)
    select ${legalentitynodeid}::uuid, t.kind, t.nodeid, v.version, t.usernodeid
    from v, unnest(
      ${sql.param(rows.map((row) => row.kind))}::text[],
      ${sql.param(rows.map((row) => row.nodeid))}::uuid[],
      ${sql.param(rows.map((row) => row.usernodeid ?? null))}::uuid[]
    ) as t(kind, nodeid, usernodeid)
    on conflict (legalentitynodeid, kind, nodeid) do update set version = excluded.version, deleted_at = now(), usernodeid = excluded.usernodeid
    returning version`);
  const first = (result as unknown as { rows: { version: number | string }[] }).rows[0];
  if (!first) throw new Error('tombstones insert returned no row');
  return Number(first.version);
}

/** recordTombstone for many rows of one kind in one statement. */
export async function recordTombstones(tx: Tx, legalentitynodeid: string, kind: string, nodeids: readonly string[], version: number): Promise<void> {
  if (nodeids.length === 0) return;
  await recordTombstoneList(tx, legalentitynodeid, nodeids.map((nodeid) => ({ kind, nodeid })), version);
}
