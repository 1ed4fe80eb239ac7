import { and, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../src/shared/api/errors';
import { counterSchema, counterTypeSchema, counterWriteAnswerSchema, createCounterTypeResultSchema, type Counter, type CreateCounterInput } from '../../src/shared/api/counters';
import type { Db } from '../../src/server/db/client';
import { counterReadings, counters, maintenanceTasks, syncMutations, tenantVersions, tombstones } from '../../src/server/db/schema';
import { UNIT_IDS } from '../../src/server/db/seed/reference-data';
import { insertCounterType } from '../factories/notifications';
import { insertEquipment } from '../factories/structure';
import type { TestTenant } from '../factories/tenant';
import { itChecksEachFlag } from './support/permission-matrix';
import { call, postCreated } from './support/requests';
import { createTwoTenantApp, type TestApp } from './support/test-app';
import { rowCount } from './support/db-queries';
import { send } from './support/structure';

const HOUR = 3_600_000;

const readingCount = (db: Db) => rowCount(db, counterReadings);
const counterCount = (db: Db) => rowCount(db, counters);

describe('counters', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let adminA: string;
  let adminB: string;
  let machineA: string;
  let typeA: string;
  let builtinTypeA: string;
  let machineB: string;
  let typeB: string;

  const input = (overrides: Partial<CreateCounterInput> = {}): CreateCounterInput => ({
    lang: 'de',
    nodeid: uuidv7(),
    name: 'Hubzähler Presse',
    counterTypeNodeId: typeA,
    equipmentNodeId: machineA,
    values: [{ nodeid: uuidv7(), reading: '1234,5', timestamp: Date.now() - 2 * HOUR }],
    ...overrides,
  });
  const create = (overrides: Partial<CreateCounterInput> = {}): Promise<Counter> => postCreated(t, adminA, '/api/counters/create', input(overrides), counterSchema);
  const update = (id: string, body: Record<string, unknown>, authorization = adminA) => call(t, authorization, 'PUT', `/api/counters/update/${id}`, { lang: 'de', ...body });

  beforeAll(async () => {
    ({ t, a, b, adminA, adminB } = await createTwoTenantApp());
    machineA = (await insertEquipment(t.database.db, { legalentitynodeid: a.legalEntity.nodeid })).nodeid;
    typeA = (await insertCounterType(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, name: 'Hubzähler', unitnodeid: UNIT_IDS.piece })).nodeid;
    builtinTypeA = (await insertCounterType(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, name: 'Betriebsstunden', builtin: true })).nodeid;
    machineB = (await insertEquipment(t.database.db, { legalentitynodeid: b.legalEntity.nodeid })).nodeid;
    typeB = (await insertCounterType(t.database.db, { legalentitynodeid: b.legalEntity.nodeid })).nodeid;
  });
  afterAll(() => t?.close());

  describe('create, list, update, delete', () => {
    it('creates a counter with a reading typed with a decimal comma; lists it per machine and for the tenant', async () => {
      const counter = await create();
      expect(counter).toMatchObject({ name: 'Hubzähler Presse', equipmentnodeid: machineA, hascountertype: { nodeid: typeA, unit: { unitid: 'C62', unitId: 'C62', symbol: 'Stk.' } } });
      expect(counter.values).toEqual([{ nodeid: expect.any(String), reading: 1234.5, timestamp: expect.any(Number) }]);

      const perMachine = await call(t, adminA, 'GET', `/api/counters?lang=de&equipmentnodeid=${machineA}`);
      expect(perMachine.statusCode).toBe(200);
      expect((perMachine.json() as Counter[]).map((c) => c.nodeid)).toContain(counter.nodeid);
      const all = await call(t, adminA, 'GET', '/api/counters?lang=de');
      expect((all.json() as Counter[]).map((c) => c.nodeid)).toContain(counter.nodeid);
      expect((await call(t, adminB, 'GET', '/api/counters')).json()).toEqual([]);
    });

    it('merges readings: new ones are appended, resent ones are not doubled, omitted ones stay', async () => {
      const counter = await create();
      const first = counter.values[0]!;
      const later = { nodeid: uuidv7(), reading: 1300, timestamp: Date.now() - HOUR };
      const response = await update(counter.nodeid, { values: [first, later] });
      expect(response.statusCode, response.body).toBe(200);
      expect(counterSchema.parse(response.json()).values.map((v) => v.reading)).toEqual([1234.5, 1300]);

      // The old client sends its whole list without reading ids: nothing is doubled.
      const again = await update(counter.nodeid, { values: [{ reading: 1300, timestamp: later.timestamp }, { reading: '1234,5', timestamp: first.timestamp }] });
      expect(counterSchema.parse(again.json()).values).toHaveLength(2);

      // The §7 payload repeating the locked name, without readings, deletes none (and answers none: it sent none).
      const same = counterWriteAnswerSchema.parse((await update(counter.nodeid, { name: counter.name })).json());
      expect(same).toMatchObject({ name: counter.name, values: [] });
      const [listed] = (await call(t, adminA, 'GET', `/api/counters?equipmentnodeid=${machineA}`)).json<Counter[]>().filter((c) => c.nodeid === counter.nodeid);
      expect(listed!.values.map((v) => v.reading)).toEqual([1234.5, 1300]);
    });

    it('refuses one reading id with two different readings in one request and stores none of it; the same reading twice is kept once', async () => {
      const counter = await create({ values: [] });
      const nodeid = uuidv7();
      const timestamp = Date.now() - HOUR;
      const refused = await update(counter.nodeid, { values: [{ nodeid: uuidv7(), reading: 7, timestamp }, { nodeid, reading: 10, timestamp }, { nodeid, reading: 11, timestamp }] });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ message: expect.stringContaining('values.2.nodeid: This reading id is used twice with different values') });
      const stored = (await call(t, adminA, 'GET', `/api/counters?equipmentnodeid=${machineA}`)).json<Counter[]>().find((c) => c.nodeid === counter.nodeid);
      expect(stored!.values).toEqual([]);

      const twice = await update(counter.nodeid, { values: [{ nodeid, reading: '10,5', timestamp }, { nodeid, reading: 10.5, timestamp }] });
      expect(twice.statusCode, twice.body).toBe(200);
      expect(counterSchema.parse(twice.json()).values).toEqual([{ nodeid, reading: 10.5, timestamp }]);
    });

    it('keeps every reading of two concurrent updates', async () => {
      const counter = await create({ values: [] });
      const fromTablet = (n: number) => Array.from({ length: 5 }, (_, i) => ({ nodeid: uuidv7(), reading: n * 100 + i, timestamp: Date.now() - (n * 10 + i) * 60_000 }));
      const [one, two] = await Promise.all([update(counter.nodeid, { values: fromTablet(1) }), update(counter.nodeid, { values: fromTablet(2) })]);
      expect(one.statusCode, one.body).toBe(200);
      expect(two.statusCode, two.body).toBe(200);
      const [after] = (await call(t, adminA, 'GET', `/api/counters?equipmentnodeid=${machineA}`)).json<Counter[]>().filter((c) => c.nodeid === counter.nodeid);
      expect(after!.values.map((v) => v.reading).sort((x, y) => x - y)).toEqual([100, 101, 102, 103, 104, 200, 201, 202, 203, 204]);
    });

    it('clamps a reading time from a device clock running ahead to the server now', async () => {
      const counter = await create({ values: [{ nodeid: uuidv7(), reading: 5, timestamp: Date.now() + 48 * HOUR }] });
      expect(counter.values[0]!.timestamp).toBeLessThanOrEqual(Date.now());
      expect(counter.values[0]!.timestamp).toBeGreaterThan(Date.now() - 60_000);
    });

    it('answers an update with the readings it sent as a later read has them: in time order, as stored; new readings share one new version, an update adding none takes none', async () => {
      const base = Date.now() - 10 * HOUR;
      const counter = await create({ values: [{ nodeid: uuidv7(), reading: 10, timestamp: base + 5 * HOUR }] });
      const tenantVersion = async () => (await t.database.db.select().from(tenantVersions).where(eq(tenantVersions.legalentitynodeid, a.legalEntity.nodeid)))[0]!.version;
      const before = await tenantVersion();
      // Out of time order, two at the same time (ordered by id then), a value of three decimals a JSON client computed
      // (10.1 + 20.023 = 30.122999999999998: binary noise, kept as the column's 30.123) and a keyless reading: the
      // answer must be what the database keeps, in the read's order.
      const sameTime = base + 2 * HOUR;
      const response = await update(counter.nodeid, {
        values: [
          { nodeid: uuidv7(), reading: 10.1 + 20.023, timestamp: base + 8 * HOUR },
          { nodeid: 'ffffffff-0000-7000-8000-000000000000', reading: 21, timestamp: sameTime },
          { nodeid: '00000000-0000-7000-8000-000000000000', reading: 20, timestamp: sameTime },
          { reading: 5, timestamp: base + HOUR },
        ],
      });
      expect(response.statusCode, response.body).toBe(200);
      const answered = counterWriteAnswerSchema.parse(response.json());
      const [read] = (await call(t, adminA, 'GET', `/api/counters?equipmentnodeid=${machineA}`)).json<Counter[]>().filter((c) => c.nodeid === counter.nodeid);
      // The counter as read, with the readings this update sent; the one stored before it is not in the answer.
      const sent = read!.values.filter((v) => v.reading !== 10);
      expect(answered).toEqual({ ...read, values: sent });
      expect(answered.values.map((v) => v.reading)).toEqual([5, 20, 21, 30.123]);
      const stored = await t.database.db.select().from(counterReadings).where(eq(counterReadings.counternodeid, counter.nodeid));
      const newVersions = new Set(stored.filter((r) => r.version > before).map((r) => r.version));
      expect(stored.filter((r) => r.version > before)).toHaveLength(4);
      expect([...newVersions]).toEqual([before + 1]);
      expect(await tenantVersion()).toBe(before + 1);

      // The same readings again (ids and the keyless one) add nothing, take no version, and answer as stored.
      const again = await update(counter.nodeid, { values: [{ reading: 5, timestamp: base + HOUR }, { ...sent[3]!, reading: 10.1 + 20.023 }] });
      expect(counterWriteAnswerSchema.parse(again.json())).toEqual({ ...read, values: [sent[0], sent[3]] });
      expect(await tenantVersion()).toBe(before + 1);
    });

    it('keeps type and name locked (§4.6): another value is a 409 naming the field, and nothing of the request is written', async () => {
      const counter = await create();
      const otherType = (await insertCounterType(t.database.db, { legalentitynodeid: a.legalEntity.nodeid })).nodeid;
      const readings = await readingCount(t.database.db);
      const retyped = await update(counter.nodeid, { counterTypeNodeId: otherType, previousCounterTypeNodeId: typeA, values: [{ nodeid: uuidv7(), reading: 2000 }] });
      expect(retyped.statusCode).toBe(409);
      expect(apiErrorSchema.parse(retyped.json()).details?.map((d) => d.field)).toEqual(['counterTypeNodeId']);
      const renamed = await update(counter.nodeid, { name: 'Anders' });
      expect(renamed.statusCode).toBe(409);
      expect(apiErrorSchema.parse(renamed.json()).details?.map((d) => d.field)).toEqual(['name']);
      expect(await readingCount(t.database.db)).toBe(readings);
      // Repeating them (the spec's full payload) is fine.
      const same = await update(counter.nodeid, { name: counter.name, counterTypeNodeId: typeA, previousCounterTypeNodeId: typeA });
      expect(same.statusCode, same.body).toBe(200);
      expect(same.json()).toMatchObject({ name: counter.name, hascountertype: { nodeid: typeA } });
    });

    it('deletes a counter with its readings, leaving tombstones, and takes the trigger from its tasks; the built-in type cannot be deleted', async () => {
      const counter = await create();
      const task = uuidv7();
      await t.database.db.insert(maintenanceTasks).values({ nodeid: task, legalentitynodeid: a.legalEntity.nodeid, maintenancetaskid: 'WA-0001', title: 'Öl wechseln', startingfrom: new Date(), repetitioninterval: '1m', triggertype: 'counter', triggeringcounternodeid: counter.nodeid, triggeringvalue: 500, equipmentnodeid: machineA });
      const deleted = await call(t, adminA, 'DELETE', `/api/counters/delete/${counter.nodeid}`);
      expect(deleted.statusCode).toBe(200);
      const { version } = deleted.json() as { version: number };
      const stones = await t.database.db.select().from(tombstones).where(eq(tombstones.version, version));
      expect(stones.map((s) => [s.kind, s.nodeid]).sort()).toEqual([['counter_readings', counter.values[0]!.nodeid], ['counters', counter.nodeid]].sort());
      // The task stays, without its trigger, at the delete's version: devices learn of the change.
      expect(await t.database.db.select({ trigger: maintenanceTasks.triggeringcounternodeid, version: maintenanceTasks.version }).from(maintenanceTasks).where(eq(maintenanceTasks.nodeid, task))).toEqual([{ trigger: null, version }]);
      expect((await call(t, adminA, 'DELETE', `/api/counters/delete/${counter.nodeid}`)).statusCode).toBe(404);

      const builtin = await create({ counterTypeNodeId: builtinTypeA });
      expect((await call(t, adminA, 'DELETE', `/api/counters/delete/${builtin.nodeid}`)).statusCode).toBe(409);
    });
    it("a deleted counter's reading id stays deleted: on another counter it is 410 naming the reading, and nothing is written", async () => {
      const gone = await create();
      const readingId = gone.values[0]!.nodeid;
      expect((await call(t, adminA, 'DELETE', `/api/counters/delete/${gone.nodeid}`)).statusCode).toBe(200);
      const other = await create({ values: [] });
      const [before] = await t.database.db.select({ version: tenantVersions.version }).from(tenantVersions).where(eq(tenantVersions.legalentitynodeid, a.legalEntity.nodeid));
      const readings = await readingCount(t.database.db);

      const refusals = [
        ['PUT', `/api/counters/update/${other.nodeid}`, { lang: 'de', values: [{ nodeid: uuidv7(), reading: 5 }, { nodeid: readingId, reading: 6 }] }, 'values.1.nodeid'],
        ['POST', '/api/counters/create', input({ values: [{ nodeid: readingId, reading: '7' }] }), 'values.0.nodeid'],
      ] as const;
      for (const [method, url, body, field] of refusals) {
        const response = await call(t, adminA, method, url, body);
        expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(410);
        expect(apiErrorSchema.parse(response.json())).toMatchObject({ message: `This id cannot be used: ${field} belongs to a deleted record`, details: [{ field }] });
      }
      expect(await readingCount(t.database.db)).toBe(readings);
      const [after] = await t.database.db.select({ version: tenantVersions.version }).from(tenantVersions).where(eq(tenantVersions.legalentitynodeid, a.legalEntity.nodeid));
      expect(after).toEqual(before);
      // Another tenant's deleted reading is nothing of this tenant's: its id may be used (docs/api.md § Conventions).
      const counterB = await postCreated(t, adminB, '/api/counters/create', { lang: 'de', name: 'Zähler B', counterTypeNodeId: typeB, equipmentNodeId: machineB, values: [{ nodeid: readingId, reading: '1' }] }, counterSchema);
      expect(counterB.values.map((value) => value.nodeid)).toEqual([readingId]);
    });
    it('deletes a counter with more readings than a statement takes parameters (70,000, years of hourly readings)', async () => {
      const counter = await create();
      const le = a.legalEntity.nodeid;
      await t.database.db.execute(sql`
        insert into counter_readings (nodeid, legalentitynodeid, counternodeid, value, takenat, createdbynodeid, version)
        select gen_random_uuid(), ${le}::uuid, ${counter.nodeid}::uuid, n, now() - n * interval '1 hour', null, 1
        from generate_series(1, 70000) as n`);
      const deleted = await call(t, adminA, 'DELETE', `/api/counters/delete/${counter.nodeid}`);
      expect(deleted.statusCode, deleted.body).toBe(200);
      const { version } = deleted.json() as { version: number };
      expect(await rowCount(t.database.db, counterReadings, eq(counterReadings.counternodeid, counter.nodeid))).toBe(0);
      expect(await rowCount(t.database.db, tombstones, and(eq(tombstones.legalentitynodeid, le), eq(tombstones.version, version), eq(tombstones.kind, 'counter_readings')))).toBe(70_001);
      expect(await rowCount(t.database.db, tombstones, and(eq(tombstones.legalentitynodeid, le), eq(tombstones.version, version), eq(tombstones.kind, 'counters')))).toBe(1);
    });
  });

  describe('a reading without a nodeid sent again (the old client sends its whole list; a plain REST retry)', () => {
    const tenantVersion = async () => (await t.database.db.select().from(tenantVersions).where(eq(tenantVersions.legalentitynodeid, a.legalEntity.nodeid)))[0]!.version;
    const stored = async (nodeid: string) => (await call(t, adminA, 'GET', `/api/counters?equipmentnodeid=${machineA}`)).json<Counter[]>().find((c) => c.nodeid === nodeid)!.values;
    const ok = async (nodeid: string, values: unknown[]) => {
      const response = await update(nodeid, { values });
      expect(response.statusCode, response.body).toBe(200);
      return counterWriteAnswerSchema.parse(response.json());
    };

    it('with a time ahead of the server (clamped to its now) is stored once: the resend adds nothing, takes no version and answers the stored reading', async () => {
      const counter = await create({ values: [] });
      const ahead = { reading: 8, timestamp: Date.now() + HOUR };
      const first = await ok(counter.nodeid, [ahead]);
      expect(first.values).toEqual([{ nodeid: expect.any(String), reading: 8, timestamp: expect.any(Number) }]);
      expect(first.values[0]!.timestamp).toBeLessThanOrEqual(Date.now());
      const version = await tenantVersion();
      await new Promise((resolve) => setTimeout(resolve, 5)); // another server "now" for the resend
      const again = await ok(counter.nodeid, [ahead]);
      expect(again.values).toEqual(first.values);
      expect(await tenantVersion()).toBe(version);
      expect(await stored(counter.nodeid)).toEqual(first.values);
    });

    it('with a time in the past is stored once (as before)', async () => {
      const counter = await create({ values: [] });
      const past = { reading: '7,5', timestamp: Date.now() - HOUR };
      const first = await ok(counter.nodeid, [past]);
      expect(first.values).toEqual([{ nodeid: expect.any(String), reading: 7.5, timestamp: past.timestamp }]);
      const version = await tenantVersion();
      expect((await ok(counter.nodeid, [{ ...past, reading: 7.5 }])).values).toEqual(first.values);
      expect(await tenantVersion()).toBe(version);
      expect(await stored(counter.nodeid)).toEqual(first.values);
    });

    it('with a time before 2000 (a clock never set, 1970) is stored at the server now, like a report; the resend of the time as sent adds nothing', async () => {
      const counter = await create({ values: [] });
      const before = Date.now();
      const first = await ok(counter.nodeid, [{ reading: 7, timestamp: 0 }]);
      expect(first.values).toEqual([{ nodeid: expect.any(String), reading: 7, timestamp: expect.any(Number) }]);
      expect(first.values[0]!.timestamp).toBeGreaterThanOrEqual(before);
      expect(first.values[0]!.timestamp).toBeLessThanOrEqual(Date.now());
      const version = await tenantVersion();
      await new Promise((resolve) => setTimeout(resolve, 5)); // another server "now" for the resend
      expect((await ok(counter.nodeid, [{ reading: 7, timestamp: 0 }])).values).toEqual(first.values);
      expect(await tenantVersion()).toBe(version);
      // With its own id too (the app's reading), and the last millisecond of 1999.
      const own = { nodeid: uuidv7(), reading: 9, timestamp: Date.UTC(2000, 0, 1) - 1 };
      const withId = await ok(counter.nodeid, [own]);
      expect(withId.values[0]!.timestamp).toBeGreaterThanOrEqual(before);
      // 01.01.2000 itself is a real time and kept.
      const y2k = await ok(counter.nodeid, [{ reading: 10, timestamp: Date.UTC(2000, 0, 1) }]);
      expect(y2k.values[0]!.timestamp).toBe(Date.UTC(2000, 0, 1));
      expect((await stored(counter.nodeid)).filter((v) => v.timestamp < Date.UTC(2000, 0, 1))).toEqual([]);
      expect(await stored(counter.nodeid)).toHaveLength(3);
    });

    it('without a time cannot be told from a new reading of the same value: stored at the server now each time (docs/api.md § Counters)', async () => {
      const counter = await create({ values: [] });
      await ok(counter.nodeid, [{ reading: 7 }]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await ok(counter.nodeid, [{ reading: 7 }]);
      expect((await stored(counter.nodeid)).map((v) => v.reading)).toEqual([7, 7]);
    });

    it("the probe's sequence: 7 without a time twice, 8 an hour ahead twice → three readings", async () => {
      const counter = await create({ values: [] });
      const ahead = Date.now() + HOUR;
      for (const values of [[{ reading: 7 }], [{ reading: 7 }], [{ reading: 8, timestamp: ahead }], [{ reading: 8, timestamp: ahead }]]) {
        await ok(counter.nodeid, values);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect((await stored(counter.nodeid)).map((v) => v.reading)).toEqual([7, 7, 8]);
    });

    it('twice in one request (same value and time sent, ahead or past) is one reading', async () => {
      const counter = await create({ values: [] });
      const ahead = Date.now() + 2 * HOUR;
      const past = Date.now() - 2 * HOUR;
      const answer = await ok(counter.nodeid, [
        { reading: 9, timestamp: ahead },
        { reading: '9,000', timestamp: ahead },
        { reading: 4, timestamp: past },
        { reading: 4, timestamp: past },
      ]);
      expect(answer.values.map((v) => v.reading)).toEqual([4, 9]);
      expect(await stored(counter.nodeid)).toEqual(answer.values);
    });

    it("the same reading on two counters is each counter's own: the id one derives never meets the other's", async () => {
      const one = await create({ values: [] });
      const two = await create({ values: [] });
      const reading = { reading: 12, timestamp: Date.now() + HOUR };
      const [first, second] = [await ok(one.nodeid, [reading]), await ok(two.nodeid, [reading])];
      expect(first.values[0]!.nodeid).not.toBe(second.values[0]!.nodeid);
      expect((await ok(one.nodeid, [reading])).values).toEqual(first.values);
      expect((await ok(two.nodeid, [reading])).values).toEqual(second.values);
      expect([(await stored(one.nodeid)).length, (await stored(two.nodeid)).length]).toEqual([1, 1]);
    });

    it("a create's keyless readings with a time ahead, sent again as an update or the same create, add nothing", async () => {
      const body = input({ values: [{ reading: 3, timestamp: Date.now() + HOUR }] });
      const made = await postCreated(t, adminA, '/api/counters/create', body, counterWriteAnswerSchema);
      const version = await tenantVersion();
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect((await ok(made.nodeid, body.values ?? [])).values).toEqual(made.values);
      expect(await tenantVersion()).toBe(version);
      const again = await call(t, adminA, 'POST', '/api/counters/create', body);
      expect(again.statusCode, again.body).toBe(201);
      expect(counterWriteAnswerSchema.parse(again.json()).values).toEqual(made.values);
      expect(await stored(made.nodeid)).toEqual(made.values);
    });
  });

  describe("a write's answer grows with the request, not with the counter's history", () => {
    const MANY = 20_000;
    let counter: Counter;
    const addMany = async (nodeid: string) =>
      t.database.db.execute(sql`
        insert into counter_readings (nodeid, legalentitynodeid, counternodeid, value, takenat, createdbynodeid, version)
        select gen_random_uuid(), ${a.legalEntity.nodeid}::uuid, ${nodeid}::uuid, n, now() - n * interval '1 hour', null, 1
        from generate_series(1, ${MANY}) as n`);

    beforeAll(async () => {
      counter = await create();
      await addMany(counter.nodeid);
    });

    it('an update of a counter with 20,000 readings answers the counter with the one reading it added (it answered all of them, megabytes)', async () => {
      const reading = { nodeid: uuidv7(), reading: 99_999, timestamp: Date.now() - 60_000 };
      const response = await update(counter.nodeid, { values: [reading] });
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      expect(response.body.length).toBeLessThan(2_000);
      const answered = counterWriteAnswerSchema.parse(response.json());
      expect(answered).toMatchObject({ nodeid: counter.nodeid, name: counter.name, hascountertype: { nodeid: typeA } });
      expect(answered.values).toEqual([reading]);
      // Nothing sent, nothing answered; the list stays whole for the reads.
      expect(counterWriteAnswerSchema.parse((await update(counter.nodeid, {})).json()).values).toEqual([]);
      const [listed] = (await call(t, adminA, 'GET', `/api/counters?equipmentnodeid=${machineA}`)).json<Counter[]>().filter((c) => c.nodeid === counter.nodeid);
      expect(listed!.values).toHaveLength(MANY + 2);
    });

    it('the same in the mutation log: the answer stored for a sync write is the small one, and its replay answers the same', async () => {
      const clientid = uuidv7();
      const headers = { 'x-client-id': clientid, 'x-mutation-id': '1' };
      const body = { lang: 'de', values: [{ nodeid: uuidv7(), reading: 100_000, timestamp: Date.now() - 30_000 }] };
      const first = await send(t, adminA, 'PUT', `/api/counters/update/${counter.nodeid}`, body, headers);
      expect(first.statusCode, first.body.slice(0, 300)).toBe(200);
      const [stored] = await t.database.db.select({ body: syncMutations.body }).from(syncMutations).where(eq(syncMutations.clientid, clientid));
      expect(JSON.stringify(stored!.body).length).toBeLessThan(2_000);
      const replay = await send(t, adminA, 'PUT', `/api/counters/update/${counter.nodeid}`, body, headers);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json()).toEqual(first.json());
    });

    it('a create sent again for a counter that has 20,000 readings answers it with the readings it sent', async () => {
      const body = input({ values: [{ nodeid: uuidv7(), reading: 7, timestamp: Date.now() - HOUR }] });
      const made = await postCreated(t, adminA, '/api/counters/create', body, counterWriteAnswerSchema);
      await addMany(made.nodeid);
      const again = await call(t, adminA, 'POST', '/api/counters/create', body);
      expect(again.statusCode, again.body.slice(0, 300)).toBe(201);
      expect(counterWriteAnswerSchema.parse(again.json())).toEqual(made);
    });

    it("a counter type's create sent again answers its first counter with the readings it sent", async () => {
      const body = { lang: 'de', nodeid: uuidv7(), name: `Takte ${uuidv7().slice(-6)}`, unit: 'C62', counter: { nodeid: uuidv7(), name: 'Takte', equipmentNodeId: machineA, values: [{ nodeid: uuidv7(), reading: 3, timestamp: Date.now() - HOUR }] } };
      const made = createCounterTypeResultSchema.parse((await call(t, adminA, 'POST', '/api/countertypes/create', body)).json());
      await addMany(made.counter!.nodeid);
      const again = await call(t, adminA, 'POST', '/api/countertypes/create', body);
      expect(again.statusCode, again.body.slice(0, 300)).toBe(201);
      expect(createCounterTypeResultSchema.parse(again.json())).toEqual(made);
    });
  });

  describe('counter types', () => {
    it('creates a type by unit code, with a first counter, and lists it', async () => {
      const response = await call(t, adminA, 'POST', '/api/countertypes/create', {
        lang: 'de',
        name: 'Energie',
        unit: 'kwh',
        counter: { name: 'Stromzähler', equipmentNodeId: machineA, values: [{ nodeid: uuidv7(), reading: '42,5', timestamp: Date.now() - HOUR }] },
      });
      expect(response.statusCode, response.body).toBe(201);
      const created = createCounterTypeResultSchema.parse(response.json());
      expect(created).toMatchObject({ name: 'Energie', unit: { unitid: 'KWH', name: 'Kilowattstunden' }, counter: { name: 'Stromzähler', values: [{ reading: 42.5 }] } });
      const listed = counterTypeSchema.array().parse((await call(t, adminA, 'GET', '/api/countertypes?lang=de')).json());
      expect(listed.map((ty) => ty.nodeid)).toContain(created.nodeid);
      expect(listed.map((ty) => ty.nodeid)).not.toContain(typeB);
    });

    it('answers 400 naming unit for an unknown unit, and writes nothing', async () => {
      const before = await counterCount(t.database.db);
      const response = await call(t, adminA, 'POST', '/api/countertypes/create', { lang: 'de', name: 'X', unit: 'parsec', counter: { name: 'Y', equipmentNodeId: machineA } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ details: [{ field: 'unit' }] });
      expect(await counterCount(t.database.db)).toBe(before);
    });
  });

  describe('validation', () => {
    it.each([
      ['name', undefined, 'name'],
      ['name', ' ', 'name'],
      ['counterTypeNodeId', 'x', 'counterTypeNodeId'],
      ['equipmentNodeId', undefined, 'equipmentNodeId'],
      ['values', [{ reading: '1,2.3', timestamp: 1 }], 'values.0.reading'],
      ['values', [{ reading: 'abc' }], 'values.0.reading'],
      ['values', [{ reading: '-5' }], 'values.0.reading'],
      ['values', [{ reading: '1e5' }], 'values.0.reading'],
      ['values', [{ reading: '12 h' }], 'values.0.reading'],
      ['values', [{ reading: -1 }], 'values.0.reading'],
      // numeric(18, 3) keeps three decimals: more would be stored as another value (1e-7 as 0), not refused.
      ['values', [{ reading: 1e-7 }], 'values.0.reading'],
      ['values', [{ reading: 30.12345 }], 'values.0.reading'],
      ['values', [{ reading: '0,0001' }], 'values.0.reading'],
      ['values', [{ reading: 1, timestamp: -1 }], 'values.0.timestamp'],
    ])('%s = %j answers 400 naming %s; nothing is written', async (field, value, named) => {
      const [counters0, readings0] = [await counterCount(t.database.db), await readingCount(t.database.db)];
      const body: Record<string, unknown> = { ...input() };
      if (value === undefined) delete body[field];
      else body[field] = value;
      const response = await call(t, adminA, 'POST', '/api/counters/create', body);
      expect(response.statusCode).toBe(400);
      expect(apiErrorSchema.parse(response.json()).details?.map((d) => d.field)).toEqual([named]);
      expect([await counterCount(t.database.db), await readingCount(t.database.db)]).toEqual([counters0, readings0]);
    });

    it('a reading above the maximum (1e15, as number or text) answers 400 naming the maximum, not the number form', async () => {
      const counter = await create({ values: [] });
      for (const reading of [1e15, '1000000000000000', ' 1000000000000000,5 ']) {
        const response = await update(counter.nodeid, { values: [{ nodeid: uuidv7(), reading, timestamp: Date.now() }] });
        expect(response.statusCode, String(reading)).toBe(400);
        expect(apiErrorSchema.parse(response.json()).details, String(reading)).toEqual([{ field: 'values.0.reading', message: 'Must be at most 999999999999999' }]);
      }
      // A text that is no reading at all keeps its message.
      expect(apiErrorSchema.parse((await update(counter.nodeid, { values: [{ reading: '-5' }] })).json()).details?.[0]?.message).toBe('Must be a non-negative number (digits, one comma or period)');
      expect(await rowCount(t.database.db, counterReadings, eq(counterReadings.counternodeid, counter.nodeid))).toBe(0);
    });

    it('an update whose nodeid differs from the path answers 400 and changes nothing', async () => {
      const counter = await create();
      const response = await update(counter.nodeid, { nodeid: uuidv7(), name: 'Anders', values: [{ nodeid: uuidv7(), reading: 1 }] });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ details: [{ field: 'nodeid' }] });
      const [after] = (await call(t, adminA, 'GET', `/api/counters?equipmentnodeid=${machineA}`)).json<Counter[]>().filter((c) => c.nodeid === counter.nodeid);
      expect(after).toMatchObject({ name: counter.name, values: counter.values });
    });

    it('an update with one bad reading stores none of its readings', async () => {
      const counter = await create();
      const before = await readingCount(t.database.db);
      const response = await update(counter.nodeid, { values: [{ nodeid: uuidv7(), reading: 7 }, { reading: '' }] });
      expect(response.statusCode).toBe(400);
      expect(await readingCount(t.database.db)).toBe(before);
    });
  });

  describe('tenant scope', () => {
    it("answers 404 for another tenant's machine, type or counter", async () => {
      const before = await counterCount(t.database.db);
      expect((await call(t, adminA, 'POST', '/api/counters/create', input({ equipmentNodeId: machineB }))).statusCode).toBe(404);
      expect((await call(t, adminA, 'POST', '/api/counters/create', input({ counterTypeNodeId: typeB }))).statusCode).toBe(404);
      expect(await counterCount(t.database.db)).toBe(before);
      const counter = await create();
      expect((await update(counter.nodeid, { name: 'Fremd', values: [{ reading: 1 }] }, adminB)).statusCode).toBe(404);
      expect((await call(t, adminB, 'DELETE', `/api/counters/delete/${counter.nodeid}`)).statusCode).toBe(404);
      expect((await call(t, adminB, 'GET', `/api/counters?equipmentnodeid=${machineA}`)).json()).toEqual([]);
    });
  });

  describe('permissions (feature key equipment.counter)', () => {
    itChecksEachFlag({
      tenant: () => ({ t, legalentitynodeid: a.legalEntity.nodeid }),
      feature: 'equipment.counter',
      routes: [
        { flag: 'create', name: 'POST /api/counters/create', request: () => ['POST', '/api/counters/create', input()], ok: 201 },
        { flag: 'create', name: 'POST /api/countertypes/create', request: () => ['POST', '/api/countertypes/create', { name: 'Typ', unit: 'h' }], ok: 201 },
        { flag: 'read', name: 'GET /api/counters', request: () => ['GET', '/api/counters'], ok: 200 },
        { flag: 'read', name: 'GET /api/countertypes', request: () => ['GET', '/api/countertypes'], ok: 200 },
        { flag: 'update', name: 'PUT /api/counters/update/{id}', request: (c) => ['PUT', `/api/counters/update/${c}`, { values: [{ nodeid: uuidv7(), reading: 9 }] }], ok: 200 },
        { flag: 'delete', name: 'DELETE /api/counters/delete/{id}', request: (c) => ['DELETE', `/api/counters/delete/${c}`], ok: 200 },
      ],
      subject: async () => (await create()).nodeid,
      state: async () => [await counterCount(t.database.db), await readingCount(t.database.db)],
    });
  });
});
