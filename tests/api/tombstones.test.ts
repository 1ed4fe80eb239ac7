import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tombstones } from '../../src/server/db/schema';
import { recordTombstone } from '../../src/server/services/change-feed';
import { insertLegalEntity } from '../factories/tenant';
import { createTestDatabase, type TestDatabase } from './support/test-database';

describe('tombstones', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test?.drop());

  it('belong to their tenant: another tenant deleting the same client-chosen id leaves the first one alone', async () => {
    const { db } = test.database;
    const a = await insertLegalEntity(db);
    const b = await insertLegalEntity(db);
    const nodeid = uuidv7();
    await db.transaction((tx) => recordTombstone(tx, a.nodeid, 'notifications', nodeid, 7));
    await db.transaction((tx) => recordTombstone(tx, b.nodeid, 'notifications', nodeid, 3));
    await db.transaction((tx) => recordTombstone(tx, a.nodeid, 'notifications', nodeid, 9));

    const rows = await db.select().from(tombstones).where(eq(tombstones.nodeid, nodeid));
    expect(rows.map((r) => [r.legalentitynodeid, r.version]).sort()).toEqual(
      [
        [a.nodeid, 9],
        [b.nodeid, 3],
      ].sort(),
    );
  });
});
