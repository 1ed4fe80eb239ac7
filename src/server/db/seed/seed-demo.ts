import { getTableColumns, getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { hashPassword } from '../../auth/password';
import type { Db, Tx } from '../client';
import * as schema from '../schema';
import { buildDemoData } from './build-demo';
import type { DemoTables } from './demo/context';
import { DEMO_PASSWORD } from './demo-users';
import { seedReferenceData } from './reference-data';

export interface SeedDemoOptions {
  /** The demo's "today"; every date is relative to it. Default: the current time. */
  now?: Date;
  /**
   * Where photos and documents go (the configured FileStorage, or a LocalStorage in tests); without it only the
   * file rows are written. Its bucketid is recorded in the file rows (`local` when it has none).
   */
  storage?: SeedStorage;
}

/** What the seed needs of a store: writing small complete objects. */
export interface SeedStorage {
  readonly bucketid?: string;
  put(key: string, bytes: Uint8Array, mimetype: string): Promise<void>;
}

export interface SeedSummary {
  legalentitynodeid: string;
  /** Rows per table, by table name. */
  counts: Record<string, number>;
  /** Files whose bytes were written to storage. */
  storedFiles: number;
}

/**
 * Tables in insert order (parents before children). Typed loosely on purpose: the row types are checked where
 * the rows are built (DemoTables); here only the pairing of key and table matters.
 */
const INSERT_ORDER: [keyof DemoTables, PgTable][] = [
  ['legalEntities', schema.legalEntities],
  ['tenantVersions', schema.tenantVersions],
  ['profiles', schema.profiles],
  ['users', schema.users],
  ['files', schema.files],
  ['equipmentClasses', schema.equipmentClasses],
  ['brands', schema.brands],
  ['equipmentTypes', schema.equipmentTypes],
  ['shiftModels', schema.shiftModels],
  ['shifts', schema.shifts],
  ['sites', schema.sites],
  ['areas', schema.areas],
  ['equipmentPools', schema.equipmentPools],
  ['equipment', schema.equipment],
  ['structureSubscriptions', schema.structureSubscriptions],
  ['maintenanceCategories', schema.maintenanceCategories],
  ['counterTypes', schema.counterTypes],
  ['counters', schema.counters],
  ['counterReadings', schema.counterReadings],
  ['maintenanceTasks', schema.maintenanceTasks],
  ['maintenanceTaskTemplates', schema.maintenanceTaskTemplates],
  ['notifications', schema.notifications],
  ['notificationAssignments', schema.notificationAssignments],
  ['reports', schema.reports],
  ['workflows', schema.workflows],
  ['workflowSteps', schema.workflowSteps],
  ['faqs', schema.faqs],
  ['chatRooms', schema.chatRooms],
  ['chatRoomMembers', schema.chatRoomMembers],
  ['chatMessages', schema.chatMessages],
  ['costTypes', schema.costTypes],
  ['costs', schema.costs],
  ['attachments', schema.attachments],
  ['subscriptions', schema.subscriptions],
  ['billingInfos', schema.billingInfos],
  ['orders', schema.orders],
  ['feedback', schema.feedback],
];

// why: PostgreSQL allows at most 65535 bind parameters per statement; stay well below it.
const MAX_PARAMETERS = 30_000;

/** Inserts rows in statements that stay below the bind-parameter limit (also used by the benchmark data generator). */
export async function insertAll(tx: Tx | Db, table: PgTable, rows: readonly Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return;
  const perRow = Object.keys(getTableColumns(table)).length;
  const chunk = Math.max(1, Math.floor(MAX_PARAMETERS / perRow));
  for (let i = 0; i < rows.length; i += chunk) {
    await tx.insert(table).values(rows.slice(i, i + chunk) as never);
  }
}

/**
 * Loads the demo plant into an empty database in one transaction: the global reference
 * data, one organisation with two works, ~40 machines and a year of history, and the demo logins.
 */
export async function seedDemo(db: Db, options: SeedDemoOptions = {}): Promise<SeedSummary> {
  const now = options.now ?? new Date();
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const data = buildDemoData(now, passwordHash);
  const bucketid = options.storage?.bucketid ?? 'local';
  for (const file of data.tables.files) file.bucketid = bucketid;
  const unplaced = Object.keys(data.tables).filter((key) => !INSERT_ORDER.some(([ordered]) => ordered === key));
  if (unplaced.length > 0) throw new Error(`demo tables without an insert position: ${unplaced.join(', ')}`);

  // Bytes first: if the transaction fails, unreferenced files are harmless; rows pointing at missing bytes are not.
  if (options.storage) {
    for (const blob of data.blobs) await options.storage.put(blob.key, blob.bytes, blob.mimetype);
  }

  await db.transaction(async (tx) => {
    await seedReferenceData(tx, { storage: options.storage });
    for (const [key, table] of INSERT_ORDER) await insertAll(tx, table, data.tables[key] as Record<string, unknown>[]);
  });

  const counts: Record<string, number> = {};
  for (const [key, table] of INSERT_ORDER) counts[getTableName(table)] = data.tables[key].length;
  return { legalentitynodeid: data.tenantId, counts, storedFiles: options.storage ? data.blobs.length : 0 };
}

/** True when no organisation exists yet: the state in which the server may load the demo. */
export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const [entity] = await db.select({ nodeid: schema.legalEntities.nodeid }).from(schema.legalEntities).limit(1);
  const [user] = await db.select({ nodeid: schema.users.nodeid }).from(schema.users).limit(1);
  return !entity && !user;
}

/** Every table of the app schema (not drizzle's migration bookkeeping), for a full reset. */
export function appTableNames(): string[] {
  return (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .map((table) => getTableName(table))
    .sort();
}

/** Empties every app table, sync tables included, in one statement; the schema and migrations stay. */
export async function resetDatabase(db: Db): Promise<void> {
  const tables = appTableNames().map((name) => `"${name}"`).join(', ');
  await db.execute(sql.raw(`TRUNCATE TABLE ${tables} CASCADE`));
}
