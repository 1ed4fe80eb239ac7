import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolSchema, type CreatePoolInput } from '../../src/shared/api/equipmentpools';
import { apiErrorSchema } from '../../src/shared/api/errors';
import { equipmentPoolRowSchema } from '../../src/shared/rows/structure';
import { equipment, equipmentPools, structureSubscriptions, tombstones } from '../../src/server/db/schema';
import { insertArea, insertEquipment, insertEquipmentPool } from '../factories/structure';
import { insertUser, type TestTenant } from '../factories/tenant';
import { rowCount, tenantVersion } from './support/db-queries';
import { call, postCreated } from './support/requests';
import { changeOf, pullChanges, sentTwice } from './support/structure';
import { itChecksEachFlag } from './support/permission-matrix';
import { createTwoTenantApp, type TestApp } from './support/test-app';

describe('equipment pools', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let adminA: string;
  let adminB: string;

  const input = (overrides: Partial<CreatePoolInput> = {}): CreatePoolInput => ({ lang: 'de', name: 'Mobile Geräte', isequipmentpoolof: a.legalEntity.nodeid, ...overrides });
  // A write answers the pool's row, exactly (what the change feed sends); its machines come with GET.
  const create = (body: CreatePoolInput) => postCreated(t, adminA, '/api/equipmentpools', body, equipmentPoolRowSchema.strict());
  const read = async (nodeid: string) => poolSchema.parse((await call(t, adminA, 'GET', `/api/equipmentpools/${nodeid}?lang=de`)).json());

  beforeAll(async () => {
    ({ t, a, b, adminA, adminB } = await createTwoTenantApp());
  });
  afterAll(() => t?.close());

  it('creates a pool moving machines out of their old pool, keeping their area; one version; in the change feed', async () => {
    const le = a.legalEntity.nodeid;
    const oldPool = await insertEquipmentPool(t.database.db, { legalentitynodeid: le });
    const area = await insertArea(t.database.db, { legalentitynodeid: le });
    const machine = await insertEquipment(t.database.db, { legalentitynodeid: le, areanodeid: area.nodeid, equipmentpoolnodeid: oldPool.nodeid, name: 'Stapler' });
    const v0 = await tenantVersion(t.database.db, le);
    const nodeid = uuidv7();
    const pool = await create(input({ nodeid, assign: { payload: [{ equipmentnodeid: machine.nodeid }] } }));
    expect(pool).toEqual({ nodeid, legalentitynodeid: le, name: { de: 'Mobile Geräte' }, version: v0 + 1 });
    expect(await read(nodeid)).toEqual({ nodeid, name: 'Mobile Geräte', hasequipment: [{ nodeid: machine.nodeid, name: 'Stapler', equipmentid: machine.equipmentid }], version: v0 + 1 });
    const [moved] = await t.database.db.select().from(equipment).where(eq(equipment.nodeid, machine.nodeid));
    expect(moved).toMatchObject({ equipmentpoolnodeid: nodeid, areanodeid: area.nodeid });
    const changes = await pullChanges(t, adminA, v0);
    // The answer is the row the next pull brings.
    expect(changeOf(changes, 'equipmentpools', nodeid).data).toEqual(pool);
    expect(changeOf(changes, 'equipment', machine.nodeid).data).toMatchObject({ equipmentpoolnodeid: nodeid });
  });

  it('renames in one language, keeping the others; lists (also per subscribed user) and deletes, unlinking its machines', async () => {
    const le = a.legalEntity.nodeid;
    const pool = await create(input());
    const renamed = await call(t, adminA, 'PUT', `/api/equipmentpools/${pool.nodeid}`, { lang: 'en', name: 'Mobile equipment', equipmentpoolnodeid: pool.nodeid });
    expect(equipmentPoolRowSchema.strict().parse(renamed.json()).name).toEqual({ de: 'Mobile Geräte', en: 'Mobile equipment' });
    expect((await call(t, adminA, 'GET', `/api/equipmentpools/${pool.nodeid}?lang=de`)).json()).toMatchObject({ name: 'Mobile Geräte' });

    const all = poolSchema.array().parse((await call(t, adminA, 'GET', '/api/equipmentpools?lang=de')).json());
    expect(all.map((p) => p.nodeid)).toContain(pool.nodeid);
    const user = await insertUser(t.database.db, { legalentitynodeid: le, profileid: a.adminProfile.profileid });
    await t.database.db.insert(structureSubscriptions).values({ nodeid: uuidv7(), legalentitynodeid: le, usernodeid: user.nodeid, equipmentpoolnodeid: pool.nodeid });
    const subscribed = poolSchema.array().parse((await call(t, adminA, 'GET', `/api/equipmentpools?usernodeid=${user.nodeid}&lang=de`)).json());
    expect(subscribed.map((p) => p.nodeid)).toEqual([pool.nodeid]);
    expect((await call(t, adminA, 'GET', `/api/equipmentpools?usernodeid=${b.admin.nodeid}`)).statusCode).toBe(404);

    const machine = await insertEquipment(t.database.db, { legalentitynodeid: le, equipmentpoolnodeid: pool.nodeid });
    const deleted = await call(t, adminA, 'DELETE', `/api/equipmentpools/${pool.nodeid}`, { equipmentpoolnodeid: pool.nodeid });
    expect(deleted.statusCode).toBe(200);
    const { version } = deleted.json() as { version: number };
    const stones = await t.database.db.select().from(tombstones).where(and(eq(tombstones.legalentitynodeid, le), eq(tombstones.version, version)));
    expect(stones.map((s) => s.kind).sort()).toEqual(['equipment_pools', 'structure_subscriptions']);
    const [unlinked] = await t.database.db.select().from(equipment).where(eq(equipment.nodeid, machine.nodeid));
    expect(unlinked).toMatchObject({ equipmentpoolnodeid: null, version });
    expect(changeOf(await pullChanges(t, adminA, version - 1), 'equipmentpools', pool.nodeid).deleted).toBe(true);
  });

  it.each([
    ['name', { name: '' }],
    ['isequipmentpoolof', { isequipmentpoolof: 'nope' }],
  ] as [string, Partial<CreatePoolInput>][])('400 naming %s, nothing written', async (field, overrides) => {
    const before = await rowCount(t.database.db, equipmentPools);
    const response = await call(t, adminA, 'POST', '/api/equipmentpools', input(overrides));
    expect(response.statusCode).toBe(400);
    expect(apiErrorSchema.parse(response.json()).details?.map((d) => d.field)).toEqual([field]);
    expect(await rowCount(t.database.db, equipmentPools)).toBe(before);
  });

  it('answers 401 without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/equipmentpools' })).statusCode).toBe(401);
  });

  itChecksEachFlag({
    tenant: () => ({ t, legalentitynodeid: a.legalEntity.nodeid }),
    feature: 'equipmentpool',
    routes: [
      { flag: 'create', name: 'POST /api/equipmentpools', request: () => ['POST', '/api/equipmentpools', input()], ok: 201 },
      { flag: 'read', name: 'GET /api/equipmentpools', request: () => ['GET', '/api/equipmentpools'], ok: 200 },
      { flag: 'update', name: 'PUT /api/equipmentpools/{id}', request: (id) => ['PUT', `/api/equipmentpools/${id}`, { name: 'Neu' }], ok: 200 },
      { flag: 'delete', name: 'DELETE /api/equipmentpools/{id}', request: (id) => ['DELETE', `/api/equipmentpools/${id}`], ok: 200 },
    ],
    subject: async () => (await create(input())).nodeid,
  });

  it('tenant scope: 404 for B on A’s pool, for a pool of A’s legal entity, and for moving A’s machines', async () => {
    const pool = await create(input());
    expect((await call(t, adminB, 'GET', `/api/equipmentpools/${pool.nodeid}`)).statusCode).toBe(404);
    expect((await call(t, adminB, 'PUT', `/api/equipmentpools/${pool.nodeid}`, { name: 'X' })).statusCode).toBe(404);
    expect((await call(t, adminB, 'DELETE', `/api/equipmentpools/${pool.nodeid}`)).statusCode).toBe(404);
    expect((await call(t, adminB, 'POST', '/api/equipmentpools', input())).statusCode).toBe(404);
    const machineA = await insertEquipment(t.database.db, { legalentitynodeid: a.legalEntity.nodeid });
    const before = await rowCount(t.database.db, equipmentPools);
    expect((await call(t, adminB, 'POST', '/api/equipmentpools', { lang: 'de', name: 'Fremd', assign: { payload: [{ equipmentnodeid: machineA.nodeid }] } })).statusCode).toBe(404);
    expect(await rowCount(t.database.db, equipmentPools)).toBe(before);
  });

  it('replays a create under the same mutation id and answers a repeated create with the pool', async () => {
    const body = input({ nodeid: uuidv7() });
    await sentTwice(t, adminA, 'POST', '/api/equipmentpools', body, { status: 201 });
    expect((await call(t, adminA, 'POST', '/api/equipmentpools', body)).statusCode).toBe(201);
    expect((await call(t, adminA, 'POST', '/api/equipmentpools', { ...body, name: 'Anders' })).statusCode).toBe(409);
  });
});
