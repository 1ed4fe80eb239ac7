import { and, eq } from 'drizzle-orm';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areaSchema, type CreateAreaInput } from '../../src/shared/api/areas';
import { apiErrorSchema } from '../../src/shared/api/errors';
import { structureTreeSchema } from '../../src/shared/api/structure';
import { areaRowSchema } from '../../src/shared/rows/structure';
import { areas, equipment, recordHistory, structureSubscriptions, tombstones } from '../../src/server/db/schema';
import { insertArea, insertEquipment, insertEquipmentPool, insertSite } from '../factories/structure';
import type { TestTenant } from '../factories/tenant';
import { rowCount, tenantVersion } from './support/db-queries';
import { call, postCreated } from './support/requests';
import { changeOf, mutationHeaders, pullChanges, send, sentTwice } from './support/structure';
import { itChecksEachFlag } from './support/permission-matrix';
import { createTwoTenantApp, type TestApp } from './support/test-app';

describe('areas', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let adminA: string;
  let adminB: string;
  let site: string;

  const input = (overrides: Partial<CreateAreaInput> = {}): CreateAreaInput => ({ lang: 'de', name: 'Halle 3', areaid: 'H3', sitenodeid: site, isSiteSubs: false, ...overrides });
  // A write answers the area's row, exactly (what the change feed sends); its machines and plan come with GET.
  const create = (body: CreateAreaInput, authorization = adminA) => postCreated(t, authorization, '/api/areas', body, areaRowSchema.strict());
  const read = async (nodeid: string) => areaSchema.parse((await call(t, adminA, 'GET', `/api/areas/${nodeid}`)).json());

  beforeAll(async () => {
    ({ t, a, b, adminA, adminB } = await createTwoTenantApp());
    site = (await insertSite(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, name: 'Werk Nord' })).nodeid;
  });
  afterAll(() => t?.close());

  it('creates an area with shifts, moved-in machines and the creator’s subscription in one version', async () => {
    const le = a.legalEntity.nodeid;
    const oldArea = await insertArea(t.database.db, { legalentitynodeid: le, sitenodeid: site });
    const pool = await insertEquipmentPool(t.database.db, { legalentitynodeid: le });
    const machine = await insertEquipment(t.database.db, { legalentitynodeid: le, areanodeid: oldArea.nodeid, equipmentpoolnodeid: pool.nodeid, name: 'Drehbank' });
    const v0 = await tenantVersion(t.database.db, le);
    const nodeid = uuidv7();
    const area = await create(
      input({
        nodeid,
        isSiteSubs: true,
        shifts: [{ start: '22:00', end: '05:59', weekdays: [1, 2, 3, 4, 5], unmanned: false }],
        assign: { payload: [{ equipmentnodeid: machine.nodeid, deleteequipmentof: [{ type: 'area', nodeid: oldArea.nodeid }] }] },
      }),
    );
    const full = await read(nodeid);
    expect(area).toEqual({ nodeid, legalentitynodeid: le, name: 'Halle 3', areaid: 'H3', sitenodeid: site, shiftmodelnodeid: full.hasshiftmodel?.nodeid, version: v0 + 1 });
    expect(full).toMatchObject({ nodeid, sitename: 'Werk Nord', version: v0 + 1, hasequipment: [{ nodeid: machine.nodeid, name: 'Drehbank' }] });
    expect(full.hasshiftmodel?.shifts).toMatchObject([{ start: '22:00', end: '05:59', weekdays: [1, 2, 3, 4, 5], unmanned: false, endsnextday: true }]);
    // The machine moved out of its old area but kept its pool.
    const [moved] = await t.database.db.select().from(equipment).where(eq(equipment.nodeid, machine.nodeid));
    expect(moved).toMatchObject({ areanodeid: nodeid, equipmentpoolnodeid: pool.nodeid, version: v0 + 1 });
    expect(await tenantVersion(t.database.db, le)).toBe(v0 + 1);
    const subscribed = structureTreeSchema.parse((await call(t, adminA, 'GET', '/api/sitesareasequipments')).json());
    expect(subscribed.sites.flatMap((s) => s.areas.map((x) => x.nodeid))).toContain(nodeid);

    const changes = await pullChanges(t, adminA, v0);
    // The answer is the row the next pull brings.
    expect(changeOf(changes, 'areas', nodeid).data).toEqual(area);
    expect(changeOf(changes, 'shifts', full.hasshiftmodel!.shifts[0]!.nodeid).data).toMatchObject({ start: '22:00', end: '05:59', startminute: 1320 });
    expect(changeOf(changes, 'equipment', machine.nodeid).data).toMatchObject({ areanodeid: nodeid });
  });

  it('reads, lists, renames (history) and deletes an area; its machines stay unlinked, its plan and subscriptions go', async () => {
    const le = a.legalEntity.nodeid;
    const area = await read((await create(input({ isSiteSubs: true, shifts: [{ start: '06:00', end: '13:59', weekdays: [1] }] }))).nodeid);
    const machine = await insertEquipment(t.database.db, { legalentitynodeid: le, areanodeid: area.nodeid });
    expect((await call(t, adminA, 'GET', `/api/areas/${area.nodeid}`)).json()).toMatchObject({ nodeid: area.nodeid, hasequipment: [{ nodeid: machine.nodeid }] });
    expect(areaSchema.array().parse((await call(t, adminA, 'GET', '/api/areas')).json()).map((x) => x.nodeid)).toContain(area.nodeid);

    const renamed = await call(t, adminA, 'PUT', `/api/areas/${area.nodeid}`, { lang: 'de', areanodeid: area.nodeid, name: 'Halle 4' });
    expect(renamed.statusCode).toBe(200);
    expect(areaRowSchema.strict().parse(renamed.json())).toMatchObject({ name: 'Halle 4', areaid: 'H3', version: await tenantVersion(t.database.db, le) });
    const [history] = await t.database.db.select().from(recordHistory).where(and(eq(recordHistory.nodeid, area.nodeid), eq(recordHistory.kind, 'areas')));
    expect(history?.changes).toEqual({ name: { old: 'Halle 3', new: 'Halle 4' } });

    const [subscription] = await t.database.db.select().from(structureSubscriptions).where(eq(structureSubscriptions.areanodeid, area.nodeid));
    const deleted = await call(t, adminA, 'DELETE', `/api/areas/${area.nodeid}`, { areanodeid: area.nodeid });
    expect(deleted.statusCode).toBe(200);
    const { version } = deleted.json() as { version: number };
    const stones = await t.database.db.select().from(tombstones).where(and(eq(tombstones.legalentitynodeid, le), eq(tombstones.version, version)));
    expect(stones.map((s) => `${s.kind}:${s.nodeid}`).sort()).toEqual(
      [`areas:${area.nodeid}`, `structure_subscriptions:${subscription!.nodeid}`, `shift_models:${area.hasshiftmodel!.nodeid}`, `shifts:${area.hasshiftmodel!.shifts[0]!.nodeid}`].sort(),
    );
    const [unlinked] = await t.database.db.select().from(equipment).where(eq(equipment.nodeid, machine.nodeid));
    expect(unlinked).toMatchObject({ areanodeid: null, version });
    const tree = structureTreeSchema.parse((await call(t, adminA, 'GET', '/api/allsitesareasequipments')).json());
    expect(tree.unlinked.map((m) => m.nodeid)).toContain(machine.nodeid);
    const changes = await pullChanges(t, adminA, version - 1);
    expect(changeOf(changes, 'areas', area.nodeid).deleted).toBe(true);
    expect(changeOf(changes, 'equipment', machine.nodeid).data).toMatchObject({ areanodeid: null });
  });

  describe('validation', () => {
    it.each([
      ['name', { name: ' ' }],
      ['sitenodeid', { sitenodeid: 'x' }],
      ['shifts.0.weekdays', { shifts: [{ start: '06:00', end: '07:00', weekdays: [] }] }],
      ['assign.payload.0.equipmentnodeid', { assign: { payload: [{ equipmentnodeid: 'nope' }] } }],
    ] as [string, Partial<CreateAreaInput>][])('400 naming %s, nothing written', async (field, overrides) => {
      const before = await rowCount(t.database.db, areas);
      const response = await call(t, adminA, 'POST', '/api/areas', input(overrides));
      expect(response.statusCode).toBe(400);
      expect(apiErrorSchema.parse(response.json()).details?.map((d) => d.field)).toContain(field);
      expect(await rowCount(t.database.db, areas)).toBe(before);
    });

    it('rejects an empty name on update and an areanodeid that is not the path’s', async () => {
      const area = await create(input());
      expect((await call(t, adminA, 'PUT', `/api/areas/${area.nodeid}`, { name: '' })).json()).toMatchObject({ statusCode: 400, details: [{ field: 'name' }] });
      expect((await call(t, adminA, 'DELETE', `/api/areas/${area.nodeid}`, { areanodeid: uuidv7() })).json()).toMatchObject({ statusCode: 400, details: [{ field: 'areanodeid' }] });
    });
  });

  describe('permissions (feature key site) and tenant scope', () => {
    it('answers 401 without a token', async () => {
      expect((await t.app.inject({ method: 'POST', url: '/api/areas', payload: input() })).statusCode).toBe(401);
    });

    itChecksEachFlag({
      tenant: () => ({ t, legalentitynodeid: a.legalEntity.nodeid }),
      feature: 'site',
      routes: [
        { flag: 'create', name: 'POST /api/areas', request: () => ['POST', '/api/areas', input()], ok: 201 },
        { flag: 'read', name: 'GET /api/areas/{id}', request: (id) => ['GET', `/api/areas/${id}`], ok: 200 },
        { flag: 'update', name: 'PUT /api/areas/{id}', request: (id) => ['PUT', `/api/areas/${id}`, { name: 'Neu' }], ok: 200 },
        { flag: 'delete', name: 'DELETE /api/areas/{id}', request: (id) => ['DELETE', `/api/areas/${id}`], ok: 200 },
      ],
      subject: async () => (await create(input())).nodeid,
    });

    it('hides tenant A’s area from B (404) and does not create an area in A’s plant or move A’s machines', async () => {
      const area = await create(input());
      expect((await call(t, adminB, 'GET', `/api/areas/${area.nodeid}`)).statusCode).toBe(404);
      expect((await call(t, adminB, 'PUT', `/api/areas/${area.nodeid}`, { name: 'X' })).statusCode).toBe(404);
      expect((await call(t, adminB, 'DELETE', `/api/areas/${area.nodeid}`)).statusCode).toBe(404);
      expect((await call(t, adminB, 'POST', '/api/areas', input())).statusCode).toBe(404);
      const siteB = await insertSite(t.database.db, { legalentitynodeid: b.legalEntity.nodeid });
      const machineA = await insertEquipment(t.database.db, { legalentitynodeid: a.legalEntity.nodeid });
      const before = await rowCount(t.database.db, areas);
      const response = await call(t, adminB, 'POST', '/api/areas', input({ sitenodeid: siteB.nodeid, assign: { payload: [{ equipmentnodeid: machineA.nodeid }] } }));
      expect(response.statusCode).toBe(404);
      expect(await rowCount(t.database.db, areas)).toBe(before);
    });
  });

  describe('offline creates', () => {
    it('replays under the same mutation id, answers a repeated create with the area, 409 for other content', async () => {
      const clientid = uuidv4();
      const body = input({ nodeid: uuidv7() });
      await sentTwice(t, adminA, 'POST', '/api/areas', body, { clientid, status: 201 });
      const again = await send(t, adminA, 'POST', '/api/areas', body, mutationHeaders(clientid, 2));
      expect(again.statusCode).toBe(201);
      expect(again.json()).toMatchObject({ nodeid: body.nodeid });
      expect((await call(t, adminA, 'POST', '/api/areas', { ...body, name: 'Anders' })).statusCode).toBe(409);
    });
  });
});
