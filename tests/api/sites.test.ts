import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_DENIED_MESSAGE, apiErrorSchema } from '../../src/shared/api/errors';
import { siteSchema, type CreateSiteInput } from '../../src/shared/api/sites';
import { siteRowSchema } from '../../src/shared/rows/structure';
import type { Db } from '../../src/server/db/client';
import { areas, equipment, recordHistory, shiftModels, shifts, sites, structureSubscriptions, tombstones } from '../../src/server/db/schema';
import { insertArea, insertEquipment } from '../factories/structure';
import { insertProfile, insertUser, loginAs, type TestTenant } from '../factories/tenant';
import { itChecksEachFlag } from './support/permission-matrix';
import { allFlagsBut, call, postCreated, userWithFlags } from './support/requests';
import { createTwoTenantApp, type TestApp } from './support/test-app';
import { rowCount, tenantVersion } from './support/db-queries';

function siteInput(legalentitynodeid: string, overrides: Partial<CreateSiteInput> = {}): CreateSiteInput {
  return { lang: 'de', name: 'Werk Nord', street: 'Industriestraße 5', siteid: 'Halle 3', zipcode: '70565', city: 'Stuttgart', country: 'DE', legalentitynodeid, ...overrides };
}

const siteCount = (db: Db, legalentitynodeid?: string) => rowCount(db, sites, legalentitynodeid ? eq(sites.legalentitynodeid, legalentitynodeid) : undefined);

describe('sites', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let adminA: string;
  let adminB: string;

  // A write answers the plant's row, exactly (what the change feed sends).
  const createSite = (authorization: string, input: CreateSiteInput) => postCreated(t, authorization, '/api/sites', input, siteRowSchema.strict());

  beforeAll(async () => {
    ({ t, a, b, adminA, adminB } = await createTwoTenantApp());
  });
  afterEach(() => {
    t.faults.beforeCommit = undefined;
  });
  afterAll(() => t?.close());

  describe('CRUD', () => {
    it('creates, reads, lists, updates and deletes a plant', async () => {
      const created = await createSite(adminA, siteInput(a.legalEntity.nodeid, { name: '  Werk Süd ', country: 'at' }));
      expect(created).toMatchObject({ name: 'Werk Süd', country: 'AT', siteid: 'Halle 3', legalentitynodeid: a.legalEntity.nodeid });

      const read = await call(t, adminA, 'GET', `/api/sites/${created.nodeid}`);
      expect(read.statusCode).toBe(200);
      expect(siteSchema.parse(read.json())).toEqual({ ...created, hasarea: [] });

      const listed = await call(t, adminA, 'GET', '/api/sites');
      expect((listed.json() as { nodeid: string }[]).map((s) => s.nodeid)).toContain(created.nodeid);

      const updated = await call(t, adminA, 'PUT', `/api/sites/${created.nodeid}`, { sitenodeid: created.nodeid, city: 'Wien', siteid: '' });
      expect(updated.statusCode).toBe(200);
      expect(siteRowSchema.strict().parse(updated.json())).toMatchObject({ name: 'Werk Süd', city: 'Wien', siteid: null, country: 'AT' });
      const [history] = await t.database.db.select().from(recordHistory).where(eq(recordHistory.nodeid, created.nodeid));
      expect(history?.changes).toEqual({ city: { old: 'Stuttgart', new: 'Wien' }, siteid: { old: 'Halle 3', new: null } });

      const deleted = await call(t, adminA, 'DELETE', `/api/sites/${created.nodeid}`, { sitenodeid: created.nodeid });
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toMatchObject({ nodeid: created.nodeid });
      expect((await call(t, adminA, 'GET', `/api/sites/${created.nodeid}`)).statusCode).toBe(404);
    });

    it('takes an id made by an offline client; the same create again answers the plant, other content 409', async () => {
      const nodeid = uuidv7();
      const created = await createSite(adminA, siteInput(a.legalEntity.nodeid, { nodeid }));
      expect(created.nodeid).toBe(nodeid);
      const same = await call(t, adminA, 'POST', '/api/sites', siteInput(a.legalEntity.nodeid, { nodeid }));
      expect(same.statusCode).toBe(201);
      expect(same.json()).toEqual(created);
      const again = await call(t, adminA, 'POST', '/api/sites', siteInput(a.legalEntity.nodeid, { nodeid, name: 'Anderes Werk' }));
      expect(again.statusCode).toBe(409);
      expect(apiErrorSchema.parse(again.json()).statusCode).toBe(409);
      const otherTenant = await call(t, adminB, 'POST', '/api/sites', siteInput(b.legalEntity.nodeid, { nodeid }));
      expect(otherTenant.statusCode).toBe(409);
      expect(otherTenant.body).not.toContain('Werk Nord');
    });

    it('rejects a body whose sitenodeid differs from the path', async () => {
      const site = await createSite(adminA, siteInput(a.legalEntity.nodeid));
      const put = await call(t, adminA, 'PUT', `/api/sites/${site.nodeid}`, { sitenodeid: uuidv7(), name: 'X' });
      expect(put.statusCode).toBe(400);
      expect(put.json()).toMatchObject({ details: [{ field: 'sitenodeid' }] });
      expect((await call(t, adminA, 'DELETE', `/api/sites/${site.nodeid}`, { sitenodeid: uuidv7() })).statusCode).toBe(400);
      expect((await call(t, adminA, 'GET', `/api/sites/${site.nodeid}`)).json()).toMatchObject({ name: 'Werk Nord' });
    });

    it('answers 400, not 500, for a malformed id', async () => {
      const response = await call(t, adminA, 'GET', '/api/sites/not-a-uuid');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ details: [{ field: 'id' }] });
    });
  });

  describe('permissions (feature key site)', () => {
    itChecksEachFlag({
      tenant: () => ({ t, legalentitynodeid: a.legalEntity.nodeid }),
      feature: 'site',
      routes: [
        { flag: 'create', name: 'POST /api/sites', request: () => ['POST', '/api/sites', siteInput(a.legalEntity.nodeid)], ok: 201 },
        { flag: 'read', name: 'GET /api/sites', request: () => ['GET', '/api/sites'], ok: 200 },
        { flag: 'read', name: 'GET /api/sites/{id}', request: (site) => ['GET', `/api/sites/${site}`], ok: 200 },
        { flag: 'update', name: 'PUT /api/sites/{id}', request: (site) => ['PUT', `/api/sites/${site}`, { sitenodeid: site, name: 'Umbenannt' }], ok: 200 },
        { flag: 'delete', name: 'DELETE /api/sites/{id}', request: (site) => ['DELETE', `/api/sites/${site}`, { sitenodeid: site }], ok: 200 },
      ],
      subject: async () => (await createSite(adminA, siteInput(a.legalEntity.nodeid))).nodeid,
      state: () => siteCount(t.database.db),
      afterRefusal: async (site, response) => {
        expect(response.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: ACCESS_DENIED_MESSAGE });
        expect((await call(t, adminA, 'GET', `/api/sites/${site}`)).json()).toMatchObject({ name: 'Werk Nord' });
      },
    });

    it('checks the permission before validating the body', async () => {
      const { authorization } = await userWithFlags(t, a.legalEntity.nodeid, 'site', allFlagsBut('create'));
      expect((await call(t, authorization, 'POST', '/api/sites', {})).statusCode).toBe(403);
    });

    it('lets an admin through whatever the profile says', async () => {
      const emptyProfile = await insertProfile(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, features: {} });
      const admin = await insertUser(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, profileid: emptyProfile.profileid, admin: true });
      const { authorization } = await loginAs(t.app, admin);
      expect((await call(t, authorization, 'POST', '/api/sites', siteInput(a.legalEntity.nodeid))).statusCode).toBe(201);
    });
  });

  describe('validation', () => {
    it.each(['name', 'street', 'zipcode', 'city', 'country'] as const)('a missing %s answers 400 naming it; nothing is written', async (field) => {
      const before = await siteCount(t.database.db);
      const input: Record<string, unknown> = { ...siteInput(a.legalEntity.nodeid) };
      delete input[field];
      const response = await call(t, adminA, 'POST', '/api/sites', input);
      expect(response.statusCode).toBe(400);
      expect(apiErrorSchema.parse(response.json()).details).toEqual([{ field, message: 'Required' }]);

      const blank = await call(t, adminA, 'POST', '/api/sites', { ...siteInput(a.legalEntity.nodeid), [field]: '   ' });
      expect(blank.statusCode).toBe(400);
      expect(apiErrorSchema.parse(blank.json()).details?.map((d) => d.field)).toEqual([field]);
      expect(await siteCount(t.database.db)).toBe(before);
    });

    it.each([
      ['country', 'XX'],
      ['country', 'Germany'],
      ['name', 'x'.repeat(201)],
      ['legalentitynodeid', 'not-a-uuid'],
      ['name', 42],
    ])('rejects %s = %j', async (field, value) => {
      const before = await siteCount(t.database.db);
      const response = await call(t, adminA, 'POST', '/api/sites', { ...siteInput(a.legalEntity.nodeid), [field]: value });
      expect(response.statusCode).toBe(400);
      expect(apiErrorSchema.parse(response.json()).details?.map((d) => d.field)).toEqual([field]);
      expect(await siteCount(t.database.db)).toBe(before);
    });

    it('rejects an empty required field on update', async () => {
      const site = await createSite(adminA, siteInput(a.legalEntity.nodeid));
      const response = await call(t, adminA, 'PUT', `/api/sites/${site.nodeid}`, { sitenodeid: site.nodeid, street: '' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ details: [{ field: 'street' }] });
    });
  });

  describe('tenant isolation', () => {
    it('hides tenant A’s plant from tenant B: 404 on read, update and delete, and not listed', async () => {
      const site = await createSite(adminA, siteInput(a.legalEntity.nodeid, { name: 'Geheimes Werk' }));
      expect((await call(t, adminB, 'GET', `/api/sites/${site.nodeid}`)).statusCode).toBe(404);
      expect((await call(t, adminB, 'PUT', `/api/sites/${site.nodeid}`, { sitenodeid: site.nodeid, name: 'Gekapert' })).statusCode).toBe(404);
      expect((await call(t, adminB, 'DELETE', `/api/sites/${site.nodeid}`, { sitenodeid: site.nodeid })).statusCode).toBe(404);
      const listed = (await call(t, adminB, 'GET', '/api/sites')).json() as { nodeid: string }[];
      expect(listed.map((s) => s.nodeid)).not.toContain(site.nodeid);
      expect((await call(t, adminA, 'GET', `/api/sites/${site.nodeid}`)).json()).toMatchObject({ name: 'Geheimes Werk' });
    });

    it('does not create a plant in another legal entity (404, nothing written)', async () => {
      const before = await siteCount(t.database.db, a.legalEntity.nodeid);
      const response = await call(t, adminB, 'POST', '/api/sites', siteInput(a.legalEntity.nodeid));
      expect(response.statusCode).toBe(404);
      expect(await siteCount(t.database.db, a.legalEntity.nodeid)).toBe(before);
      expect((await call(t, adminB, 'PUT', `/api/sites/${uuidv7()}`, { sitenodeid: uuidv7(), legalentitynodeid: a.legalEntity.nodeid })).statusCode).toBe(400);
    });
  });

  describe('one transaction per write', () => {
    it('leaves nothing written when a create fails after its insert', async () => {
      const le = a.legalEntity.nodeid;
      const [sitesBefore, versionBefore] = [await siteCount(t.database.db), await tenantVersion(t.database.db, le)];
      const operations: string[] = [];
      t.faults.beforeCommit = (operation) => {
        operations.push(operation);
        throw new Error('injected failure after the insert');
      };
      const response = await call(t, adminA, 'POST', '/api/sites', siteInput(le));
      expect(operations).toEqual(['site.create']);
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' });
      expect(await siteCount(t.database.db)).toBe(sitesBefore);
      expect(await tenantVersion(t.database.db, le)).toBe(versionBefore);
    });

    it('leaves the plant, its areas and the tenant version untouched when a delete fails midway', async () => {
      const le = a.legalEntity.nodeid;
      const site = await createSite(adminA, siteInput(le));
      const { nodeid: areaId } = await insertArea(t.database.db, { legalentitynodeid: le, sitenodeid: site.nodeid });
      const versionBefore = await tenantVersion(t.database.db, le);
      t.faults.beforeCommit = () => {
        throw new Error('injected');
      };
      expect((await call(t, adminA, 'DELETE', `/api/sites/${site.nodeid}`)).statusCode).toBe(500);
      t.faults.beforeCommit = undefined;
      expect((await call(t, adminA, 'GET', `/api/sites/${site.nodeid}`)).json()).toMatchObject({ hasarea: [{ nodeid: areaId }] });
      expect(await t.database.db.select().from(tombstones).where(eq(tombstones.nodeid, site.nodeid))).toEqual([]);
      expect(await tenantVersion(t.database.db, le)).toBe(versionBefore);
    });
  });

  describe('change feed', () => {
    it('stamps each write with the next tenant version and leaves tombstones on delete', async () => {
      const le = a.legalEntity.nodeid;
      const v0 = await tenantVersion(t.database.db, le);
      const site = await createSite(adminA, siteInput(le));
      expect(site.version).toBe(v0 + 1);
      expect(await tenantVersion(t.database.db, le)).toBe(v0 + 1);

      const updated = (await call(t, adminA, 'PUT', `/api/sites/${site.nodeid}`, { sitenodeid: site.nodeid, name: 'Werk West' })).json() as { version: number };
      expect(updated.version).toBe(v0 + 2);
      const [history] = await t.database.db.select().from(recordHistory).where(eq(recordHistory.nodeid, site.nodeid));
      expect(history).toMatchObject({ kind: 'sites', version: v0 + 2, changes: { name: { new: 'Werk West' } } });
      // Another tenant's counter is separate.
      expect(await tenantVersion(t.database.db, b.legalEntity.nodeid)).toBeLessThan(v0 + 2 + 1000);

      const { areaIds, machineId, subscriptionId, shiftModelId, shiftId } = await buildSiteContents(t.database.db, le, site.nodeid, a.admin.nodeid);
      const deleted = (await call(t, adminA, 'DELETE', `/api/sites/${site.nodeid}`, { sitenodeid: site.nodeid })).json() as { version: number };
      expect(deleted.version).toBe(v0 + 3);
      expect(await tenantVersion(t.database.db, le)).toBe(v0 + 3);

      const stones = await t.database.db.select().from(tombstones).where(and(eq(tombstones.legalentitynodeid, le), eq(tombstones.version, v0 + 3)));
      expect(stones.map((s) => `${s.kind}:${s.nodeid}`).sort()).toEqual(
        [
          `sites:${site.nodeid}`,
          ...areaIds.map((id) => `areas:${id}`),
          `structure_subscriptions:${subscriptionId}`,
          `shift_models:${shiftModelId}`,
          `shifts:${shiftId}`,
        ].sort(),
      );
      expect(await t.database.db.select().from(areas).where(eq(areas.sitenodeid, site.nodeid))).toEqual([]);
      // The machine stays, unlinked, and carries the delete's version so devices pull the change.
      const [machine] = await t.database.db.select().from(equipment).where(eq(equipment.nodeid, machineId));
      expect(machine).toMatchObject({ areanodeid: null, version: v0 + 3 });
      expect(await t.database.db.select().from(structureSubscriptions).where(eq(structureSubscriptions.nodeid, subscriptionId))).toEqual([]);
    });

    it('counts versions correctly under concurrent writes of one tenant', async () => {
      const le = a.legalEntity.nodeid;
      const v0 = await tenantVersion(t.database.db, le);
      const created = await Promise.all(Array.from({ length: 5 }, (_, i) => createSite(adminA, siteInput(le, { name: `Parallel ${i}` }))));
      expect(created.map((s) => s.version).sort((x, y) => x - y)).toEqual([v0 + 1, v0 + 2, v0 + 3, v0 + 4, v0 + 5]);
      expect(await tenantVersion(t.database.db, le)).toBe(v0 + 5);
    });
  });
});

/** Two areas (one with a shift model), a machine in one of them and a subscription, all under one plant. */
async function buildSiteContents(db: Db, le: string, sitenodeid: string, usernodeid: string) {
  const shiftModelId = uuidv7();
  const shiftId = uuidv7();
  await db.insert(shiftModels).values({ nodeid: shiftModelId, legalentitynodeid: le, name: 'Zwei Schichten' });
  await db.insert(shifts).values({ nodeid: shiftId, legalentitynodeid: le, shiftmodelnodeid: shiftModelId, position: 0, weekdays: [1, 2, 3, 4, 5], startminute: 360, endminute: 839 });
  const halle1 = await insertArea(db, { legalentitynodeid: le, sitenodeid, shiftmodelnodeid: shiftModelId });
  const halle2 = await insertArea(db, { legalentitynodeid: le, sitenodeid });
  const machine = await insertEquipment(db, { legalentitynodeid: le, areanodeid: halle1.nodeid });
  const subscriptionId = uuidv7();
  await db.insert(structureSubscriptions).values({ nodeid: subscriptionId, legalentitynodeid: le, usernodeid, areanodeid: halle2.nodeid });
  return { areaIds: [halle1.nodeid, halle2.nodeid], machineId: machine.nodeid, subscriptionId, shiftModelId, shiftId };
}
