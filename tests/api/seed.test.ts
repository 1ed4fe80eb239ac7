import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, eq, getTableColumns, getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/server/auth/password';
import type { Db } from '../../src/server/db/client';
import * as schema from '../../src/server/db/schema';
import { DEMO_PASSWORD, DEMO_USERS } from '../../src/server/db/seed/demo-users';
import { appTableNames, isDatabaseEmpty, resetDatabase, seedDemo } from '../../src/server/db/seed/seed-demo';
import { cleanupUnreferencedFiles } from '../../src/server/services/file-service';
import { createLocalStorage } from '../../src/server/storage/local-storage';
import { allowedReminders } from '../../src/shared/domain/maintenance';
import { NOTIFICATION_STATUSES, NOTIFICATION_TYPES, UNUSED_NOTIFICATION_TYPES } from '../../src/shared/domain/notification';
import { can } from '../../src/shared/permissions';
import { createTestDatabase, type TestDatabase } from './support/test-database';

// why a fixed clock: the demo's dates are relative to `now`; a fixed one makes counts and determinism exact.
const NOW = new Date('2026-03-15T10:00:00Z');

const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable));

async function count(db: Db, table: PgTable): Promise<number> {
  return db.$count(table);
}

/** What must be identical between two seeds with the same clock. */
async function fingerprint(db: Db) {
  return {
    users: await db.select({ nodeid: schema.users.nodeid, email: schema.users.email }).from(schema.users).orderBy(asc(schema.users.nodeid)),
    equipment: await db.select({ nodeid: schema.equipment.nodeid, name: schema.equipment.name }).from(schema.equipment).orderBy(asc(schema.equipment.nodeid)),
    notifications: await db
      .select({ nodeid: schema.notifications.nodeid, title: schema.notifications.title, created: schema.notifications.created })
      .from(schema.notifications)
      .orderBy(asc(schema.notifications.nodeid)),
  };
}

describe('demo seed', () => {
  let testDb: TestDatabase;
  let db: Db;
  let emptyBefore: boolean;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = testDb.database.db;
    emptyBefore = await isDatabaseEmpty(db);
    await seedDemo(db, { now: NOW });
  });

  afterAll(async () => {
    await testDb?.drop();
  });

  it('reports the database empty before seeding and not after', async () => {
    expect(emptyBefore).toBe(true);
    expect(await isDatabaseEmpty(db)).toBe(false);
  });

  it('loads a plant of the described size', async () => {
    const ranges: [PgTable, number, number][] = [
      [schema.sites, 2, 2],
      [schema.areas, 4, 6],
      [schema.equipmentPools, 2, 3],
      [schema.equipment, 35, 45],
      [schema.brands, 8, 20],
      [schema.equipmentTypes, 10, 40],
      [schema.shifts, 6, 40],
      [schema.notifications, 250, 700],
      [schema.workflows, 50, 400],
      [schema.reports, 100, 400],
      [schema.costs, 200, 1500],
      [schema.costTypes, 5, 5],
      [schema.counters, 41, 100],
      [schema.counterReadings, 400, 1500],
      [schema.maintenanceTasks, 40, 200],
      [schema.maintenanceCategories, 3, 10],
      [schema.faqs, 20, 100],
      [schema.attachments, 100, 400],
      [schema.files, 200, 700],
      [schema.chatRooms, 5, 30],
      [schema.chatMessages, 15, 200],
      [schema.users, 8, 15],
      [schema.profiles, 3, 3],
      [schema.plans, 2, 5],
      [schema.subscriptions, 1, 3],
      [schema.billingInfos, 1, 1],
      [schema.units, 2, 10],
      [schema.attachmentCategories, 5, 5],
      [schema.supportFaqs, 3, 10],
      [schema.supportDocuments, 2, 10],
    ];
    for (const [table, min, max] of ranges) {
      const n = await count(db, table);
      expect(n, getTableName(table)).toBeGreaterThanOrEqual(min);
      expect(n, getTableName(table)).toBeLessThanOrEqual(max);
    }
  });

  it('has every notification type except the unused 4 and 5, and every status', async () => {
    const types = await db.selectDistinct({ type: schema.notifications.type }).from(schema.notifications);
    const expected = NOTIFICATION_TYPES.filter((t) => !(UNUSED_NOTIFICATION_TYPES as readonly number[]).includes(t));
    expect(types.map((r) => r.type).sort((a, b) => a - b)).toEqual(expected);
    const statuses = await db.selectDistinct({ status: schema.notifications.status }).from(schema.notifications);
    expect(statuses.map((r) => r.status).sort()).toEqual([...NOTIFICATION_STATUSES]);
  });

  it('keeps notification times consistent with their status', async () => {
    const rows = await db.select().from(schema.notifications);
    for (const n of rows) {
      expect(n.created.getTime(), n.title).toBeLessThanOrEqual(NOW.getTime());
      if (n.status === 0) expect(n.closed).toBeNull();
      if (n.status >= 1) expect(n.progressstarted, n.title).not.toBeNull();
      if (n.status === 2) {
        expect(n.closed, n.title).not.toBeNull();
        expect(n.closed!.getTime()).toBeGreaterThanOrEqual(n.progressstarted!.getTime());
        expect(n.closed!.getTime()).toBeLessThanOrEqual(NOW.getTime());
      }
    }
  });

  it('creates the demo users with working passwords and the three profiles', async () => {
    for (const demo of Object.values(DEMO_USERS)) {
      const [user] = await db.select().from(schema.users).where(eq(schema.users.email, demo.email));
      expect(user, demo.email).toBeDefined();
      expect(user!.active).toBe(true);
      expect(user!.profileid).toBe(demo.profileid);
      expect(await verifyPassword(user!.passwordHash!, DEMO_PASSWORD)).toBe(true);
      expect(await verifyPassword(user!.passwordHash!, 'wrong-password')).toBe(false);
    }
    const profiles = new Map((await db.select().from(schema.profiles)).map((p) => [p.profileid, p]));
    const subject = (profileid: string) => ({ admin: false, features: profiles.get(profileid)!.features });
    expect(can(subject('admin'), 'user', 'delete')).toBe(true);
    expect(can(subject('technician'), 'notification', 'create')).toBe(true);
    expect(can(subject('technician'), 'notification.report', 'create')).toBe(true);
    expect(can(subject('technician'), 'equipment.counter', 'update')).toBe(true);
    expect(can(subject('technician'), 'equipment.attachment', 'create')).toBe(true);
    expect(can(subject('technician'), 'equipment', 'read')).toBe(true);
    expect(can(subject('technician'), 'equipment', 'delete')).toBe(false);
    expect(can(subject('technician'), 'user', 'read')).toBe(false);
    expect(can(subject('reader'), 'notification', 'read')).toBe(true);
    expect(can(subject('reader'), 'notification', 'create')).toBe(false);
    const [admin] = await db.select().from(schema.users).where(eq(schema.users.email, DEMO_USERS.admin.email));
    expect(admin!.admin).toBe(true);
    expect(admin!.assignedequipment.length).toBeGreaterThan(0);
    expect(await db.$count(schema.users, eq(schema.users.active, false))).toBeGreaterThan(0);
  });

  it('fills every equipment form field', async () => {
    const rows = await db.select().from(schema.equipment);
    for (const e of rows) {
      for (const field of ['equipmentid', 'inventoryid', 'manufacturerserialnumber', 'commissioningdate', 'costcenter', 'dimensions', 'electricalpower', 'hourlyrate', 'imagefilenodeid', 'typenameplatefilenodeid', 'equipmentclassnodeid'] as const) {
        expect(e[field], `${e.name}.${field}`).not.toBeNull();
      }
      expect(e.mediasupply.length, e.name).toBeGreaterThan(0);
    }
    expect(rows.some((e) => e.areanodeid && e.equipmentpoolnodeid), 'in area and pool').toBe(true);
    expect(rows.some((e) => !e.areanodeid && e.equipmentpoolnodeid), 'pool only').toBe(true);
    expect(rows.some((e) => !e.areanodeid && !e.equipmentpoolnodeid), 'unlinked').toBe(true);
  });

  it('plans maintenance within the spec’s closed sets', async () => {
    const tasks = await db.select().from(schema.maintenanceTasks);
    for (const task of tasks) {
      if (task.reminder) expect(allowedReminders(task.repetitioninterval), task.title).toContain(task.reminder);
      if (task.triggertype === 'counter') expect(task.triggeringcounternodeid).not.toBeNull();
      if (task.triggertype === 'time' && task.repetitioninterval !== 'onetime') expect(task.nextdueat!.getTime()).toBeGreaterThan(NOW.getTime());
    }
    expect(new Set(tasks.map((t) => t.repetitioninterval)).size).toBeGreaterThanOrEqual(8);
    expect(tasks.some((t) => t.triggertype === 'counter')).toBe(true);
  });

  it('writes every tenant row and the tenant version at version 1', async () => {
    for (const table of tables) {
      if (!('version' in getTableColumns(table))) continue;
      const [row] = await db.execute<{ n: number }>(sql`select count(*)::int as n from ${table} where version <> 1`).then((r) => (r as unknown as { rows: { n: number }[] }).rows);
      expect(row!.n, getTableName(table)).toBe(0);
    }
    const versions = await db.select().from(schema.tenantVersions);
    expect(versions).toHaveLength(1);
    expect(versions[0]!.version).toBe(1);
  });

  it('is deterministic: the same clock gives the same ids and texts', async () => {
    const other = await createTestDatabase();
    try {
      await seedDemo(other.database.db, { now: NOW });
      expect(await fingerprint(other.database.db)).toEqual(await fingerprint(db));
    } finally {
      await other.drop();
    }
  });

  it('names every file it stores in a record, so the cleanup of unnamed files takes none of them, even a year on', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'anl-seed-cleanup-'));
    try {
      const { removed } = await cleanupUnreferencedFiles({ db, kind: testDb.database.kind }, createLocalStorage(dir), { nowMs: NOW.getTime() + 365 * 24 * 3_600_000, limit: 100_000 });
      expect(removed).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('seeds again after a reset, with files through the local store', async () => {
    const before = await fingerprint(db);
    await resetDatabase(db);
    expect(await isDatabaseEmpty(db)).toBe(true);
    for (const name of appTableNames()) {
      const [row] = await db.execute<{ n: number }>(sql.raw(`select count(*)::int as n from "${name}"`)).then((r) => (r as unknown as { rows: { n: number }[] }).rows);
      expect(row!.n, name).toBe(0);
    }

    const dir = await mkdtemp(join(tmpdir(), 'anl-seed-files-'));
    try {
      const storage = createLocalStorage(dir);
      const summary = await seedDemo(db, { now: NOW, storage });
      expect(await fingerprint(db)).toEqual(before);
      const files = await db.select().from(schema.files);
      expect(summary.storedFiles).toBe(files.length);
      for (const file of files.slice(0, 25)) {
        expect(file.status).toBe('complete');
        const bytes = await storage.get(file.storagekey);
        expect(bytes?.byteLength, file.storagekey).toBe(file.size);
      }
      expect(await storage.get('support/schnellstart.pdf')).not.toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
