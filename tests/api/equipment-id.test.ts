import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../src/shared/api/errors';
import { EQUIPMENT_ID_TAKEN_DETAIL, isEquipmentIdTakenRefusal, type CreateEquipmentInput } from '../../src/shared/api/equipment';
import { syncBatchResponseSchema } from '../../src/shared/api/sync';
import { yearToEpochMs } from '../../src/shared/domain/equipment';
import { matchKey } from '../../src/shared/domain/text';
import { equipmentRowSchema, type EquipmentRow } from '../../src/shared/rows/equipment';
import { equipment, syncMutations } from '../../src/server/db/schema';
import { insertArea, insertBrand, insertEquipment, insertEquipmentType, insertManufacturer } from '../factories/structure';
import type { TestTenant } from '../factories/tenant';
import { rowCount, tenantVersion } from './support/db-queries';
import { call, postCreated } from './support/requests';
import { send } from './support/structure';
import { createTwoTenantApp, type TestApp } from './support/test-app';

// One Equipment-ID, one machine of the organisation (docs/decisions.md): the server refuses a create, bulk create or
// update that would give a machine an Equipment-ID another live machine of the tenant has, compared as `matchKey`
// does (case and surrounding spaces aside) — also through the offline write path, and also when two arrive at once.

describe('equipment: one Equipment-ID per machine of the organisation', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let adminA: string;
  let adminB: string;
  let cat: { type: string; area: string };
  let typeB: string;
  let areaB: string;

  const db = () => t.database.db;
  const input = (equipmentid: string | null, overrides: Partial<CreateEquipmentInput> = {}): CreateEquipmentInput => ({
    lang: 'de',
    name: `Maschine ${equipmentid ?? 'ohne ID'}`,
    equipmentid,
    constructiondate: yearToEpochMs(2015),
    isequipmentof: [cat.area],
    equipmenttypenodeid: cat.type,
    ...overrides,
  });
  const create = (body: CreateEquipmentInput, authorization = adminA): Promise<EquipmentRow> => postCreated(t, authorization, '/api/equipments', body, equipmentRowSchema);
  /** Tenant A's machines whose Equipment-ID is `equipmentid` as matchKey has it. */
  const machinesWithId = async (equipmentid: string, le = a.legalEntity.nodeid) => {
    const rows = await db().select({ nodeid: equipment.nodeid, equipmentid: equipment.equipmentid }).from(equipment).where(eq(equipment.legalentitynodeid, le));
    return rows.filter((row) => row.equipmentid !== null && matchKey(row.equipmentid) === matchKey(equipmentid));
  };
  /** The 409 naming the field (`field`: `items.N.equipmentid` in a bulk create). */
  const expectTaken = (response: { statusCode: number; body: string; json(): unknown }, field = 'equipmentid') => {
    expect(response.statusCode, response.body).toBe(409);
    const body = apiErrorSchema.parse(response.json());
    expect(body.details).toEqual([{ field, message: EQUIPMENT_ID_TAKEN_DETAIL.message }]);
    expect(body.message).toMatch(/equipmentid: .*Equipment-ID/);
    expect(isEquipmentIdTakenRefusal(body)).toBe(true);
  };

  beforeAll(async () => {
    ({ t, a, b, adminA, adminB } = await createTwoTenantApp());
    const le = a.legalEntity.nodeid;
    const manufacturer = await insertManufacturer(db(), { legalentitynodeid: le });
    const brand = await insertBrand(db(), { legalentitynodeid: le, manufacturernodeid: manufacturer.nodeid });
    cat = { type: (await insertEquipmentType(db(), { legalentitynodeid: le, brandnodeid: brand.nodeid })).nodeid, area: (await insertArea(db(), { legalentitynodeid: le })).nodeid };
    typeB = (await insertEquipmentType(db(), { legalentitynodeid: b.legalEntity.nodeid })).nodeid;
    areaB = (await insertArea(db(), { legalentitynodeid: b.legalEntity.nodeid })).nodeid;
  });
  afterAll(() => t?.close());

  describe('create', () => {
    it.each([
      ['another case', 'BAZ-01', 'baz-01'],
      ['surrounding spaces', 'BAZ-02', '  BAZ-02 '],
      ['an invisible character at the end', 'BAZ-03', 'BAZ-03\u200B'],
      ['another case of a letter beyond ASCII', 'Ölpresse-Ä1', 'ÖLPRESSE-ä1'],
      // The same letters encoded otherwise print the same on a sticker: one ID.
      ['a letter composed of two code points (NFD, as macOS pastes it)', 'PRÜF-7', 'PRU\u0308F-7'],
      ['an invisible character inside', 'BAZ-04', 'BAZ\u200B-04'],
      ['full-width characters', 'BAZ-05', '\uFF22\uFF21\uFF3A\uFF0D\uFF10\uFF15'],
    ])('refuses an Equipment-ID another machine has in %s: 409 naming the field, nothing written', async (_case, taken, sent) => {
      const first = await create(input(taken));
      const before = { rows: await rowCount(db(), equipment), version: await tenantVersion(db(), a.legalEntity.nodeid) };
      const nodeid = uuidv7();
      expectTaken(await call(t, adminA, 'POST', '/api/equipments', input(sent, { equipmentnodeid: nodeid })));
      expect(await rowCount(db(), equipment)).toBe(before.rows);
      expect(await tenantVersion(db(), a.legalEntity.nodeid)).toBe(before.version);
      expect((await machinesWithId(taken)).map((row) => row.nodeid)).toEqual([first.nodeid]);
    });

    it('refuses an Equipment-ID older data holds with spaces around it or in another case (written before the rule)', async () => {
      await insertEquipment(db(), { legalentitynodeid: a.legalEntity.nodeid, equipmenttypenodeid: cat.type, equipmentid: ' Alt-7\t' });
      await insertEquipment(db(), { legalentitynodeid: a.legalEntity.nodeid, equipmenttypenodeid: cat.type, equipmentid: 'STRAẞE-1' });
      expectTaken(await call(t, adminA, 'POST', '/api/equipments', input('alt-7')));
      expectTaken(await call(t, adminA, 'POST', '/api/equipments', input('straße-1')));
      // Only matchKey's sameness counts: another text is another ID.
      await create(input('alt-7a'));
      await create(input('strasse-1'));
    });

    it('takes the Equipment-ID of a deleted machine', async () => {
      const old = await create(input('WIEDER-1'));
      expectTaken(await call(t, adminA, 'POST', '/api/equipments', input('wieder-1')));
      expect((await call(t, adminA, 'DELETE', `/api/equipments/${old.nodeid}`)).statusCode).toBe(200);
      const again = await create(input('wieder-1'));
      expect((await machinesWithId('WIEDER-1')).map((row) => row.nodeid)).toEqual([again.nodeid]);
    });

    it("does not mind another organisation's machine with the same Equipment-ID", async () => {
      await create(input('GETEILT-1'));
      const inB = (equipmentid: string) => input(equipmentid, { isequipmentof: [areaB], equipmenttypenodeid: typeB });
      const theirs = await create(inB('geteilt-1'), adminB);
      expect(theirs.equipmentid).toBe('geteilt-1');
      // Within each organisation the rule holds.
      expectTaken(await call(t, adminB, 'POST', '/api/equipments', inB('Geteilt-1')));
      expectTaken(await call(t, adminA, 'POST', '/api/equipments', input('Geteilt-1')));
      expect(await machinesWithId('GETEILT-1', b.legalEntity.nodeid)).toHaveLength(1);
      expect(await machinesWithId('GETEILT-1')).toHaveLength(1);
    });

    it('never counts an empty or absent Equipment-ID as a duplicate', async () => {
      await create(input(null));
      await create(input(null));
      const blank = await create(input('   '));
      expect(blank.equipmentid).toBeNull();
      const { equipmentid: _none, ...withoutId } = input(null);
      const absent = await create(withoutId);
      // Emptied in an update, too; a machine given an ID anew is still checked.
      await create(input('LEER-1'));
      expect((await call(t, adminA, 'PUT', `/api/equipments/${blank.nodeid}`, { lang: 'de', equipmentid: '' })).statusCode).toBe(200);
      expectTaken(await call(t, adminA, 'PUT', `/api/equipments/${absent.nodeid}`, { lang: 'de', equipmentid: 'leer-1' }));
    });

    it('answers the same create sent again (a device that lost the answer) with its machine, not with a refusal of its own ID', async () => {
      const body = input('NOCHMAL-1', { equipmentnodeid: uuidv7() });
      const first = await create(body);
      expectTaken(await call(t, adminA, 'POST', '/api/equipments', input('NOCHMAL-1', { equipmentnodeid: uuidv7() })));
      const again = await call(t, adminA, 'POST', '/api/equipments', body);
      expect(again.statusCode, again.body).toBe(201);
      expect(again.json()).toEqual(first);
    });
  });

  describe('update', () => {
    it("refuses to give a machine another machine's Equipment-ID: 409 naming the field, nothing changed", async () => {
      await create(input('ZIEL-1'));
      const machine = await create(input('EIGEN-1'));
      const version = await tenantVersion(db(), a.legalEntity.nodeid);
      expectTaken(await call(t, adminA, 'PUT', `/api/equipments/${machine.nodeid}`, { lang: 'de', name: 'Umbenannt', equipmentid: ' ziel-1 ' }));
      const [row] = await db().select().from(equipment).where(eq(equipment.nodeid, machine.nodeid));
      expect(row).toMatchObject({ name: machine.name, equipmentid: 'EIGEN-1' });
      expect(await tenantVersion(db(), a.legalEntity.nodeid)).toBe(version);
    });

    it('lets an edit keep a duplicate older data holds (also in another case), and change other fields', async () => {
      const le = a.legalEntity.nodeid;
      const first = await insertEquipment(db(), { legalentitynodeid: le, equipmenttypenodeid: cat.type, equipmentid: 'DOPPELT-1' });
      const second = await insertEquipment(db(), { legalentitynodeid: le, equipmenttypenodeid: cat.type, equipmentid: 'doppelt-1' });
      const same = await call(t, adminA, 'PUT', `/api/equipments/${second.nodeid}`, { lang: 'de', name: 'Behalten', equipmentid: 'doppelt-1' });
      expect(same.statusCode, same.body).toBe(200);
      const recased = await call(t, adminA, 'PUT', `/api/equipments/${first.nodeid}`, { lang: 'de', equipmentid: 'Doppelt-1' });
      expect(recased.statusCode, recased.body).toBe(200);
      expect(equipmentRowSchema.parse(recased.json()).equipmentid).toBe('Doppelt-1');
      const unsent = await call(t, adminA, 'PUT', `/api/equipments/${first.nodeid}`, { lang: 'de', memo: 'Öl prüfen' });
      expect(unsent.statusCode, unsent.body).toBe(200);
      // Given anew, the ID must be free: a third machine cannot take it, nor can one of the two return to it.
      const third = await create(input('DRITTE-1'));
      expectTaken(await call(t, adminA, 'PUT', `/api/equipments/${third.nodeid}`, { lang: 'de', equipmentid: 'doppelt-1' }));
      expect((await call(t, adminA, 'PUT', `/api/equipments/${second.nodeid}`, { lang: 'de', equipmentid: 'ZWISCHEN-1' })).statusCode).toBe(200);
      expectTaken(await call(t, adminA, 'PUT', `/api/equipments/${second.nodeid}`, { lang: 'de', equipmentid: 'DOPPELT-1' }));
    });

    it('lets a machine give up its Equipment-ID and another take it', async () => {
      const machine = await create(input('FREI-1'));
      const other = await create(input('ANDERE-1'));
      expectTaken(await call(t, adminA, 'PUT', `/api/equipments/${other.nodeid}`, { lang: 'de', equipmentid: 'frei-1' }));
      expect((await call(t, adminA, 'PUT', `/api/equipments/${machine.nodeid}`, { lang: 'de', equipmentid: null })).statusCode).toBe(200);
      const taken = await call(t, adminA, 'PUT', `/api/equipments/${other.nodeid}`, { lang: 'de', equipmentid: 'frei-1' });
      expect(taken.statusCode, taken.body).toBe(200);
    });
  });

  describe('bulk create (CSV import)', () => {
    it('refuses an item with the Equipment-ID of an existing machine, naming the item; nothing written', async () => {
      await create(input('IMPORT-1'));
      const before = { rows: await rowCount(db(), equipment), version: await tenantVersion(db(), a.legalEntity.nodeid) };
      const items = [input('IMPORT-NEU-1', { equipmentnodeid: uuidv7() }), input(' import-1', { equipmentnodeid: uuidv7() }), input('IMPORT-NEU-2', { equipmentnodeid: uuidv7() })];
      expectTaken(await call(t, adminA, 'POST', '/api/equipments/bulk', { items }), 'items.1.equipmentid');
      expect(await rowCount(db(), equipment)).toBe(before.rows);
      expect(await tenantVersion(db(), a.legalEntity.nodeid)).toBe(before.version);
    });

    it('refuses two new machines of one import with the same Equipment-ID, naming the later item and the earlier; nothing written', async () => {
      const before = await rowCount(db(), equipment);
      const items = [input('PAAR-1', { equipmentnodeid: uuidv7() }), input('EINZELN-1', { equipmentnodeid: uuidv7() }), input('paar-1', { equipmentnodeid: uuidv7() })];
      const response = await call(t, adminA, 'POST', '/api/equipments/bulk', { items });
      expectTaken(response, 'items.2.equipmentid');
      expect(apiErrorSchema.parse(response.json()).message).toContain('items.0');
      expect(await rowCount(db(), equipment)).toBe(before);
      expect(await machinesWithId('PAAR-1')).toEqual([]);
    });

    it('refuses two new machines of one import whose Equipment-IDs differ only in how a letter is encoded', async () => {
      const before = await rowCount(db(), equipment);
      const items = [input('PR\u00DCF-8', { equipmentnodeid: uuidv7() }), input('PRU\u0308F-8', { equipmentnodeid: uuidv7() })];
      expectTaken(await call(t, adminA, 'POST', '/api/equipments/bulk', { items }), 'items.1.equipmentid');
      expect(await rowCount(db(), equipment)).toBe(before);
    });

    it('takes an import whose machines all have IDs of their own, or none', async () => {
      const items = [input('EIGEN-A', { equipmentnodeid: uuidv7() }), input(null, { equipmentnodeid: uuidv7() }), input(null, { equipmentnodeid: uuidv7() }), input('EIGEN-B', { equipmentnodeid: uuidv7() })];
      const response = await call(t, adminA, 'POST', '/api/equipments/bulk', { items });
      expect(response.statusCode, response.body).toBe(201);
      // Sent again (the answer was lost), the import's machines are its own and not duplicates of themselves.
      const again = await call(t, adminA, 'POST', '/api/equipments/bulk', { items });
      expect(again.statusCode, again.body).toBe(201);
      // The same rows as new machines are duplicates of those.
      const copies = items.map((item) => ({ ...item, equipmentnodeid: uuidv7() }));
      expectTaken(await call(t, adminA, 'POST', '/api/equipments/bulk', { items: copies }), 'items.0.equipmentid');
    });
  });

  describe('writes at the same time', () => {
    it('lets exactly one of several creates with the same Equipment-ID through', async () => {
      const sent = ['GLEICHZEITIG-1', 'gleichzeitig-1', ' Gleichzeitig-1', 'GLEICHZEITIG-1', 'gleichZEITIG-1', 'GLEICHZEITIG-1'];
      const responses = await Promise.all(sent.map((equipmentid) => call(t, adminA, 'POST', '/api/equipments', input(equipmentid, { equipmentnodeid: uuidv7() }))));
      expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      for (const refused of responses.filter((response) => response.statusCode === 409)) expectTaken(refused);
      expect(await machinesWithId('GLEICHZEITIG-1')).toHaveLength(1);
    });

    it('lets exactly one of several updates giving machines the same Equipment-ID through', async () => {
      const machines = await Promise.all([1, 2, 3, 4].map((n) => create(input(`VORHER-${n}`))));
      const responses = await Promise.all(machines.map((machine) => call(t, adminA, 'PUT', `/api/equipments/${machine.nodeid}`, { lang: 'de', equipmentid: 'NACHHER-1' })));
      expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409, 409, 409]);
      expect(await machinesWithId('NACHHER-1')).toHaveLength(1);
    });

    it('lets exactly one of a create and a bulk create with the same Equipment-ID through', async () => {
      const [single, bulk] = await Promise.all([
        call(t, adminA, 'POST', '/api/equipments', input('WETTLAUF-1', { equipmentnodeid: uuidv7() })),
        call(t, adminA, 'POST', '/api/equipments/bulk', { items: [input('WETTLAUF-2', { equipmentnodeid: uuidv7() }), input('wettlauf-1', { equipmentnodeid: uuidv7() })] }),
      ]);
      expect([single.statusCode, bulk.statusCode].sort()).toEqual([201, 409]);
      expect(await machinesWithId('WETTLAUF-1')).toHaveLength(1);
    });
  });

  describe('offline writes (POST /api/sync/batch)', () => {
    it('refuses a queued create with a taken Equipment-ID as a stored 409 the device keeps as a refused change, and runs the entries after it', async () => {
      await create(input('OFFLINE-1'));
      const clientid = uuidv7();
      const refused = input('offline-1', { equipmentnodeid: uuidv7() });
      const next = input('OFFLINE-2', { equipmentnodeid: uuidv7() });
      const mutations = [
        { mutationId: 1, method: 'POST', path: '/api/equipments', body: refused },
        { mutationId: 2, method: 'POST', path: '/api/equipments', body: next },
      ];
      const answer = async () => {
        const response = await send(t, adminA, 'POST', '/api/sync/batch', { mutations }, { 'x-client-id': clientid });
        expect(response.statusCode, response.body).toBe(200);
        return syncBatchResponseSchema.parse(response.json()).results;
      };
      const results = await answer();
      expect(results.map((result) => [result.mutationId, result.status])).toEqual([
        [1, 409],
        [2, 201],
      ]);
      // What the device stores as the dead letter's error, and recognises to say why in the user's words.
      expect(isEquipmentIdTakenRefusal(results[0]!.body)).toBe(true);
      expect(await rowCount(db(), equipment, eq(equipment.nodeid, refused.equipmentnodeid!))).toBe(0);
      const [logged] = await db().select({ status: syncMutations.status }).from(syncMutations).where(and(eq(syncMutations.clientid, clientid), eq(syncMutations.mutationId, 1)));
      expect(logged?.status).toBe(409);
      // Sent again (the answer was lost): the stored refusal, not a second try.
      const replayed = await answer();
      expect(replayed.map((result) => [result.mutationId, result.status, result.replayed])).toEqual([
        [1, 409, true],
        [2, 201, true],
      ]);
    });

    it('refuses a queued update to a taken Equipment-ID the same way', async () => {
      await create(input('OFFLINE-3'));
      const machine = await create(input('OFFLINE-4'));
      const response = await send(t, adminA, 'POST', '/api/sync/batch', { mutations: [{ mutationId: 1, method: 'PUT', path: `/api/equipments/${machine.nodeid}`, body: { lang: 'de', equipmentid: 'Offline-3' } }] }, { 'x-client-id': uuidv7() });
      expect(response.statusCode, response.body).toBe(200);
      const [result] = syncBatchResponseSchema.parse(response.json()).results;
      expect(result).toMatchObject({ status: 409 });
      expect(isEquipmentIdTakenRefusal(result!.body)).toBe(true);
    });
  });
});
