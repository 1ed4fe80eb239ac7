import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedBigPlant, type BigPlantSummary } from '../../bench/data/big-plant';
import * as schema from '../../src/server/db/schema';
import { DEMO_PASSWORD, DEMO_USERS } from '../../src/server/db/seed/demo-users';
import { pullResponseSchema, type SyncChange } from '../../src/shared/api/sync';
import { loginAs } from '../factories/tenant';
import { createTestApp, type TestApp } from './support/test-app';

// why a fixed clock: the generated plant is deterministic for a seed and a clock.
const NOW = new Date('2026-03-15T10:00:00Z');

describe('big-plant generator (benchmark data)', () => {
  let t: TestApp;
  let summary: BigPlantSummary;

  beforeAll(async () => {
    t = await createTestApp();
    summary = await seedBigPlant(t.database.db, { machines: 50, notifications: 500, readings: 300, attachments: 40, seed: 3, now: NOW });
  }, 120_000);
  afterAll(async () => t?.close());

  it('adds the asked rows on top of the demo plant, each with its own version, and the tenant counter at the last', async () => {
    const le = summary.legalentitynodeid;
    expect(await t.database.db.$count(schema.equipment, eq(schema.equipment.legalentitynodeid, le))).toBe(50);
    expect(summary.generated).toMatchObject({ notifications: 500, counter_readings: 300, attachments: 40, files: 40 });
    const [counter] = await t.database.db.select().from(schema.tenantVersions).where(eq(schema.tenantVersions.legalentitynodeid, le));
    expect(counter?.version).toBe(summary.version);
  });

  it('a pull from 0 of the demo admin brings every row of the tenant, in pages', async () => {
    const session = await loginAs(t.app, { email: DEMO_USERS.admin.email, password: DEMO_PASSWORD });
    const clientid = uuidv7();
    const changes: SyncChange[] = [];
    let cursor = 0;
    let pages = 0;
    for (;;) {
      const response = await t.app.inject({ method: 'GET', url: `/api/sync/pull?cursor=${cursor}&limit=500`, headers: { authorization: session.authorization, 'x-client-id': clientid } });
      expect(response.statusCode, response.body).toBe(200);
      const page = pullResponseSchema.parse(response.json());
      changes.push(...page.changes);
      cursor = page.cursor;
      pages += 1;
      if (!page.hasMore) break;
    }
    expect(pages).toBeGreaterThan(2);
    expect(cursor).toBe(summary.version);
    const le = summary.legalentitynodeid;
    const pulled = (kind: string) => new Set(changes.filter((change) => change.kind === kind).map((change) => change.nodeid));
    const stored = async (table: typeof schema.equipment | typeof schema.notifications | typeof schema.counterReadings | typeof schema.attachments | typeof schema.files | typeof schema.areas) =>
      new Set((await t.database.db.select({ nodeid: table.nodeid }).from(table).where(eq(table.legalentitynodeid, le))).map((row) => row.nodeid));
    expect(pulled('equipment')).toEqual(await stored(schema.equipment));
    expect(pulled('areas')).toEqual(await stored(schema.areas));
    expect(pulled('notifications')).toEqual(await stored(schema.notifications));
    expect(pulled('counterreadings')).toEqual(await stored(schema.counterReadings));
    expect(pulled('attachments')).toEqual(await stored(schema.attachments));
    expect(pulled('files')).toEqual(await stored(schema.files));
  });
});
