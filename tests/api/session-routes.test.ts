import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileSchema } from '../../src/shared/api/auth';
import { ACCESS_DENIED_MESSAGE } from '../../src/shared/api/errors';
import { aclUserSchema, chatRoomSchema, structureTreeSchema } from '../../src/shared/api/structure';
import { userSchema } from '../../src/shared/api/users';
import type { Db } from '../../src/server/db/client';
import { chatMessages, chatRoomMembers, chatRooms, structureSubscriptions } from '../../src/server/db/schema';
import { insertArea, insertBrand, insertEquipment, insertEquipmentPool, insertEquipmentType, insertSite } from '../factories/structure';
import { allFeatures, insertProfile, insertUser, loginAs, type TestTenant, type TestUser } from '../factories/tenant';
import { call, onlyFlag, userWithFlags } from './support/requests';
import { createTwoTenantApp, type TestApp } from './support/test-app';

// The routes the client loads right after login (spec part 2 §4), and GET /api/users/{id}.

describe('session routes', () => {
  let t: TestApp;
  let a: TestTenant;
  let technician: TestUser;
  let authA: string;
  let authB: string;
  let authTechnician: string;
  let plant: Awaited<ReturnType<typeof buildPlant>>;

  const get = (authorization: string, url: string) => call(t, authorization, 'GET', url);

  beforeAll(async () => {
    ({ t, a, adminA: authA, adminB: authB } = await createTwoTenantApp());
    const profile = await insertProfile(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, profileid: 'technician', features: allFeatures({ user: [false, false, false, false] }) });
    technician = await insertUser(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, profileid: profile.profileid, givenname: 'Jonas', surname: 'Weber' });
    authTechnician = (await loginAs(t.app, technician)).authorization;
    plant = await buildPlant(t.database.db, a.legalEntity.nodeid, technician.nodeid);
  });
  afterAll(() => t?.close());

  describe('GET /api/users/acl/{clientid}', () => {
    it('lists the users of the caller’s organisation', async () => {
      const response = await get(authTechnician, `/api/users/acl/${a.legalEntity.clientid}`);
      expect(response.statusCode).toBe(200);
      const list = aclUserSchema.array().parse(response.json());
      expect(list.map((u) => u.usernodeid).sort()).toEqual([a.admin.nodeid, technician.nodeid].sort());
      expect(list.find((u) => u.usernodeid === technician.nodeid)).toEqual({
        userid: technician.userid,
        usernodeid: technician.nodeid,
        givenname: 'Jonas',
        surname: 'Weber',
        active: true,
        userinfo: { profileid: 'technician' },
      });
    });

    it('answers 404 for another organisation’s client id', async () => {
      expect((await get(authB, `/api/users/acl/${a.legalEntity.clientid}`)).statusCode).toBe(404);
      expect((await get(authB, '/api/users/acl/unknown-client')).statusCode).toBe(404);
    });
  });

  describe('GET /api/users/{id}', () => {
    it('lets a user read their own record without the user feature', async () => {
      const response = await get(authTechnician, `/api/users/${technician.nodeid}`);
      expect(response.statusCode).toBe(200);
      const user = userSchema.parse(response.json());
      expect(user).toMatchObject({ nodeid: technician.nodeid, email: technician.email, profileid: 'technician', active: true });
      expect(response.body).not.toMatch(/password/i);
    });

    it('needs the user read flag for someone else', async () => {
      const denied = await get(authTechnician, `/api/users/${a.admin.nodeid}`);
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toMatchObject({ message: ACCESS_DENIED_MESSAGE });
      expect((await get(authA, `/api/users/${technician.nodeid}`)).statusCode).toBe(200);
    });

    it('answers 404 for a user of another tenant', async () => {
      expect((await get(authB, `/api/users/${technician.nodeid}`)).statusCode).toBe(404);
      expect((await get(authB, `/api/users/${uuidv7()}`)).statusCode).toBe(404);
    });
  });

  describe('GET /api/profiles', () => {
    it('lists the organisation’s profiles only', async () => {
      const response = await get(authTechnician, '/api/profiles');
      expect(response.statusCode).toBe(200);
      const list = profileSchema.array().parse(response.json());
      expect(list.map((p) => p.id)).toEqual(['admin', 'technician']);
      expect(profileSchema.array().parse((await get(authB, '/api/profiles')).json()).map((p) => p.id)).toEqual(['admin']);
    });
  });

  describe('GET /api/chatrooms', () => {
    it('lists the rooms the user takes part in, latest message first', async () => {
      const response = await get(authTechnician, `/api/chatrooms?usernodeid=${technician.nodeid}&lang=de`);
      expect(response.statusCode).toBe(200);
      const rooms = chatRoomSchema.array().parse(response.json());
      expect(rooms.map((r) => r.name)).toEqual(['Störung Fräse', 'Schichtübergabe']);
      expect(rooms[0]!.lastmessageat).toBe(plant.lastMessageAt.getTime());
      expect(rooms[1]!.lastmessageat).toBeNull();
    });

    it('lets only admins ask for someone else, and only inside the tenant', async () => {
      expect((await get(authTechnician, `/api/chatrooms?usernodeid=${a.admin.nodeid}`)).statusCode).toBe(403);
      const asAdmin = await get(authA, `/api/chatrooms?usernodeid=${technician.nodeid}`);
      expect(asAdmin.statusCode).toBe(200);
      expect((asAdmin.json() as unknown[]).length).toBe(2);
      expect((await get(authB, `/api/chatrooms?usernodeid=${technician.nodeid}`)).statusCode).toBe(404);
    });

    it('answers 400 without usernodeid', async () => {
      const response = await get(authTechnician, '/api/chatrooms');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ details: [{ field: 'usernodeid' }] });
    });
  });

  describe('structure trees', () => {
    it('GET /api/allsitesareasequipments: the whole tenant, sorted by name', async () => {
      const response = await get(authTechnician, '/api/allsitesareasequipments?lang=de');
      expect(response.statusCode).toBe(200);
      const tree = structureTreeSchema.parse(response.json());
      expect(tree.sites.map((s) => s.name)).toEqual(['Werk Nord', 'Werk Süd']);
      const nord = tree.sites[0]!;
      expect(nord.areas.map((x) => x.name)).toEqual(['Halle 1', 'Halle 2']);
      expect(nord.areas[0]!.equipment).toEqual([
        { nodeid: plant.machines.mill, name: 'Fräse 1', equipmentid: 'EQ-1', inventoryid: null, brand: 'DMG', model: 'DMU 50', imageurl: null },
      ]);
      expect(tree.equipmentpools).toEqual([{ nodeid: plant.pool, name: 'Stapler', equipment: [expect.objectContaining({ nodeid: plant.machines.forklift })] }]);
      expect(tree.unlinked.map((m) => m.nodeid)).toEqual([plant.machines.unlinked]);
    });

    it('names pools in the asked language', async () => {
      const tree = structureTreeSchema.parse((await get(authTechnician, '/api/allsitesareasequipments?lang=en')).json());
      expect(tree.equipmentpools[0]!.name).toBe('Forklifts');
    });

    it('GET /api/sitesareasequipments: only what the user subscribes to', async () => {
      const tree = structureTreeSchema.parse((await get(authTechnician, '/api/sitesareasequipments')).json());
      // Subscribed: area Halle 2 of Werk Nord, and the whole of Werk Süd; no pool.
      expect(tree.sites.map((s) => [s.name, s.areas.map((x) => x.name)])).toEqual([
        ['Werk Nord', ['Halle 2']],
        ['Werk Süd', ['Montage']],
      ]);
      expect(tree.equipmentpools).toEqual([]);
      expect(tree.unlinked).toEqual([]);
      const admin = structureTreeSchema.parse((await get(authA, '/api/sitesareasequipments')).json());
      expect(admin).toEqual({ sites: [], equipmentpools: [], unlinked: [] });
    });

    it('shows another tenant nothing of it', async () => {
      const tree = structureTreeSchema.parse((await get(authB, '/api/allsitesareasequipments')).json());
      expect(tree).toEqual({ sites: [], equipmentpools: [], unlinked: [] });
    });

    it('needs the equipment read flag: the trees list every machine', async () => {
      const le = a.legalEntity.nodeid;
      const blind = await insertProfile(t.database.db, { legalentitynodeid: le, features: allFeatures({ equipment: [false, false, false, false] }) });
      const user = await insertUser(t.database.db, { legalentitynodeid: le, profileid: blind.profileid });
      const { authorization } = await loginAs(t.app, user);
      for (const url of ['/api/allsitesareasequipments', '/api/sitesareasequipments']) {
        const response = await get(authorization, url);
        expect(response.statusCode, url).toBe(403);
        expect(response.json()).toMatchObject({ message: ACCESS_DENIED_MESSAGE });
      }
    });
  });
});

describe('issue #10, defect 8: leaks and spec paths', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let adminA: string;
  let adminB: string;

  beforeAll(async () => {
    ({ t, a, b, adminA, adminB } = await createTwoTenantApp());
  });
  afterAll(() => t?.close());

  it('GET /api/equipmentpools?usernodeid: one’s own always; another user’s only with user update (403), of the own tenant (404)', async () => {
    const le = a.legalEntity.nodeid;
    const pool = await insertEquipmentPool(t.database.db, { legalentitynodeid: le, name: { de: 'Stapler' } });
    await call(t, adminA, 'POST', '/api/subscriptions', { usernodeid: a.admin.nodeid, equipmentpoolnodeid: pool.nodeid });
    const reader = await userWithFlags(t, le, 'user', onlyFlag('read'));
    await call(t, reader.authorization, 'POST', '/api/subscriptions', { usernodeid: reader.usernodeid, equipmentpoolnodeid: pool.nodeid });

    const leak = await call(t, reader.authorization, 'GET', `/api/equipmentpools?usernodeid=${a.admin.nodeid}`);
    expect(leak.statusCode, leak.body).toBe(403);
    expect(leak.json()).toMatchObject({ message: ACCESS_DENIED_MESSAGE });
    const own = await call(t, reader.authorization, 'GET', `/api/equipmentpools?usernodeid=${reader.usernodeid}`);
    expect(own.statusCode).toBe(200);
    expect((own.json() as { nodeid: string }[]).map((p) => p.nodeid)).toEqual([pool.nodeid]);

    const manager = await userWithFlags(t, le, 'user', onlyFlag('update'));
    expect((await call(t, manager.authorization, 'GET', `/api/equipmentpools?usernodeid=${a.admin.nodeid}`)).statusCode).toBe(200);
    expect((await call(t, manager.authorization, 'GET', `/api/equipmentpools?usernodeid=${b.admin.nodeid}`)).statusCode).toBe(404);
  });

  it('DELETE /api/subscriptions/{id} of another tenant’s entry (or one never made) answers 404 and ends nothing', async () => {
    const pool = await insertEquipmentPool(t.database.db, { legalentitynodeid: b.legalEntity.nodeid });
    const entry = await call(t, adminB, 'POST', '/api/subscriptions', { usernodeid: b.admin.nodeid, equipmentpoolnodeid: pool.nodeid });
    expect(entry.statusCode, entry.body).toBe(200);
    const { nodeid } = entry.json() as { nodeid: string };

    const foreign = await call(t, adminA, 'DELETE', `/api/subscriptions/${nodeid}`);
    expect(foreign.statusCode, foreign.body).toBe(404);
    expect(foreign.body).not.toContain(b.legalEntity.nodeid);
    expect((await call(t, adminA, 'DELETE', `/api/subscriptions/${uuidv7()}`)).statusCode).toBe(404);
    expect(await t.database.db.select().from(structureSubscriptions).where(eq(structureSubscriptions.nodeid, nodeid))).toHaveLength(1);
  });

  it('accepts the spec’s paths as written: GET /api/getlebrty/ with its trailing slash', async () => {
    const response = await call(t, adminA, 'GET', '/api/getlebrty/?includeTypes=true&includeBrands=true');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual((await call(t, adminA, 'GET', '/api/getlebrty?includeTypes=true&includeBrands=true')).json());
  });

  it('knows every registered GET route with a trailing slash too (no route-not-found 404)', async () => {
    const gets = t.app.declaredRoutes.filter((route) => route.method === 'GET' && !route.url.includes('*'));
    expect(gets.length).toBeGreaterThan(20);
    for (const route of gets) {
      const url = `${route.url.replace(/:[A-Za-z]+/g, uuidv7())}/`;
      const response = await call(t, adminA, 'GET', url);
      expect(response.body, url).not.toMatch(/^\{"statusCode":404,"error":"Not Found","message":"Route /);
    }
  });
});

/** Two plants with areas, a pool, machines (one unlinked), subscriptions and chat rooms for the technician. */
async function buildPlant(db: Db, le: string, technician: string) {
  const tenant = { legalentitynodeid: le };
  const sued = await insertSite(db, { ...tenant, name: 'Werk Süd' });
  const nord = await insertSite(db, { ...tenant, name: 'Werk Nord' });
  const halle2 = await insertArea(db, { ...tenant, name: 'Halle 2', sitenodeid: nord.nodeid });
  const halle1 = await insertArea(db, { ...tenant, name: 'Halle 1', sitenodeid: nord.nodeid });
  await insertArea(db, { ...tenant, name: 'Montage', sitenodeid: sued.nodeid });
  const pool = await insertEquipmentPool(db, { ...tenant, name: { de: 'Stapler', en: 'Forklifts' } });
  const brand = await insertBrand(db, { ...tenant, name: 'DMG' });
  const type = await insertEquipmentType(db, { ...tenant, model: 'DMU 50', brandnodeid: brand.nodeid });
  const machine = (overrides: Partial<Parameters<typeof insertEquipment>[1]>) => insertEquipment(db, { ...tenant, equipmenttypenodeid: type.nodeid, ...overrides });
  const machines = {
    mill: (await machine({ name: 'Fräse 1', equipmentid: 'EQ-1', inventoryid: null, areanodeid: halle1.nodeid })).nodeid,
    forklift: (await machine({ name: 'Stapler 1', equipmentpoolnodeid: pool.nodeid })).nodeid,
    unlinked: (await machine({ name: 'Ersatzpumpe' })).nodeid,
  };
  await db.insert(structureSubscriptions).values([
    { nodeid: uuidv7(), ...tenant, usernodeid: technician, areanodeid: halle2.nodeid },
    { nodeid: uuidv7(), ...tenant, usernodeid: technician, sitenodeid: sued.nodeid },
  ]);

  const [fault, handover, other] = [uuidv7(), uuidv7(), uuidv7()];
  await db.insert(chatRooms).values([
    { nodeid: handover, ...tenant, name: 'Schichtübergabe' },
    { nodeid: fault, ...tenant, name: 'Störung Fräse' },
    { nodeid: other, ...tenant, name: 'Nicht meiner' },
  ]);
  await db.insert(chatRoomMembers).values([
    { nodeid: uuidv7(), ...tenant, chatroomnodeid: fault, usernodeid: technician },
    { nodeid: uuidv7(), ...tenant, chatroomnodeid: handover, usernodeid: technician },
  ]);
  const lastMessageAt = new Date('2026-03-02T08:15:00Z');
  await db.insert(chatMessages).values([
    { nodeid: uuidv7(), ...tenant, chatroomnodeid: fault, authornodeid: technician, body: 'Spindel klemmt', sent: new Date('2026-03-01T10:00:00Z') },
    { nodeid: uuidv7(), ...tenant, chatroomnodeid: fault, authornodeid: technician, body: 'Behoben', sent: lastMessageAt },
    { nodeid: uuidv7(), ...tenant, chatroomnodeid: other, authornodeid: technician, body: 'Hallo', sent: new Date('2026-03-03T08:15:00Z') },
  ]);
  return { pool: pool.nodeid, machines, lastMessageAt };
}
