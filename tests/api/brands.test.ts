import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandSchema, brandsTypesEquipmentsSchema, equipmentClassSchema, equipmentTypeSchema, lebrtySchema } from '../../src/shared/api/catalog';
import { brandRowSchema, equipmentClassRowSchema, equipmentTypeRowSchema, manufacturerRowSchema } from '../../src/shared/rows/catalog';
import { ACCESS_DENIED_MESSAGE, apiErrorSchema } from '../../src/shared/api/errors';
import { brands, equipment, recordHistory, tombstones } from '../../src/server/db/schema';
import { insertEquipment } from '../factories/structure';
import type { TestTenant } from '../factories/tenant';
import { rowCount, tenantVersion } from './support/db-queries';
import { allFlagsBut, call, onlyFlag, postCreated, userWithFlags, type Method } from './support/requests';
import { changeOf, pullChanges, sentTwice } from './support/structure';
import { createTwoTenantApp, type TestApp } from './support/test-app';

describe('catalogue: manufacturers, brands, equipment types, classes', () => {
  let t: TestApp;
  let a: TestTenant;
  let adminA: string;
  let adminB: string;

  const post = <T>(url: string, body: unknown, schema: { parse(v: unknown): T }, authorization = adminA) => postCreated(t, authorization, url, body, schema);
  const chain = async () => {
    const manufacturer = await post('/api/legalentities', { name: `Hersteller ${uuidv7()}` }, manufacturerRowSchema);
    const brand = await post('/api/brands', { name: 'Trumpf', isbrandof: manufacturer.nodeid }, brandRowSchema);
    const type = await post('/api/equipmenttypes', { model: 'TruLaser 3030', brandnodeid: brand.nodeid }, equipmentTypeRowSchema);
    return { manufacturer, brand, type };
  };

  beforeAll(async () => {
    ({ t, a, adminA, adminB } = await createTwoTenantApp());
  });
  afterAll(() => t?.close());

  it('creates manufacturer → brand → type with client ids; lists them in getlebrty, brands-types-equipments and the change feed', async () => {
    const v0 = await tenantVersion(t.database.db, a.legalEntity.nodeid);
    const ids = { m: uuidv7(), b: uuidv7(), t: uuidv7() };
    const manufacturer = await post('/api/legalentities', { nodeid: ids.m, name: 'Trumpf SE' }, manufacturerRowSchema);
    const brand = await post('/api/brands', { nodeid: ids.b, name: 'Trumpf', isbrandof: ids.m }, brandRowSchema);
    expect(brand).toMatchObject({ nodeid: ids.b, isbrandof: ids.m, manufacturernodeid: ids.m });
    const type = await post('/api/equipmenttypes', { nodeid: ids.t, model: 'TruLaser 3030', brandnodeid: ids.b }, equipmentTypeRowSchema);
    expect(type).toMatchObject({ nodeid: ids.t, brandnodeid: ids.b });
    const machine = await insertEquipment(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, equipmenttypenodeid: ids.t, name: 'Laser 1' });

    const lebrty = lebrtySchema.parse((await call(t, adminA, 'GET', '/api/getlebrty?includeTypes=true&includeBrands=true')).json());
    expect(lebrty.find((m) => m.nodeid === ids.m)).toEqual({ nodeid: ids.m, name: 'Trumpf SE', hasbrand: [{ nodeid: ids.b, name: 'Trumpf', hasequipmenttype: [{ nodeid: ids.t, model: 'TruLaser 3030' }] }] });
    const brandsOnly = lebrtySchema.parse((await call(t, adminA, 'GET', '/api/getlebrty?includeBrands=true')).json());
    expect(brandsOnly.find((m) => m.nodeid === ids.m)?.hasbrand?.[0]).toEqual({ nodeid: ids.b, name: 'Trumpf' });
    expect(lebrtySchema.parse((await call(t, adminA, 'GET', '/api/getlebrty')).json()).find((m) => m.nodeid === ids.m)).toEqual({ nodeid: ids.m, name: 'Trumpf SE' });

    const bte = brandsTypesEquipmentsSchema.parse((await call(t, adminA, 'GET', '/api/brands-types-equipments')).json());
    expect(bte.find((x) => x.nodeid === ids.b)).toEqual({
      nodeid: ids.b,
      name: 'Trumpf',
      isbrandof: { nodeid: ids.m, name: 'Trumpf SE' },
      hasequipmenttype: [{ nodeid: ids.t, model: 'TruLaser 3030', hasequipment: [{ nodeid: machine.nodeid, name: 'Laser 1', equipmentid: machine.equipmentid }] }],
    });
    expect(brandSchema.array().parse((await call(t, adminA, 'GET', '/api/brands')).json()).map((x) => x.nodeid)).toContain(ids.b);
    expect(equipmentTypeSchema.array().parse((await call(t, adminA, 'GET', '/api/equipmenttypes')).json()).map((x) => x.nodeid)).toContain(ids.t);

    const changes = await pullChanges(t, adminA, v0);
    expect(changeOf(changes, 'manufacturers', ids.m).data).toMatchObject({ name: 'Trumpf SE' });
    expect(changeOf(changes, 'brands', ids.b).data).toMatchObject({ isbrandof: ids.m });
    expect(changeOf(changes, 'equipmenttypes', ids.t).data).toMatchObject({ brandnodeid: ids.b });
    // Each write answered its row exactly as the change feed sends it.
    expect(changeOf(changes, 'manufacturers', ids.m).data).toEqual(manufacturer);
    expect(changeOf(changes, 'brands', ids.b).data).toEqual(brand);
    expect(changeOf(changes, 'equipmenttypes', ids.t).data).toEqual(type);
    // Tenant B sees none of it.
    expect(lebrtySchema.parse((await call(t, adminB, 'GET', '/api/getlebrty?includeBrands=true')).json()).map((m) => m.nodeid)).not.toContain(ids.m);
  });

  it('updates only the fields sent, with history; renames a class per language', async () => {
    const { brand, type } = await chain();
    const other = await post('/api/legalentities', { name: 'Bystronic' }, manufacturerRowSchema);
    const moved = await call(t, adminA, 'PUT', `/api/brands/${brand.nodeid}`, { isbrandof: other.nodeid });
    expect(moved.json()).toMatchObject({ name: 'Trumpf', isbrandof: other.nodeid });
    const [history] = await t.database.db.select().from(recordHistory).where(and(eq(recordHistory.nodeid, brand.nodeid), eq(recordHistory.kind, 'brands')));
    expect(history?.changes).toEqual({ manufacturernodeid: { old: brand.isbrandof, new: other.nodeid } });
    expect((await call(t, adminA, 'PUT', `/api/equipmenttypes/${type.nodeid}`, { model: 'TruLaser 5030' })).json()).toMatchObject({ model: 'TruLaser 5030', brandnodeid: brand.nodeid });
    expect((await call(t, adminA, 'PUT', `/api/legalentities/${other.nodeid}`, { name: 'Bystronic AG' })).json()).toMatchObject({ name: 'Bystronic AG' });

    const cls = await post('/api/equipmentclasses', { lang: 'de', name: 'Werkzeugmaschine' }, equipmentClassRowSchema);
    expect(cls.name).toEqual({ de: 'Werkzeugmaschine' });
    const renamed = await call(t, adminA, 'PUT', `/api/equipmentclasses/${cls.nodeid}`, { lang: 'en', name: 'Machine tool' });
    expect(equipmentClassRowSchema.parse(renamed.json()).name).toEqual({ de: 'Werkzeugmaschine', en: 'Machine tool' });
    const german = equipmentClassSchema.array().parse((await call(t, adminA, 'GET', '/api/equipmentclasses?lang=de')).json());
    const english = equipmentClassSchema.array().parse((await call(t, adminA, 'GET', '/api/equipmentclasses?lang=en')).json());
    expect(german.find((c) => c.nodeid === cls.nodeid)?.name).toBe('Werkzeugmaschine');
    expect(english.find((c) => c.nodeid === cls.nodeid)?.name).toBe('Machine tool');
  });

  it('deletes: 409 while machines use a type or a manufacturer has brands; otherwise with tombstones', async () => {
    const { manufacturer, brand, type } = await chain();
    const machine = await insertEquipment(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, equipmenttypenodeid: type.nodeid });
    expect((await call(t, adminA, 'DELETE', `/api/equipmenttypes/${type.nodeid}`)).statusCode).toBe(409);
    expect((await call(t, adminA, 'DELETE', `/api/brands/${brand.nodeid}`)).statusCode).toBe(409);
    expect((await call(t, adminA, 'DELETE', `/api/legalentities/${manufacturer.nodeid}`)).statusCode).toBe(409);
    await t.database.db.delete(equipment).where(eq(equipment.nodeid, machine.nodeid));
    const deleted = await call(t, adminA, 'DELETE', `/api/brands/${brand.nodeid}`);
    expect(deleted.statusCode).toBe(200);
    const { version } = deleted.json() as { version: number };
    const stones = await t.database.db.select().from(tombstones).where(and(eq(tombstones.legalentitynodeid, a.legalEntity.nodeid), eq(tombstones.version, version)));
    expect(stones.map((s) => `${s.kind}:${s.nodeid}`).sort()).toEqual([`brands:${brand.nodeid}`, `equipment_types:${type.nodeid}`].sort());
    expect((await call(t, adminA, 'DELETE', `/api/legalentities/${manufacturer.nodeid}`)).statusCode).toBe(200);
    const changes = await pullChanges(t, adminA, version - 1);
    expect(changeOf(changes, 'equipmenttypes', type.nodeid).deleted).toBe(true);
    expect(changeOf(changes, 'manufacturers', manufacturer.nodeid).deleted).toBe(true);

    const cls = await post('/api/equipmentclasses', { name: 'Presse' }, equipmentClassRowSchema);
    const classed = await insertEquipment(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, equipmentclassnodeid: cls.nodeid });
    expect((await call(t, adminA, 'DELETE', `/api/equipmentclasses/${cls.nodeid}`)).statusCode).toBe(200);
    const [row] = await t.database.db.select().from(equipment).where(eq(equipment.nodeid, classed.nodeid));
    expect(row?.equipmentclassnodeid).toBeNull();
  });

  it.each([
    ['/api/brands', { isbrandof: uuidv7() }, 'name'],
    ['/api/brands', { name: 'X' }, 'isbrandof'],
    ['/api/equipmenttypes', { brandnodeid: uuidv7(), model: '' }, 'model'],
    ['/api/legalentities', { name: ' ' }, 'name'],
    ['/api/equipmentclasses', {}, 'name'],
  ])('POST %s %j: 400 naming %s', async (url, body, field) => {
    const before = await rowCount(t.database.db, brands);
    const response = await call(t, adminA, 'POST', url, body);
    expect(response.statusCode).toBe(400);
    expect(apiErrorSchema.parse(response.json()).details?.map((d) => d.field)).toEqual([field]);
    expect(await rowCount(t.database.db, brands)).toBe(before);
  });

  it('401 without a token; 403 without the equipment flag of the action, allowed with only it', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/getlebrty' })).statusCode).toBe(401);
    const { manufacturer, brand } = await chain();
    const cases: [flag: 'create' | 'read' | 'update' | 'delete', method: Method, url: string, body?: unknown][] = [
      ['create', 'POST', '/api/brands', { name: 'Neu', isbrandof: manufacturer.nodeid }],
      ['read', 'GET', '/api/getlebrty?includeBrands=true'],
      ['update', 'PUT', `/api/brands/${brand.nodeid}`, { name: 'Umbenannt' }],
      ['delete', 'DELETE', `/api/equipmentclasses/${(await post('/api/equipmentclasses', { name: 'K' }, equipmentClassRowSchema)).nodeid}`],
    ];
    for (const [flag, method, url, body] of cases) {
      const without = await userWithFlags(t, a.legalEntity.nodeid, 'equipment', allFlagsBut(flag));
      const denied = await call(t, without.authorization, method, url, body);
      expect(denied.statusCode, `${method} ${url}`).toBe(403);
      expect(denied.json()).toMatchObject({ message: ACCESS_DENIED_MESSAGE });
      const withOnly = await userWithFlags(t, a.legalEntity.nodeid, 'equipment', onlyFlag(flag));
      expect((await call(t, withOnly.authorization, method, url, body)).statusCode, `${method} ${url}`).toBeLessThan(300);
    }
  });

  it('tenant scope: 404 for another tenant’s manufacturer, brand, type and class', async () => {
    const { manufacturer, brand, type } = await chain();
    const cls = await post('/api/equipmentclasses', { name: 'Geheim' }, equipmentClassRowSchema);
    expect((await call(t, adminB, 'POST', '/api/brands', { name: 'X', isbrandof: manufacturer.nodeid })).statusCode).toBe(404);
    expect((await call(t, adminB, 'POST', '/api/equipmenttypes', { model: 'X', brandnodeid: brand.nodeid })).statusCode).toBe(404);
    expect((await call(t, adminB, 'PUT', `/api/brands/${brand.nodeid}`, { name: 'X' })).statusCode).toBe(404);
    expect((await call(t, adminB, 'PUT', `/api/equipmenttypes/${type.nodeid}`, { model: 'X' })).statusCode).toBe(404);
    expect((await call(t, adminB, 'PUT', `/api/legalentities/${manufacturer.nodeid}`, { name: 'X' })).statusCode).toBe(404);
    expect((await call(t, adminB, 'DELETE', `/api/equipmentclasses/${cls.nodeid}`)).statusCode).toBe(404);
    expect((await call(t, adminB, 'PUT', `/api/legalentities/${a.legalEntity.nodeid}`, { name: 'Übernommen' })).statusCode).toBe(404);
    expect((await call(t, adminA, 'PUT', `/api/legalentities/${a.legalEntity.nodeid}`, { name: 'Nicht hier' })).statusCode).toBe(404);
  });

  it('replays a brand create under the same mutation id; the same create again answers the brand; another tenant’s id is 409', async () => {
    const manufacturer = await post('/api/legalentities', { name: 'Haas' }, manufacturerRowSchema);
    const body = { nodeid: uuidv7(), name: 'Haas', isbrandof: manufacturer.nodeid };
    const first = await sentTwice(t, adminA, 'POST', '/api/brands', body, { status: 201 });
    expect((await call(t, adminA, 'POST', '/api/brands', body)).json()).toEqual(first.json());
    const manufacturerB = await post('/api/legalentities', { name: 'B-Hersteller' }, manufacturerRowSchema, adminB);
    const foreign = await call(t, adminB, 'POST', '/api/brands', { ...body, isbrandof: manufacturerB.nodeid });
    expect(foreign.statusCode).toBe(409);
  });
});
