import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/client';
import * as schema from '../../src/server/db/schema';
import { insertCounter, insertCounterReading, insertNotification } from '../factories/notifications';
import { insertLegalEntity } from '../factories/tenant';
import { buildEquipment, insertArea, insertEquipment, insertEquipmentPool, insertSite } from '../factories/structure';
import { createTestDatabase, type TestDatabase } from './support/test-database';

// The factories must produce rows the real schema accepts, constraints included, and create missing parents.

describe('structure and notification factories', () => {
  let testDb: TestDatabase;
  let db: Db;
  let legalentitynodeid: string;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = testDb.database.db;
    legalentitynodeid = (await insertLegalEntity(db)).nodeid;
  });

  afterAll(async () => {
    await testDb?.drop();
  });

  it('builds plain insert objects with overrides winning', () => {
    const row = buildEquipment({ legalentitynodeid, equipmenttypenodeid: uuidv7(), name: 'Fräse 7' });
    expect(row.name).toBe('Fräse 7');
    expect(row.legalentitynodeid).toBe(legalentitynodeid);
    expect(row.dimensions).toHaveLength(3);
  });

  it('inserts a machine into an area and a pool, creating its type chain', async () => {
    const area = await insertArea(db, { legalentitynodeid });
    const pool = await insertEquipmentPool(db, { legalentitynodeid });
    const machine = await insertEquipment(db, { legalentitynodeid, areanodeid: area.nodeid, equipmentpoolnodeid: pool.nodeid });
    expect(machine.areanodeid).toBe(area.nodeid);
    const [type] = await db.select().from(schema.equipmentTypes).where(eq(schema.equipmentTypes.nodeid, machine.equipmenttypenodeid));
    const [brand] = await db.select().from(schema.brands).where(eq(schema.brands.nodeid, type!.brandnodeid));
    const [manufacturer] = await db.select().from(schema.legalEntities).where(eq(schema.legalEntities.nodeid, brand!.manufacturernodeid));
    expect(manufacturer!.ownerlegalentitynodeid).toBe(legalentitynodeid);
  });

  it('inserts notifications and counters with readings', async () => {
    const site = await insertSite(db, { legalentitynodeid, city: 'Chemnitz' });
    expect(site.country).toBe('DE');
    const notification = await insertNotification(db, { legalentitynodeid, type: 0, status: 1, progressstarted: new Date() });
    expect(notification.type).toBe(0);
    const counter = await insertCounter(db, { legalentitynodeid });
    await insertCounterReading(db, { legalentitynodeid, counternodeid: counter.nodeid, value: 1234.5 });
    const readings = await db.select().from(schema.counterReadings).where(eq(schema.counterReadings.counternodeid, counter.nodeid));
    expect(readings.map((r) => r.value)).toEqual([1234.5]);
  });

  it('lets the database reject what the spec forbids', async () => {
    await expect(insertNotification(db, { legalentitynodeid, type: 13 as never })).rejects.toThrow();
    await expect(insertSite(db, { legalentitynodeid, country: 'Deutschland' })).rejects.toThrow();
  });
});
