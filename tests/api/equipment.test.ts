import { and, eq } from 'drizzle-orm';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_DENIED_MESSAGE, apiErrorSchema } from '../../src/shared/api/errors';
import { COMMISSIONED_BEFORE_BUILT_DETAIL, equipmentSchema, isCommissionedBeforeBuiltRefusal, type CreateEquipmentInput } from '../../src/shared/api/equipment';
import { lebrtySchema } from '../../src/shared/api/catalog';
import { yearToEpochMs } from '../../src/shared/domain/equipment';
import { ALL, READ_ONLY } from '../../src/shared/permissions';
import { equipmentRowSchema, type EquipmentRow } from '../../src/shared/rows/equipment';
import { brands, counters, equipment, legalEntities, notifications, recordHistory, tombstones, users } from '../../src/server/db/schema';
import { insertFile } from '../factories/files';
import { insertCounter, insertCounterReading, insertNotification } from '../factories/notifications';
import { insertArea, insertBrand, insertEquipmentPool, insertEquipmentType, insertManufacturer } from '../factories/structure';
import { allFeatures, insertProfile, insertUser, loginAs, type TestTenant } from '../factories/tenant';
import { rowCount, tenantVersion } from './support/db-queries';
import { allFlagsBut, call, type Method, postCreated } from './support/requests';
import { changeOf, mutationHeaders, pullChanges, send, sentTwice } from './support/structure';
import { createTwoTenantApp, type TestApp } from './support/test-app';

const LEGAL_ENTITY_ONLY = 'legal-entity-only';

describe('equipment', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let adminA: string;
  let adminB: string;
  /** Tenant A's catalogue: manufacturer M owns brand B with type T; area and pool. */
  let cat: { manufacturer: string; brand: string; type: string; area: string; pool: string };
  // why one per machine: the server refuses an Equipment-ID another machine of the organisation has
  // (tests/api/equipment-id.test.ts).
  let equipmentIds = 0;

  const input = (overrides: Partial<CreateEquipmentInput> = {}): CreateEquipmentInput => ({
    lang: 'de',
    name: 'Fräse 1',
    equipmentid: `EQ-T${++equipmentIds}`,
    inventoryid: 'INV-1',
    manufacturerserialnumber: 'SN-1',
    constructiondate: yearToEpochMs(2015),
    commissioningdate: yearToEpochMs(2016),
    costcenter: '4110 Zerspanung',
    inspectionbooknumber: 'PB-7',
    dimensions: [2000, 2500.5, null],
    electricalpower: 15.5,
    mediasupply: ['Druckluft 6 bar', ''],
    controllerinformation: ['Siemens', 'SINUMERIK 840D', '', '4.95'],
    hourlyrate: [85, { unitid: 'EUR', namespace: 'ISO 4217' }],
    isequipmentof: [cat.area, a.legalEntity.nodeid],
    brand: { isnew: false, nodeid: cat.brand },
    equipmenttype: { isnew: false, nodeid: cat.type },
    ...overrides,
  });

  /** The create's answer: the machine's row as the change feed sends it. */
  const create = (authorization: string, body: CreateEquipmentInput): Promise<EquipmentRow> => postCreated(t, authorization, '/api/equipments', body, equipmentRowSchema);
  /** The machine in the spec's shape (type, places, photo URLs), as GET answers it. */
  const read = async (nodeid: string, lang = 'de') => {
    const response = await call(t, adminA, 'GET', `/api/equipments/${nodeid}?lang=${lang}`);
    expect(response.statusCode, response.body).toBe(200);
    return equipmentSchema.parse(response.json());
  };

  const loginWithProfile = async (features: Parameters<typeof allFeatures>[0]) => {
    const profile = await insertProfile(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, features: allFeatures(features) });
    const user = await insertUser(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, profileid: profile.profileid });
    return (await loginAs(t.app, user)).authorization;
  };

  beforeAll(async () => {
    ({ t, a, b, adminA, adminB } = await createTwoTenantApp());
    const le = a.legalEntity.nodeid;
    const manufacturer = await insertManufacturer(t.database.db, { legalentitynodeid: le, name: 'DMG Mori AG' });
    const brand = await insertBrand(t.database.db, { legalentitynodeid: le, manufacturernodeid: manufacturer.nodeid, name: 'DMG' });
    const type = await insertEquipmentType(t.database.db, { legalentitynodeid: le, brandnodeid: brand.nodeid, model: 'DMU 50' });
    const area = await insertArea(t.database.db, { legalentitynodeid: le, name: 'Halle 1' });
    const pool = await insertEquipmentPool(t.database.db, { legalentitynodeid: le, name: { de: 'Mobile Geräte' } });
    cat = { manufacturer: manufacturer.nodeid, brand: brand.nodeid, type: type.nodeid, area: area.nodeid, pool: pool.nodeid };
  });
  afterAll(() => t?.close());

  describe('create, read, update, delete', () => {
    it('creates a machine with every form field: answers its row as the change feed sends it, and reads it back in the spec shape', async () => {
      const v0 = await tenantVersion(t.database.db, a.legalEntity.nodeid);
      const row = await create(adminA, input({ equipmentid: 'EQ-1' }));
      expect(row).toMatchObject({
        name: 'Fräse 1',
        constructiondate: yearToEpochMs(2015),
        commissioningdate: yearToEpochMs(2016),
        costcenter: { de: '4110 Zerspanung' },
        dimensions: [2000, 2500.5, null],
        electricalpower: 15.5,
        mediasupply: [{ de: 'Druckluft 6 bar' }],
        controllerinformation: { manufacturer: 'Siemens', type: 'SINUMERIK 840D', softwareversion: '4.95' },
        hourlyrate: 85,
        hourlyratecurrency: 'EUR',
        equipmenttypenodeid: cat.type,
        areanodeid: cat.area,
        equipmentpoolnodeid: null,
        shiftmodelnodeid: null,
        memo: null,
      });
      expect(changeOf(await pullChanges(t, adminA, v0), 'equipment', row.nodeid).data).toEqual(row);

      const machine = await read(row.nodeid);
      expect(machine).toMatchObject({
        name: 'Fräse 1',
        equipmentid: 'EQ-1',
        constructiondate: yearToEpochMs(2015),
        commissioningdate: yearToEpochMs(2016),
        costcenter: '4110 Zerspanung',
        dimensions: [2000, 2500.5, null],
        electricalpower: 15.5,
        mediasupply: ['Druckluft 6 bar'],
        controllerinformation: ['Siemens', 'SINUMERIK 840D', '', '4.95'],
        hourlyrate: [85, { unitid: 'EUR', namespace: 'ISO 4217' }],
        hasequipmenttype: { nodeid: cat.type, model: 'DMU 50', brand: { nodeid: cat.brand, name: 'DMG', isbrandof: { nodeid: cat.manufacturer, name: 'DMG Mori AG' } } },
        isequipmentof: [{ type: 'area', nodeid: cat.area, name: 'Halle 1' }],
        useareashiftmodel: true,
        hasshiftmodel: null,
        memo: null,
      });
      const listed = equipmentSchema.array().parse((await call(t, adminA, 'GET', '/api/equipments')).json());
      expect(listed.map((m) => m.nodeid)).toContain(machine.nodeid);
    });

    it('reads a build year sent as local midnight of 1 January as that year, and fills an empty commissioning year with this year', async () => {
      const berlinMidnight = Date.UTC(2012, 0, 1) - 3_600_000;
      const machine = await create(adminA, input({ constructiondate: berlinMidnight, commissioningdate: null, dimensions: null }));
      expect(machine.constructiondate).toBe(yearToEpochMs(2012));
      expect(machine.commissioningdate).toBe(yearToEpochMs(new Date().getUTCFullYear()));
      expect(machine.dimensions).toBeNull();
    });

    it('links image and nameplate files of the tenant and answers a signed URL once complete', async () => {
      // The admin's own uploads (a user names only files they may download: docs/security.md § Files).
      const image = await insertFile(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, mimetype: 'image/jpeg', extension: 'jpg', status: 'complete', createdbynodeid: a.admin.nodeid });
      const plate = await insertFile(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, mimetype: 'image/png', extension: 'png', createdbynodeid: a.admin.nodeid });
      const row = await create(adminA, input({ image: { fileid: image.fileid, fileversion: 1, url: 'ignored' }, typenameplate: { fileid: plate.fileid } }));
      expect(row).toMatchObject({ imagefilenodeid: image.nodeid, typenameplatefilenodeid: plate.nodeid });
      const machine = await read(row.nodeid);
      expect(machine.image).toMatchObject({ fileid: image.fileid, mimetype: 'image/jpeg', bucketid: 'local' });
      expect(machine.image?.url).toMatch(/sig=/);
      expect(machine.typenameplate).toMatchObject({ fileid: plate.fileid, url: null });

      const foreign = await insertFile(t.database.db, { legalentitynodeid: b.legalEntity.nodeid });
      const response = await call(t, adminA, 'POST', '/api/equipments', input({ image: { fileid: foreign.fileid } }));
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ details: [{ field: 'image' }] });
    });

    it("an emptied cost centre is empty in every language (found: the other language's text came back as the fallback)", async () => {
      const machine = await create(adminA, input());
      expect((await call(t, adminA, 'PUT', `/api/equipments/${machine.nodeid}`, { lang: 'en', costcenter: '4110 Machining' })).statusCode).toBe(200);
      for (const cleared of [null, '']) {
        const response = await call(t, adminA, 'PUT', `/api/equipments/${machine.nodeid}`, { lang: 'de', costcenter: cleared });
        expect(response.statusCode, response.body).toBe(200);
        expect(equipmentRowSchema.parse(response.json()).costcenter).toBeNull();
        expect((await read(machine.nodeid, 'de')).costcenter).toBeNull();
        expect((await read(machine.nodeid, 'en')).costcenter).toBeNull();
        await call(t, adminA, 'PUT', `/api/equipments/${machine.nodeid}`, { lang: 'de', costcenter: '4110 Zerspanung' });
      }
    });

    it('updates only the fields sent, keeps other languages, and writes what it overwrote into the record history', async () => {
      const machine = await create(adminA, input());
      const before = await tenantVersion(t.database.db, a.legalEntity.nodeid);
      const response = await call(t, adminA, 'PUT', `/api/equipments/${machine.nodeid}`, { lang: 'en', equipmentnodeid: machine.nodeid, costcenter: '4110 Machining', electricalpower: 22 });
      expect(response.statusCode, response.body).toBe(200);
      const updated = equipmentRowSchema.parse(response.json());
      expect(updated).toMatchObject({ name: 'Fräse 1', equipmentid: machine.equipmentid, electricalpower: 22, costcenter: { de: '4110 Zerspanung', en: '4110 Machining' }, version: before + 1 });
      expect((await read(machine.nodeid, 'en')).costcenter).toBe('4110 Machining');
      expect((await read(machine.nodeid, 'de')).costcenter).toBe('4110 Zerspanung');

      const [history] = await t.database.db.select().from(recordHistory).where(and(eq(recordHistory.nodeid, machine.nodeid), eq(recordHistory.version, before + 1)));
      expect(history?.changes).toEqual({ electricalpower: { old: 15.5, new: 22 }, costcenter: { old: { de: '4110 Zerspanung' }, new: { de: '4110 Zerspanung', en: '4110 Machining' } } });
      expect(history?.usernodeid).toBe(a.admin.nodeid);

      // Sending the same values again changes nothing and takes no version.
      await call(t, adminA, 'PUT', `/api/equipments/${machine.nodeid}`, { lang: 'en', electricalpower: 22 });
      expect(await tenantVersion(t.database.db, a.legalEntity.nodeid)).toBe(before + 1);
    });

    it('dimensions and controller entries sent with what the form was filled from change only the parts that differ: two devices that each change another part both keep theirs', async () => {
      const machine = await create(adminA, input());
      const filledFrom = { dimensions: [2000, 2500.5, null], controller: ['Siemens', 'SINUMERIK 840D', '', '4.95'] };
      // Device A changes the width and the software version and reaches the server first.
      const first = await call(t, adminA, 'PUT', `/api/equipments/${machine.nodeid}`, {
        lang: 'de',
        dimensions: [2100, 2500.5, null],
        previousdimensions: filledFrom.dimensions,
        controllerinformation: ['Siemens', 'SINUMERIK 840D', '', '4.96'],
        previouscontrollerinformation: filledFrom.controller,
      });
      expect(first.statusCode, first.body).toBe(200);
      // Device B, filled from the same values, changes the depth and the controller type (it sent all three and all
      // four whole, and overwrote A's width and version).
      const second = await call(t, adminA, 'PUT', `/api/equipments/${machine.nodeid}`, {
        lang: 'de',
        dimensions: [2000, 2500.5, 800],
        previousdimensions: filledFrom.dimensions,
        controllerinformation: ['Siemens', 'SINUMERIK ONE', '', '4.95'],
        previouscontrollerinformation: filledFrom.controller,
      });
      expect(second.statusCode, second.body).toBe(200);
      expect(equipmentRowSchema.parse(second.json())).toMatchObject({
        dimensions: [2100, 2500.5, 800],
        controllerinformation: { manufacturer: 'Siemens', type: 'SINUMERIK ONE', softwareversion: '4.96' },
      });
      // A part both changed: the later one wins; a part emptied by the form is emptied.
      const third = await call(t, adminA, 'PUT', `/api/equipments/${machine.nodeid}`, {
        lang: 'de',
        dimensions: [2200, null, 800],
        previousdimensions: filledFrom.dimensions,
        controllerinformation: ['', 'SINUMERIK ONE', '', '4.95'],
        previouscontrollerinformation: filledFrom.controller,
      });
      expect(equipmentRowSchema.parse(third.json())).toMatchObject({ dimensions: [2200, null, 800], controllerinformation: { type: 'SINUMERIK ONE', softwareversion: '4.96' } });
      // Without what the form was filled from (the spec's payload), the value is replaced whole.
      const whole = await call(t, adminA, 'PUT', `/api/equipments/${machine.nodeid}`, { lang: 'de', dimensions: [1000, null, null], controllerinformation: ['Heidenhain'] });
      expect(equipmentRowSchema.parse(whole.json())).toMatchObject({ dimensions: [1000, null, null], controllerinformation: { manufacturer: 'Heidenhain' } });
      // Filled from none: every part the form set is a change.
      const fromNone = await call(t, adminA, 'PUT', `/api/equipments/${machine.nodeid}`, { lang: 'de', dimensions: [null, 300, null], previousdimensions: null });
      expect(equipmentRowSchema.parse(fromNone.json())).toMatchObject({ dimensions: [1000, 300, null] });
      const malformed = await call(t, adminA, 'PUT', `/api/equipments/${machine.nodeid}`, { lang: 'de', dimensions: [1, 2, 3], previousdimensions: [1, 2] });
      expect(malformed.statusCode).toBe(400);
    });

    it('saves the memo with the part-1 payload {lang, equipmentnodeid, memo}', async () => {
      const machine = await create(adminA, input());
      const response = await call(t, adminA, 'PUT', `/api/equipments/${machine.nodeid}`, { lang: 'de', equipmentnodeid: machine.nodeid, memo: 'Ölstand wöchentlich prüfen' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ memo: 'Ölstand wöchentlich prüfen', name: 'Fräse 1' });
    });

    it('switches to another existing type on update, but not to another tenant’s', async () => {
      const machine = await create(adminA, input());
      const other = await insertEquipmentType(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, brandnodeid: cat.brand, model: 'DMU 65' });
      const ok = await call(t, adminA, 'PUT', `/api/equipments/${machine.nodeid}`, { equipmenttypenodeid: other.nodeid });
      expect(ok.json()).toMatchObject({ equipmenttypenodeid: other.nodeid });
      expect((await read(machine.nodeid)).hasequipmenttype).toMatchObject({ model: 'DMU 65' });
      const foreign = await insertEquipmentType(t.database.db, { legalentitynodeid: b.legalEntity.nodeid });
      expect((await call(t, adminA, 'PUT', `/api/equipments/${machine.nodeid}`, { equipmenttypenodeid: foreign.nodeid })).statusCode).toBe(404);
    });

    it('moves machines with `assign.payload` after the create, the new machine among them, in the create’s version', async () => {
      const other = await create(adminA, input({ equipmentnodeid: uuidv7(), isequipmentof: [cat.pool] }));
      const nodeid = uuidv7();
      const row = await create(adminA, input({ equipmentnodeid: nodeid, isequipmentof: [cat.pool], assign: { payload: [{ equipmentnodeid: other.nodeid, isequipmentof: cat.area }, { equipmentnodeid: nodeid, isequipmentof: cat.area }] } }));
      expect(row).toMatchObject({ nodeid, areanodeid: cat.area, equipmentpoolnodeid: cat.pool });
      const [moved] = await t.database.db.select().from(equipment).where(eq(equipment.nodeid, other.nodeid));
      expect(moved).toMatchObject({ areanodeid: cat.area, equipmentpoolnodeid: cat.pool, version: row.version });
    });

    it('deletes a machine with everything hanging off it, leaving tombstones, and removes it from users’ assigned equipment', async () => {
      const le = a.legalEntity.nodeid;
      const machine = await create(adminA, input());
      const notification = await insertNotification(t.database.db, { legalentitynodeid: le, equipmentnodeid: machine.nodeid, authornodeid: a.admin.nodeid });
      const counter = await insertCounter(t.database.db, { legalentitynodeid: le, equipmentnodeid: machine.nodeid });
      const reading = await insertCounterReading(t.database.db, { legalentitynodeid: le, counternodeid: counter.nodeid });
      await t.database.db.update(users).set({ assignedequipment: [machine.nodeid] }).where(eq(users.nodeid, a.admin.nodeid));

      const response = await call(t, adminA, 'DELETE', `/api/equipments/${machine.nodeid}`, { nodeid: machine.nodeid });
      expect(response.statusCode, response.body).toBe(200);
      const { version } = response.json() as { version: number };
      const stones = await t.database.db.select().from(tombstones).where(and(eq(tombstones.legalentitynodeid, le), eq(tombstones.version, version)));
      expect(stones.map((s) => `${s.kind}:${s.nodeid}`).sort()).toEqual(
        [`equipment:${machine.nodeid}`, `notifications:${notification.nodeid}`, `counters:${counter.nodeid}`, `counter_readings:${reading.nodeid}`].sort(),
      );
      expect(await rowCount(t.database.db, notifications, eq(notifications.nodeid, notification.nodeid))).toBe(0);
      expect(await rowCount(t.database.db, counters, eq(counters.nodeid, counter.nodeid))).toBe(0);
      const [admin] = await t.database.db.select({ assigned: users.assignedequipment }).from(users).where(eq(users.nodeid, a.admin.nodeid));
      expect(admin?.assigned).toEqual([]);
      const [history] = await t.database.db.select().from(recordHistory).where(and(eq(recordHistory.nodeid, machine.nodeid), eq(recordHistory.version, version)));
      expect(history?.context).toMatchObject({ deleted: true, name: 'Fräse 1', notifications: 1 });
      expect((await call(t, adminA, 'GET', `/api/equipments/${machine.nodeid}`)).statusCode).toBe(404);
    });
  });

  describe('new manufacturer, brand and type in the create (§4)', () => {
    it('creates all three with the client-chosen ids in the same write', async () => {
      const ids = { m: uuidv7(), b: uuidv7(), t: uuidv7() };
      const before = await tenantVersion(t.database.db, a.legalEntity.nodeid);
      const row = await create(
        adminA,
        input({
          legalentity: { isnew: true, nodeid: ids.m, name: 'Neu Maschinenbau GmbH' },
          brand: { isnew: true, nodeid: ids.b, name: 'NeuTec', isbrandof: ids.m },
          equipmenttype: { isnew: true, nodeid: ids.t, model: 'NT 100', brandnodeid: ids.b },
          isequipmentof: [cat.pool],
        }),
      );
      const machine = await read(row.nodeid);
      expect(machine.hasequipmenttype).toEqual({ nodeid: ids.t, model: 'NT 100', brand: { nodeid: ids.b, name: 'NeuTec', isbrandof: { nodeid: ids.m, name: 'Neu Maschinenbau GmbH' } } });
      expect(machine.isequipmentof).toEqual([{ type: 'pool', nodeid: cat.pool, name: 'Mobile Geräte' }]);
      expect(machine.version).toBe(before + 1);

      const lebrty = lebrtySchema.parse((await call(t, adminA, 'GET', '/api/getlebrty?includeTypes=true&includeBrands=true')).json());
      expect(lebrty.find((m) => m.nodeid === ids.m)).toEqual({ nodeid: ids.m, name: 'Neu Maschinenbau GmbH', hasbrand: [{ nodeid: ids.b, name: 'NeuTec', hasequipmenttype: [{ nodeid: ids.t, model: 'NT 100' }] }] });

      const changes = await pullChanges(t, adminA, before);
      expect(changeOf(changes, 'manufacturers', ids.m).data).toMatchObject({ name: 'Neu Maschinenbau GmbH' });
      expect(changeOf(changes, 'brands', ids.b).data).toMatchObject({ name: 'NeuTec', isbrandof: ids.m });
      expect(changeOf(changes, 'equipmenttypes', ids.t).data).toMatchObject({ model: 'NT 100', brandnodeid: ids.b });
      expect(changeOf(changes, 'equipment', machine.nodeid).data).toMatchObject({ name: 'Fräse 1', equipmentpoolnodeid: cat.pool, areanodeid: null, equipmenttypenodeid: ids.t });

      // A second offline form that still flags the same brand and type as new counts them as existing.
      const second = await create(adminA, input({ legalentity: { isnew: true, nodeid: ids.m, name: 'Neu Maschinenbau GmbH' }, brand: { isnew: true, nodeid: ids.b, name: 'NeuTec' }, equipmenttype: { isnew: true, nodeid: ids.t, model: 'NT 100' } }));
      expect(second.equipmenttypenodeid).toBe(ids.t);
    });

    it('takes a new type of an existing brand, and an existing type alone', async () => {
      const typeId = uuidv7();
      const machine = await create(adminA, input({ equipmenttype: { isnew: true, nodeid: typeId, model: 'DMU 80' } }));
      expect((await read(machine.nodeid)).hasequipmenttype).toMatchObject({ nodeid: typeId, model: 'DMU 80', brand: { nodeid: cat.brand } });
      const alone = await create(adminA, input({ brand: undefined, equipmenttype: undefined, equipmenttypenodeid: cat.type }));
      expect((await read(alone.nodeid)).hasequipmenttype.brand.isbrandof.nodeid).toBe(cat.manufacturer);
    });

    it.each([
      ['a type of another brand', () => ({ brand: { isnew: false, nodeid: cat.brand }, equipmenttype: { isnew: false, nodeid: otherType } }), 'equipmenttype'],
      ['an existing brand with another manufacturer', () => ({ legalentity: { isnew: false, nodeid: otherManufacturer } }), 'brand'],
      ['a new brand with an existing type', () => ({ legalentity: { isnew: false, nodeid: cat.manufacturer }, brand: { isnew: true, nodeid: uuidv7(), name: 'X' } }), 'equipmenttype'],
    ])('answers 400 for %s, writing nothing', async (_name, overrides, field) => {
      const before = await rowCount(t.database.db, equipment);
      const response = await call(t, adminA, 'POST', '/api/equipments', input(overrides() as Partial<CreateEquipmentInput>));
      expect(response.statusCode, response.body).toBe(400);
      expect(apiErrorSchema.parse(response.json()).details?.map((d) => d.field)).toContain(field);
      expect(await rowCount(t.database.db, equipment)).toBe(before);
    });

    let otherType = '';
    let otherManufacturer = '';
    beforeAll(async () => {
      otherType = (await insertEquipmentType(t.database.db, { legalentitynodeid: a.legalEntity.nodeid })).nodeid;
      otherManufacturer = (await insertManufacturer(t.database.db, { legalentitynodeid: a.legalEntity.nodeid })).nodeid;
    });

    it('answers 404 for another tenant’s brand or type, and 409 when a new entry reuses another tenant’s id', async () => {
      const foreignType = await insertEquipmentType(t.database.db, { legalentitynodeid: b.legalEntity.nodeid });
      expect((await call(t, adminA, 'POST', '/api/equipments', input({ brand: { isnew: false, nodeid: foreignType.brandnodeid }, equipmenttype: { isnew: false, nodeid: foreignType.nodeid } }))).statusCode).toBe(404);
      const reused = await call(t, adminA, 'POST', '/api/equipments', input({ equipmenttype: { isnew: true, nodeid: foreignType.nodeid, model: 'Kopie' } }));
      expect(reused.statusCode).toBe(409);
      expect(reused.json()).toMatchObject({ message: 'This nodeid is already used by another record' });
    });
  });

  describe('validation: 400 naming the field, nothing written', () => {
    it.each([
      ['name', { name: '  ' }],
      ['constructiondate', { constructiondate: undefined }],
      ['constructiondate', { constructiondate: yearToEpochMs(new Date().getUTCFullYear() + 1) }],
      ['dimensions.0', { dimensions: [0, 10, 10] }],
      ['isequipmentof', { isequipmentof: [] }],
      // only the caller's legal entity, no area or pool (filled in below: the tenant exists only at run time)
      ['isequipmentof', { isequipmentof: [LEGAL_ENTITY_ONLY] }],
      ['brand', { brand: undefined, equipmenttype: { isnew: true, nodeid: uuidv7(), model: 'X' } }],
      ['hourlyrate', { hourlyrate: -1 }],
      ['equipmentnodeid', { equipmentnodeid: 'not-a-uuid' }],
      // not put into service before it was built; no build year before the form's earliest
      ['commissioningdate', { constructiondate: yearToEpochMs(2015), commissioningdate: yearToEpochMs(2014) }],
      ['constructiondate', { constructiondate: yearToEpochMs(1899), commissioningdate: yearToEpochMs(1950) }],
    ] as [string, Partial<CreateEquipmentInput>][])('%s', async (field, overrides) => {
      const before = await rowCount(t.database.db, equipment);
      const body = { ...input(), ...overrides };
      if (overrides.isequipmentof?.[0] === LEGAL_ENTITY_ONLY) body.isequipmentof = [a.legalEntity.nodeid];
      const response = await call(t, adminA, 'POST', '/api/equipments', body);
      expect(response.statusCode, response.body).toBe(400);
      expect(apiErrorSchema.parse(response.json()).details?.map((d) => d.field)).toContain(field);
      expect(await rowCount(t.database.db, equipment)).toBe(before);
    });

    it('refuses an update whose commissioning year would be before the build year, the other year being the machine’s (a colleague may have changed it meanwhile)', async () => {
      const machine = await create(adminA, input({ constructiondate: yearToEpochMs(2015), commissioningdate: yearToEpochMs(2016) }));
      const versionBefore = await tenantVersion(t.database.db, a.legalEntity.nodeid);
      const refusals = [
        { commissioningdate: yearToEpochMs(2014) },
        { constructiondate: yearToEpochMs(2017) },
        { constructiondate: yearToEpochMs(2017), name: 'Fräse neu' },
        { constructiondate: yearToEpochMs(2020), commissioningdate: yearToEpochMs(2019) },
      ];
      for (const body of refusals) {
        const response = await call(t, adminA, 'PUT', `/api/equipments/${machine.nodeid}`, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json()).toMatchObject({ details: [COMMISSIONED_BEFORE_BUILT_DETAIL] });
        expect(isCommissionedBeforeBuiltRefusal(response.json())).toBe(true);
      }
      expect(await tenantVersion(t.database.db, a.legalEntity.nodeid)).toBe(versionBefore);
      expect(await read(machine.nodeid)).toMatchObject({ name: machine.name, constructiondate: yearToEpochMs(2015), commissioningdate: yearToEpochMs(2016) });
      // Moving both together, the same year for both, or no commissioning year at all is fine.
      for (const body of [{ constructiondate: yearToEpochMs(2018), commissioningdate: yearToEpochMs(2019) }, { commissioningdate: yearToEpochMs(2018) }, { commissioningdate: null, constructiondate: yearToEpochMs(2020) }]) {
        const response = await call(t, adminA, 'PUT', `/api/equipments/${machine.nodeid}`, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(200);
      }
      expect(await read(machine.nodeid)).toMatchObject({ constructiondate: yearToEpochMs(2020), commissioningdate: null });
    });

    it('rejects two areas, and an equipmentnodeid in the update body that is not the path’s', async () => {
      const second = await insertArea(t.database.db, { legalentitynodeid: a.legalEntity.nodeid });
      const response = await call(t, adminA, 'POST', '/api/equipments', input({ isequipmentof: [cat.area, second.nodeid] }));
      expect(response.statusCode).toBe(400);
      const machine = await create(adminA, input());
      const put = await call(t, adminA, 'PUT', `/api/equipments/${machine.nodeid}`, { equipmentnodeid: uuidv7(), name: 'X' });
      expect(put.statusCode).toBe(400);
      expect(put.json()).toMatchObject({ details: [{ field: 'equipmentnodeid' }] });
    });
  });

  describe('permissions and tenant scope', () => {
    it('answers 401 without a token', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/equipments' })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'POST', url: '/api/equipments', payload: {} })).statusCode).toBe(401);
    });

    const routes: { flag: 'create' | 'read' | 'update' | 'delete'; request: (id: string) => [Method, string, unknown?] }[] = [
      { flag: 'create', request: () => ['POST', '/api/equipments', input()] },
      { flag: 'read', request: (id) => ['GET', `/api/equipments/${id}`] },
      { flag: 'update', request: (id) => ['PUT', `/api/equipments/${id}`, { memo: 'x' }] },
      { flag: 'delete', request: (id) => ['DELETE', `/api/equipments/${id}`] },
    ];
    it.each(routes)('without the equipment $flag flag: 403 Zugriff verwehrt!', async ({ flag, request }) => {
      const machine = await create(adminA, input());
      const authorization = await loginWithProfile({ equipment: allFlagsBut(flag) });
      const [method, url, payload] = request(machine.nodeid);
      const response = await call(t, authorization, method, url, payload);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ message: ACCESS_DENIED_MESSAGE });
    });

    it('a reader (everything read-only) can read but not write', async () => {
      const reader = await loginWithProfile(Object.fromEntries(Object.keys(allFeatures()).map((k) => [k, READ_ONLY])));
      const machine = await create(adminA, input());
      expect((await call(t, reader, 'GET', `/api/equipments/${machine.nodeid}`)).statusCode).toBe(200);
      expect((await call(t, reader, 'POST', '/api/equipments', input())).statusCode).toBe(403);
      expect((await call(t, reader, 'DELETE', `/api/equipments/${machine.nodeid}`)).statusCode).toBe(403);
      const withAll = await loginWithProfile({ equipment: ALL });
      expect((await call(t, withAll, 'PUT', `/api/equipments/${machine.nodeid}`, { memo: 'ok' })).statusCode).toBe(200);
    });

    it('hides tenant A’s machine from tenant B: 404 on read, update and delete; B cannot link into A’s area', async () => {
      const machine = await create(adminA, input());
      expect((await call(t, adminB, 'GET', `/api/equipments/${machine.nodeid}`)).statusCode).toBe(404);
      expect((await call(t, adminB, 'PUT', `/api/equipments/${machine.nodeid}`, { name: 'Gekapert' })).statusCode).toBe(404);
      expect((await call(t, adminB, 'DELETE', `/api/equipments/${machine.nodeid}`)).statusCode).toBe(404);
      const list = equipmentSchema.array().parse((await call(t, adminB, 'GET', '/api/equipments')).json());
      expect(list.map((m) => m.nodeid)).not.toContain(machine.nodeid);
      const foreignType = await insertEquipmentType(t.database.db, { legalentitynodeid: b.legalEntity.nodeid });
      const intoA = await call(t, adminB, 'POST', '/api/equipments', input({ brand: undefined, equipmenttype: undefined, equipmenttypenodeid: foreignType.nodeid }));
      expect(intoA.statusCode).toBe(404);
      expect((await call(t, adminA, 'GET', `/api/equipments/${machine.nodeid}`)).json()).toMatchObject({ name: 'Fräse 1' });
    });
  });

  describe('offline creates', () => {
    it('replays a create under the same X-Client-Id/X-Mutation-Id with the stored answer', async () => {
      await sentTwice(t, adminA, 'POST', '/api/equipments', input({ equipmentnodeid: uuidv7() }), { status: 201, unchanged: () => rowCount(t.database.db, equipment) });
    });

    it('answers the same create sent again (new mutation id) with the machine; other content or another tenant’s id is 409', async () => {
      const nodeid = uuidv7();
      const first = await create(adminA, input({ equipmentnodeid: nodeid }));
      const again = await call(t, adminA, 'POST', '/api/equipments', input({ equipmentnodeid: nodeid }));
      expect(again.statusCode).toBe(201);
      expect(again.json()).toEqual(first);
      expect((await call(t, adminA, 'POST', '/api/equipments', input({ equipmentnodeid: nodeid, name: 'Anders' }))).statusCode).toBe(409);
      const foreign = await call(t, adminB, 'POST', '/api/equipments', input({ equipmentnodeid: nodeid }));
      expect([404, 409]).toContain(foreign.statusCode);
      expect(foreign.body).not.toContain('Fräse');
    });

    it('answers 410 for a create with the id of a deleted machine', async () => {
      const machine = await create(adminA, input());
      await call(t, adminA, 'DELETE', `/api/equipments/${machine.nodeid}`);
      expect((await call(t, adminA, 'POST', '/api/equipments', input({ equipmentnodeid: machine.nodeid }))).statusCode).toBe(410);
    });
  });

  describe('one transaction per write', () => {
    it('leaves no machine, brand, type or manufacturer and no version when the create fails before commit', async () => {
      const le = a.legalEntity.nodeid;
      const ids = { m: uuidv7(), b: uuidv7(), t: uuidv7() };
      const [machinesBefore, brandsBefore, versionBefore] = [await rowCount(t.database.db, equipment), await rowCount(t.database.db, brands), await tenantVersion(t.database.db, le)];
      t.faults.beforeCommit = () => {
        throw new Error('injected failure after the inserts');
      };
      try {
        const response = await call(t, adminA, 'POST', '/api/equipments', input({ legalentity: { isnew: true, nodeid: ids.m, name: 'X GmbH' }, brand: { isnew: true, nodeid: ids.b, name: 'X' }, equipmenttype: { isnew: true, nodeid: ids.t, model: 'X1' } }));
        expect(response.statusCode).toBe(500);
      } finally {
        t.faults.beforeCommit = undefined;
      }
      expect(await rowCount(t.database.db, equipment)).toBe(machinesBefore);
      expect(await rowCount(t.database.db, brands)).toBe(brandsBefore);
      expect(await rowCount(t.database.db, legalEntities, eq(legalEntities.nodeid, ids.m))).toBe(0);
      expect(await tenantVersion(t.database.db, le)).toBe(versionBefore);
    });
  });

  describe('bulk create (CSV import)', () => {
    it('creates many machines in one version, sharing a new brand and type made by the first row', async () => {
      const v0 = await tenantVersion(t.database.db, a.legalEntity.nodeid);
      const ids = { b: uuidv7(), t: uuidv7() };
      const items = Array.from({ length: 30 }, (_, i) =>
        input({ equipmentnodeid: uuidv7(), name: `Import ${i}`, brand: { isnew: true, nodeid: ids.b, name: 'ImportMarke' }, equipmenttype: { isnew: true, nodeid: ids.t, model: 'IM 1' }, legalentity: { isnew: false, nodeid: cat.manufacturer } }),
      );
      const response = await send(t, adminA, 'POST', '/api/equipments/bulk', { items }, mutationHeaders(uuidv4(), 1));
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toEqual({ version: v0 + 1, nodeids: items.map((i) => i.equipmentnodeid) });
      const rows = await t.database.db.select().from(equipment).where(eq(equipment.equipmenttypenodeid, ids.t));
      expect(rows).toHaveLength(30);
      expect(new Set(rows.map((r) => r.version))).toEqual(new Set([v0 + 1]));
      const changes = await pullChanges(t, adminA, v0);
      expect(changes.filter((c) => c.kind === 'equipment')).toHaveLength(30);
    });

    it('applies each item’s moves after those of the items before it, machines of the same import included', async () => {
      const [first, second, third] = [uuidv7(), uuidv7(), uuidv7()];
      const items = [
        input({ equipmentnodeid: first, isequipmentof: [cat.pool] }),
        input({ equipmentnodeid: second, isequipmentof: [cat.pool], assign: { payload: [{ equipmentnodeid: first, isequipmentof: cat.area }] } }),
        // Out of the pool: the first machine keeps the area the item before moved it into.
        input({ equipmentnodeid: third, isequipmentof: [cat.area], assign: { payload: [{ equipmentnodeid: first, deleteequipmentof: [{ type: 'pool', nodeid: cat.pool }] }] } }),
      ];
      const response = await call(t, adminA, 'POST', '/api/equipments/bulk', { items });
      expect(response.statusCode, response.body).toBe(201);
      const [row] = await t.database.db.select().from(equipment).where(eq(equipment.nodeid, first));
      expect(row).toMatchObject({ areanodeid: cat.area, equipmentpoolnodeid: null });
      const unknown = await call(t, adminA, 'POST', '/api/equipments/bulk', { items: [input({ equipmentnodeid: uuidv7() }), input({ equipmentnodeid: uuidv7(), assign: { payload: [{ equipmentnodeid: uuidv7(), isequipmentof: cat.area }] } })] });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ details: [{ field: 'items.1' }] });
    });

    it('is all or nothing and names the failing item', async () => {
      const before = await rowCount(t.database.db, equipment);
      const items = [input({ equipmentnodeid: uuidv7() }), input({ equipmentnodeid: uuidv7(), isequipmentof: [uuidv7()] }), input({ equipmentnodeid: uuidv7() })];
      const notFound = await call(t, adminA, 'POST', '/api/equipments/bulk', { items });
      expect(notFound.statusCode).toBe(404);
      expect(notFound.json()).toMatchObject({ details: [{ field: 'items.1' }] });
      const invalid = await call(t, adminA, 'POST', '/api/equipments/bulk', { items: [input(), input({ name: '' })] });
      expect(invalid.json()).toMatchObject({ statusCode: 400, details: [{ field: 'items.1.name' }] });
      const early = await call(t, adminA, 'POST', '/api/equipments/bulk', { items: [input(), input({ constructiondate: yearToEpochMs(2015), commissioningdate: yearToEpochMs(2010) })] });
      expect(early.json()).toMatchObject({ statusCode: 400, details: [{ field: 'items.1.commissioningdate', message: COMMISSIONED_BEFORE_BUILT_DETAIL.message }] });
      expect(isCommissionedBeforeBuiltRefusal(early.json())).toBe(true);
      const duplicate = uuidv7();
      const twice = await call(t, adminA, 'POST', '/api/equipments/bulk', { items: [input({ equipmentnodeid: duplicate }), input({ equipmentnodeid: duplicate })] });
      expect(twice.statusCode).toBe(409);
      expect(await rowCount(t.database.db, equipment)).toBe(before);
      const reader = await loginWithProfile({ equipment: READ_ONLY });
      expect((await call(t, reader, 'POST', '/api/equipments/bulk', { items: [input()] })).statusCode).toBe(403);
    });
  });

  describe('change feed', () => {
    it('shows create, update and delete in GET /api/sync/pull', async () => {
      const v0 = await tenantVersion(t.database.db, a.legalEntity.nodeid);
      const machine = await create(adminA, input());
      await call(t, adminA, 'PUT', `/api/equipments/${machine.nodeid}`, { name: 'Fräse 1a' });
      let changes = await pullChanges(t, adminA, v0);
      expect(changeOf(changes, 'equipment', machine.nodeid)).toMatchObject({ version: v0 + 2, data: { name: 'Fräse 1a', areanodeid: cat.area } });
      await call(t, adminA, 'DELETE', `/api/equipments/${machine.nodeid}`);
      changes = await pullChanges(t, adminA, v0 + 2);
      expect(changeOf(changes, 'equipment', machine.nodeid)).toMatchObject({ deleted: true, version: v0 + 3 });
    });
  });
});
