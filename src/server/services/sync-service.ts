import { and, asc, eq, getTableColumns, getTableName, gt, gte, inArray, isNull, lt, lte, or, sql, type Query, type SQL } from 'drizzle-orm';
import { PgDialect, type PgColumn, type PgTable, type PreparedQueryConfig } from 'drizzle-orm/pg-core';
import { endsNextDay, formatTimeOfDay } from '../../shared/domain/shift';
import { readsOtherUsersDetails } from '../../shared/domain/user';
import { readableAttachmentTargets, readableSyncKinds, withheldCostSources, withholdsProcedures, type CostSourceSyncKind, SYNC_FORMAT_VERSION, SYNC_KINDS, syncScope, type PullResponse, type SyncChange, type SyncKind } from '../../shared/api/sync';
import { ATTACHMENT_TARGET_KINDS } from '../../shared/domain/attachment';
import type { PermissionSubject } from '../../shared/permissions';
import { rowFieldsOf } from '../../shared/rows/registry';
import type { Db, Tx } from '../db/client';
import {
  areas,
  attachmentCategories,
  attachments,
  brands,
  chatMessages,
  chatRooms,
  costs,
  costTypes,
  counterReadings,
  counters,
  counterTypes,
  equipment,
  equipmentClasses,
  equipmentPools,
  equipmentTypes,
  faqs,
  files,
  legalEntities,
  maintenanceCategories,
  maintenanceTasks,
  notificationAssignments,
  notifications,
  reports,
  shiftModels,
  shifts,
  sites,
  structureSubscriptions,
  syncClients,
  tenantVersions,
  tombstones,
  units,
  users,
  workflows,
  workflowSteps,
} from '../db/schema';
import { privateUserColumn } from './change-feed';
import { toRowShape } from './rows';
import type { Actor, ServiceContext } from './service-context';
import { readableProcedureAttachments } from './procedure-steps';

/**
 * The pull side of the change feed (docs/sync.md § Pull): every synced kind's rows and tombstones with a version
 * above the cursor, in version order, in pages that end only between two versions.
 */

type Row = Record<string, unknown>;

interface VersionedSource {
  table: PgTable;
  nodeid: PgColumn;
  version: PgColumn;
  /** The tenant filter: legalentitynodeid, or the owner column for manufacturers. */
  tenant: PgColumn;
  /**
   * Rows only their own user gets (the user column, from privateUserColumn): whom a user follows is told only to
   * them (docs/security.md); so are the tombstones of such rows (tombstones.usernodeid). Their versions still
   * count where a page ends; a page may then hold fewer rows, never skip one.
   */
  user?: PgColumn;
}

/** Row-shape fields that are no column of the kind's table: computed from the columns, never stored twice. */
const DERIVED: Partial<Record<SyncKind, (row: Row) => Row>> = {
  attachmentcategories: (row) => ({ nodeid: row.categoryid }),
  // The shift editor's form of the times ('HH:MM'), as the shift model API answers them.
  shifts: (row) => {
    const start = Number(row.startminute);
    const end = Number(row.endminute);
    return { start: formatTimeOfDay(start), end: formatTimeOfDay(end), endsnextday: endsNextDay(start, end) };
  },
  brands: (row) => ({ isbrandof: row.manufacturernodeid }),
};

/**
 * A change's `data`: the kind's row shape (src/shared/rows), its fields picked from the database row in row form
 * (`toRowShape`). Picked, not parsed: a pull from 0 sends the whole plant, and a parse per row would cost more
 * than the query. `tests/api/sync-row-shapes.test.ts` proves the result passes the strict row schema.
 */
function rowData(kind: SyncKind): (row: Row) => Row {
  const derive = DERIVED[kind];
  const fields = rowFieldsOf(kind);
  return (row) => {
    const source: Row = derive ? { ...toRowShape(row), ...derive(row) } : toRowShape(row);
    const data: Row = {};
    for (const field of fields) if (field in source) data[field] = source[field];
    return data;
  };
}

const ROW_DATA = new Map<SyncKind, (row: Row) => Row>(SYNC_KINDS.map((kind) => [kind, rowData(kind)]));

/** The columns DERIVED reads besides the row shape's own fields. */
const DERIVED_FROM: Partial<Record<SyncKind, readonly string[]>> = { shifts: ['startminute', 'endminute'], brands: ['manufacturernodeid'] };

/**
 * The columns a kind's pull reads: those of its row shape (and what DERIVED computes from), never the bookkeeping
 * or any other column. A full pull parses every selected value (driver and Drizzle); the rest is wasted work.
 */
function pulledColumns(kind: SyncKind, table: PgTable): Record<string, PgColumn> {
  const wanted = new Set<string>([...rowFieldsOf(kind), ...(DERIVED_FROM[kind] ?? []), 'nodeid', 'version']);
  return Object.fromEntries(Object.entries(getTableColumns(table)).filter(([key]) => wanted.has(key)));
}

const tenantSource = (table: PgTable & { nodeid: PgColumn; version: PgColumn; legalentitynodeid: PgColumn }): VersionedSource => {
  const user = privateUserColumn(table);
  return { table, nodeid: table.nodeid, version: table.version, tenant: table.legalentitynodeid, ...(user ? { user } : {}) };
};

/** Every versioned kind, by SYNC_KINDS name. The global ones (units, attachmentcategories) are handled apart. */
const VERSIONED: Record<Exclude<SyncKind, 'units' | 'attachmentcategories'>, VersionedSource> = {
  manufacturers: {
    table: legalEntities,
    nodeid: legalEntities.nodeid,
    version: legalEntities.version,
    tenant: legalEntities.ownerlegalentitynodeid,
  },
  users: tenantSource(users),
  sites: tenantSource(sites),
  shiftmodels: tenantSource(shiftModels),
  shifts: tenantSource(shifts),
  areas: tenantSource(areas),
  equipmentpools: tenantSource(equipmentPools),
  subscriptions: tenantSource(structureSubscriptions),
  brands: tenantSource(brands),
  equipmenttypes: tenantSource(equipmentTypes),
  equipmentclasses: tenantSource(equipmentClasses),
  files: tenantSource(files),
  equipment: tenantSource(equipment),
  countertypes: tenantSource(counterTypes),
  counters: tenantSource(counters),
  counterreadings: tenantSource(counterReadings),
  maintenancecategories: tenantSource(maintenanceCategories),
  maintenancetasks: tenantSource(maintenanceTasks),
  notifications: tenantSource(notifications),
  notificationassignments: tenantSource(notificationAssignments),
  workflows: tenantSource(workflows),
  workflowsteps: tenantSource(workflowSteps),
  faqs: tenantSource(faqs),
  reports: tenantSource(reports),
  costtypes: tenantSource(costTypes),
  costs: tenantSource(costs),
  attachments: tenantSource(attachments),
  chatrooms: tenantSource(chatRooms),
  chatmessages: tenantSource(chatMessages),
};

const VERSIONED_KINDS = SYNC_KINDS.filter((kind): kind is keyof typeof VERSIONED => kind in VERSIONED);
const PULLED_COLUMNS = new Map(VERSIONED_KINDS.map((kind) => [kind, pulledColumns(kind, VERSIONED[kind].table)]));

/**
 * What a kind's pull selects for this caller: PULLED_COLUMNS, except that a caller who may not read other users'
 * details (`readsOtherUsersDetails`) gets '' for every e-mail address but their own (docs/sync.md § Pull by permission).
 * Chosen in the statement, so the addresses never leave the database for them; '' and not left out, because the
 * row shape and older apps' mirrors expect the field (WITHHELD_USER_EMAIL).
 */
function pulledSelection(kind: keyof typeof VERSIONED, actor: Actor & PermissionSubject): Record<string, PgColumn | SQL.Aliased> {
  const columns = PULLED_COLUMNS.get(kind)!;
  if (kind !== 'users' || readsOtherUsersDetails(actor)) return columns;
  return { ...columns, email: sql<string>`case when ${users.nodeid} = ${actor.usernodeid} then ${users.email} else '' end`.as('email') };
}

/**
 * Rows of a kind the caller reads only in part: attachments hang on records of other kinds, and those on records the
 * caller may not read (a damage photo without notification read) stay on the server, as their files do
 * (`readableAttachmentTargets`; the scope names them, `withheldAttachments`). Undefined: every row of the kind.
 */
function readableRowsOf(kind: keyof typeof VERSIONED, actor: PermissionSubject): SQL | undefined {
  if (kind === 'costs') {
    // Costs are booked on a notification, a report or a maintenance task: those on records the caller may not read
    // stay on the server too (`withheldCostSources`; the scope names them, `withheldCosts`).
    const withheld = withheldCostSources(actor);
    return withheld.length === 0 ? undefined : and(...withheld.map((source) => isNull(COST_SOURCE_COLUMNS[source])));
  }
  if ((kind === 'workflows' || kind === 'workflowsteps') && withholdsProcedures(actor)) {
    // A maintenance task's procedure is a workflow with steps: who may not read the task gets neither
    // (`WITHHELD_PROCEDURES` in the scope).
    if (kind === 'workflows') return isNull(workflows.maintenancetasknodeid);
    return sql`not exists (select 1 from ${workflows} where ${workflows.nodeid} = ${workflowSteps.workflownodeid} and ${workflows.maintenancetasknodeid} is not null)`;
  }
  if (kind !== 'attachments') return undefined;
  const targets = readableAttachmentTargets(actor);
  return and(targets.length === ATTACHMENT_TARGET_KINDS.length ? undefined : inArray(attachments.targetkind, targets), readableProcedureAttachments(actor));
}

/** The column of a cost that names its source of each kind of COST_SOURCE_SYNC_KINDS. */
const COST_SOURCE_COLUMNS: Record<CostSourceSyncKind, PgColumn> = { reports: costs.reportnodeid, maintenancetasks: costs.maintenancetasknodeid };

const KIND_ORDER = new Map<string, number>(SYNC_KINDS.map((kind, index) => [kind, index]));

/**
 * Tombstones name their kind by table (docs/api.md: `shift_models`, `counter_readings`); a sync kind name is
 * accepted too. Tombstones of tables no device mirrors are not sent.
 */
const TOMBSTONE_KINDS = new Map<string, SyncKind>([
  ...SYNC_KINDS.map((kind): [string, SyncKind] => [kind, kind]),
  ...VERSIONED_KINDS.map((kind): [string, SyncKind] => [getTableName(VERSIONED[kind].table), kind]),
]);

/** The versioned kinds and tombstone kind names a user may read (SYNC_KIND_FEATURES). */
function readableSources(subject: PermissionSubject): { kinds: (keyof typeof VERSIONED)[]; tombstoneKinds: string[] } {
  const readable = new Set<SyncKind>(readableSyncKinds(subject));
  return {
    kinds: VERSIONED_KINDS.filter((kind) => readable.has(kind)),
    tombstoneKinds: [...TOMBSTONE_KINDS].filter(([, kind]) => readable.has(kind)).map(([name]) => name),
  };
}

export interface PullOptions {
  clientid: string;
  cursor: number;
  limit: number;
}

/** What one statement tells about a pull before any kind is read (docs/sync.md § The head check). */
export interface PullHead {
  /** The tenant's committed version (0 when the tenant never wrote). */
  committed: number;
  purgedThrough: number;
  /** The user the client id is bound to, undefined when the id is not registered yet. */
  clientUser: string | undefined;
  lastMutationId: number;
}

/**
 * The head check: the tenant's committed version, its purge mark and the device's registration and last
 * mutation id, in ONE statement over two primary keys (one snapshot, so the four agree). A device whose cursor
 * is the committed version gets its empty page from this alone; only a device that is behind pays the per-kind
 * queries.
 */
export async function readPullHead(db: Db | Tx, legalentitynodeid: string, clientid: string): Promise<PullHead> {
  const result = await db.execute(sql`
    select tv.version, tv.purged_through, sc.usernodeid, sc.last_mutation_id
    from (select 1) as head
    left join ${tenantVersions} tv on tv.legalentitynodeid = ${legalentitynodeid}
    left join ${syncClients} sc on sc.clientid = ${clientid}`);
  const row = (result as unknown as { rows: Row[] }).rows[0] ?? {};
  return {
    committed: Number(row.version ?? 0),
    purgedThrough: Number(row.purged_through ?? 0),
    clientUser: row.usernodeid == null ? undefined : String(row.usernodeid),
    lastMutationId: Number(row.last_mutation_id ?? 0),
  };
}

/**
 * The answer for a device that is up to date (cursor = committed version), or undefined when the per-kind
 * queries must run. Cursor 0 always reads (rows of version 0 and the global reference data come with it).
 * Equal to what the full path answers in this case: no change, the same cursor, no more pages.
 */
export function upToDateAnswer(actor: PermissionSubject, head: PullHead, cursor: number): PullResponse | undefined {
  if (cursor === 0 || cursor !== head.committed || cursor < head.purgedThrough) return undefined;
  return { formatVersion: SYNC_FORMAT_VERSION, cursor, hasMore: false, lastMutationId: head.lastMutationId, scope: syncScope(actor), changes: [] };
}

/**
 * One page of changes for the caller's tenant. Runs in one read-only REPEATABLE READ transaction, so every
 * query sees the same snapshot: the tenant's committed version T in it means every version <= T is committed and
 * visible (versions are taken under a row lock held to commit), which makes T a safe cursor once nothing newer
 * is left.
 */
export async function pullChanges(ctx: ServiceContext, actor: Actor & PermissionSubject, options: PullOptions): Promise<PullResponse> {
  const le = actor.legalentitynodeid;
  const { cursor, limit } = options;
  // Only what the user may read; `scope` tells the device when that set changed (docs/sync.md § Pull by permission).
  const { kinds, tombstoneKinds } = readableSources(actor);
  const scope = syncScope(actor);
  return ctx.db.transaction(
    async (tx) => {
      // The head again, in this snapshot: the route's head check ran before it.
      const { committed, purgedThrough, lastMutationId } = await readPullHead(tx, le, options.clientid);
      // Reset when tombstones the client may need were purged, or when the client is ahead of the server: the
      // database was restored from a backup and versions up to the client's cursor will be taken again.
      if ((cursor > 0 && cursor < purgedThrough) || cursor > committed) {
        return { formatVersion: SYNC_FORMAT_VERSION, cursor: 0, hasMore: true, lastMutationId, reset: true as const, scope, changes: [] };
      }

      // Cursor 0 is "from the beginning": it also takes rows written outside the change feed (version 0). Those
      // all come in the first page, like one version, and do not count towards where the page ends.
      const above = (column: PgColumn) => (cursor === 0 ? gte(column, 0) : gt(column, cursor));

      // 1. Where the page ends: the `limit`-th smallest version over all kinds, never inside a version.
      const found = await pendingVersions(tx, le, cursor, limit, kinds, tombstoneKinds);
      const versions = found.versions;
      const endsEarly = versions.length > limit;
      const through = endsEarly ? versions[limit - 1]! : undefined;
      const hasMore = endsEarly && (versions[versions.length - 1]! > through! || found.truncated);
      const within = (column: PgColumn): SQL | undefined => and(above(column), through === undefined ? undefined : lte(column, through));
      // A kind without a version above the cursor in this snapshot has no row for the page either. Cursor 0 also
      // reads version-0 rows, which step 1 does not see, so it reads every kind.
      const pending = (kind: number): boolean => cursor === 0 || found.kinds.has(kind);

      // 2. The rows of the page.
      const changes: SyncChange[] = [];
      if (cursor === 0) changes.push(...(await globalReferenceData(tx)));
      for (const [index, kind] of kinds.entries()) {
        if (!pending(index)) continue;
        const source = VERSIONED[kind];
        const toData = ROW_DATA.get(kind)!;
        const rows = (await tx
          .select(pulledSelection(kind, actor))
          .from(source.table)
          .where(and(eq(source.tenant, le), source.user ? eq(source.user, actor.usernodeid) : undefined, readableRowsOf(kind, actor), within(source.version)))
          .orderBy(asc(source.version))) as Row[];
        for (const row of rows) changes.push({ kind, nodeid: String(row.nodeid), version: Number(row.version), data: toData(row) });
      }
      const deleted = !pending(TOMBSTONES_INDEX)
        ? []
        : await tx
            .select({ kind: tombstones.kind, nodeid: tombstones.nodeid, version: tombstones.version })
            .from(tombstones)
            .where(
              and(
                eq(tombstones.legalentitynodeid, le),
                within(tombstones.version),
                inArray(tombstones.kind, tombstoneKinds),
                // A private row's tombstone goes to its user alone (VersionedSource.user); null: the tenant's row.
                or(isNull(tombstones.usernodeid), eq(tombstones.usernodeid, actor.usernodeid)),
              ),
            )
            .orderBy(asc(tombstones.version));
      for (const row of deleted) changes.push({ kind: TOMBSTONE_KINDS.get(row.kind)!, nodeid: row.nodeid, version: Number(row.version), deleted: true });

      changes.sort(byVersionThenKind);
      const lastVersion = changes.reduce((max, change) => Math.max(max, change.version), cursor);
      const nextCursor = hasMore ? through! : Math.max(lastVersion, committed, cursor);
      return { formatVersion: SYNC_FORMAT_VERSION, cursor: nextCursor, hasMore, lastMutationId, scope, changes };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** The index `pendingVersions` reports for tombstones (the readable kinds are 0, 1, … in their order). */
const TOMBSTONES_INDEX = -1;

interface PendingVersions {
  /** Ascending: up to limit + 1 versions above the cursor of each kind and of the tombstones. */
  versions: number[];
  /** Indexes into the readable kinds (TOMBSTONES_INDEX for tombstones) that have a version above the cursor. */
  kinds: Set<number>;
  /** Some kind has more than limit + 1 versions above the cursor. */
  truncated: boolean;
}

/**
 * Step 1 of a page, in ONE statement: for every readable kind and the tombstones, the smallest limit + 1 versions
 * above the cursor (each branch `version > C ORDER BY version LIMIT N+1` on the `(legalentitynodeid, version)`
 * index), tagged with the kind. One round trip instead of one per kind: a device one write behind reads a
 * handful of index entries, and the statements around them were most of its cost.
 *
 * The statement depends only on which kinds the caller may read (a handful of permission sets per tenant), so its
 * text is built once per set and sent as a named prepared statement with the tenant, cursor and limit as
 * parameters: Drizzle building the 31 branches again was a quarter of a one-behind pull's server CPU, and
 * PostgreSQL planned them anew each time (docs/decisions.md "Read answers kept per change state").
 */
async function pendingVersions(tx: Tx, le: string, cursor: number, limit: number, kinds: readonly (keyof typeof VERSIONED)[], tombstoneKinds: string[]): Promise<PendingVersions> {
  const result: PendingVersions = { versions: [], kinds: new Set(), truncated: false };
  const statement = pendingVersionsStatement(kinds, tombstoneKinds);
  if (!statement) return result;
  const prepared = tx._.session.prepareQuery<PreparedQueryConfig & { execute: { rows: { k: number | string; v: number | string }[] } }>(statement.query, undefined, statement.name, false);
  const { rows } = await prepared.execute({ le, cursor, take: limit + 1 });
  const perKind = new Map<number, number>();
  for (const row of rows) {
    const kind = Number(row.k);
    result.kinds.add(kind);
    result.versions.push(Number(row.v));
    perKind.set(kind, (perKind.get(kind) ?? 0) + 1);
  }
  result.truncated = [...perKind.values()].some((count) => count > limit);
  result.versions.sort((a, b) => a - b);
  return result;
}

const pendingVersionsStatements = new Map<string, { name: string; query: Query } | undefined>();
const pullDialect = new PgDialect();

/** `pendingVersions`' statement for a set of readable kinds, with placeholders `le`, `cursor` and `take`; built once. */
function pendingVersionsStatement(kinds: readonly (keyof typeof VERSIONED)[], tombstoneKinds: readonly string[]): { name: string; query: Query } | undefined {
  const key = `${kinds.join(',')}|${tombstoneKinds.join(',')}`;
  if (pendingVersionsStatements.has(key)) return pendingVersionsStatements.get(key);
  const le = sql.placeholder('le');
  const cursor = sql.placeholder('cursor');
  const take = sql.placeholder('take');
  const branch = (index: number, version: PgColumn, table: PgTable, where: SQL | undefined) =>
    sql`(select ${sql.raw(String(index))}::int as k, ${version} as v from ${table} where ${where} order by ${version} limit ${take})`;
  const branches = kinds.map((kind, index) => {
    const source = VERSIONED[kind];
    return branch(index, source.version, source.table, and(eq(source.tenant, le), gt(source.version, cursor)));
  });
  if (tombstoneKinds.length > 0) {
    branches.push(branch(TOMBSTONES_INDEX, tombstones.version, tombstones, and(eq(tombstones.legalentitynodeid, le), gt(tombstones.version, cursor), inArray(tombstones.kind, [...tombstoneKinds]))));
  }
  // why a number in the name: one name stands for one text on a connection, and a process builds each text once.
  const statement = branches.length === 0 ? undefined : { name: `pull_pending_${pendingVersionsStatements.size}`, query: pullDialect.sqlToQuery(sql.join(branches, sql` union all `)) };
  pendingVersionsStatements.set(key, statement);
  return statement;
}

/** Version, then parents before children (SYNC_KINDS order), then a row before its tombstone. */
function byVersionThenKind(a: SyncChange, b: SyncChange): number {
  return a.version - b.version || KIND_ORDER.get(a.kind)! - KIND_ORDER.get(b.kind)! || Number(a.deleted ?? false) - Number(b.deleted ?? false);
}

/** Units and attachment categories: the same for every tenant, seeded at every start, sent with a pull from 0. */
async function globalReferenceData(tx: Tx): Promise<SyncChange[]> {
  const unitRows = await tx.select().from(units).orderBy(asc(units.nodeid));
  const categoryRows = await tx.select().from(attachmentCategories).orderBy(asc(attachmentCategories.position));
  const unitData = ROW_DATA.get('units')!;
  const categoryData = ROW_DATA.get('attachmentcategories')!;
  return [
    ...unitRows.map((row): SyncChange => ({ kind: 'units', nodeid: row.nodeid, version: 0, data: unitData(row) })),
    ...categoryRows.map((row): SyncChange => ({ kind: 'attachmentcategories', nodeid: row.categoryid, version: 0, data: categoryData(row) })),
  ];
}

// ---------------------------------------------------------------- tombstone retention

export interface PurgeResult {
  /** Tenants whose old tombstones were removed in this run. */
  tenants: number;
  tombstones: number;
}

/**
 * Deletes tombstones older than `olderThan` and raises each tenant's purged_through to the highest version
 * purged, so a device whose cursor is below it resets instead of missing a delete. One short transaction per
 * tenant that locks the tenant's version row with SKIP LOCKED first (the lock order writers use), so several
 * instances running this at once never purge the same tenant together, and a tenant busy writing is simply
 * left for the next run.
 */
export async function purgeTombstones(db: Db, olderThan: Date): Promise<PurgeResult> {
  const candidates = await db
    .selectDistinct({ le: tombstones.legalentitynodeid })
    .from(tombstones)
    .where(lt(tombstones.deletedAt, olderThan));
  const result: PurgeResult = { tenants: 0, tombstones: 0 };
  for (const { le } of candidates) {
    const purged = await db.transaction(async (tx) => {
      const [locked] = await tx
        .select({ le: tenantVersions.legalentitynodeid })
        .from(tenantVersions)
        .where(eq(tenantVersions.legalentitynodeid, le))
        .for('update', { skipLocked: true });
      if (!locked) return 0;
      const removed = await tx
        .delete(tombstones)
        .where(and(eq(tombstones.legalentitynodeid, le), lt(tombstones.deletedAt, olderThan)))
        .returning({ version: tombstones.version });
      if (removed.length === 0) return 0;
      const highest = removed.reduce((max, row) => Math.max(max, Number(row.version)), 0);
      await tx
        .update(tenantVersions)
        .set({ purgedThrough: sql`greatest(${tenantVersions.purgedThrough}, ${highest})` })
        .where(eq(tenantVersions.legalentitynodeid, le));
      return removed.length;
    });
    if (purged > 0) {
      result.tenants += 1;
      result.tombstones += purged;
    }
  }
  return result;
}
