/**
 * The §4.6 counter modal's writes through their declarations (src/shared/mutations/counters.ts): every request is
 * built from the declaration (method, path, body) as the device queues it — a new type, its counter and a first
 * reading are three requests of one user action — and goes through the real route.
 */
import { eq } from 'drizzle-orm';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_DENIED_MESSAGE, apiErrorSchema } from '../../src/shared/api/errors';
import { counterSchema, createCounterTypeResultSchema, type Counter } from '../../src/shared/api/counters';
import { addCounterReading, createCounter, createCounterType, deleteCounter } from '../../src/shared/mutations/counters';
import { mutationPath, parseMutation, type AnyMutation } from '../../src/shared/mutations/mutation';
import { counterTypes, counters, syncMutations } from '../../src/server/db/schema';
import { UNIT_IDS } from '../../src/server/db/seed/reference-data';
import { insertCounterType } from '../factories/notifications';
import { insertEquipment } from '../factories/structure';
import type { TestTenant } from '../factories/tenant';
import { rowCount, tenantVersion } from './support/db-queries';
import { allFlagsBut, userWithFlags } from './support/requests';
import { changeOf, mutationHeaders, pullChanges, send, sentTwice } from './support/structure';
import { createTwoTenantApp, type TestApp } from './support/test-app';

describe('counter modal (createCounterType, createCounter, addCounterReading, deleteCounter)', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let adminA: string;
  let adminB: string;
  let machineA: string;
  let machineB: string;
  let typeA: string;
  let builtinA: string;

  const url = (definition: AnyMutation, params: Record<string, unknown> = {}) => `/api/${mutationPath(definition, params)}`;
  const typeBody = (overrides: Record<string, unknown> = {}) => ({ lang: 'de' as const, nodeid: uuidv7(), name: `Spindelstunden ${uuidv4().slice(0, 6)}`, unit: UNIT_IDS.hour, ...overrides });
  const counterBody = (overrides: Record<string, unknown> = {}) => ({ lang: 'de' as const, nodeid: uuidv7(), name: 'Spindel', counterTypeNodeId: typeA, equipmentNodeId: machineA, values: [], ...overrides });
  const readingBody = (counter: string, reading: number | string) => ({ lang: 'de', nodeid: counter, values: [{ nodeid: uuidv7(), reading, timestamp: Date.now() }] });
  const post = (authorization: string, definition: AnyMutation, body: unknown, headers: Record<string, string> = {}) => send(t, authorization, definition.method, url(definition), body, headers);
  const listed = async (machine: string): Promise<Counter[]> => counterSchema.array().parse((await send(t, adminA, 'GET', `/api/counters?lang=de&equipmentnodeid=${machine}`)).json());

  beforeAll(async () => {
    ({ t, a, b, adminA, adminB } = await createTwoTenantApp());
    machineA = (await insertEquipment(t.database.db, { legalentitynodeid: a.legalEntity.nodeid })).nodeid;
    machineB = (await insertEquipment(t.database.db, { legalentitynodeid: b.legalEntity.nodeid })).nodeid;
    typeA = (await insertCounterType(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, name: 'Hubzähler', unitnodeid: UNIT_IDS.piece })).nodeid;
    builtinA = (await insertCounterType(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, name: 'Betriebsstunden', builtin: true, unitnodeid: UNIT_IDS.hour })).nodeid;
  });
  afterAll(() => t?.close());

  it('the routes are the declarations (method, path, permission)', () => {
    for (const definition of [createCounter, createCounterType, deleteCounter]) {
      expect(t.app.hasRoute({ method: definition.method, url: `/api${definition.route}` }), definition.name).toBe(true);
      expect(definition.permission).toEqual({ feature: 'equipment.counter', flag: definition === deleteCounter ? 'delete' : 'create' });
    }
  });

  it('adds a counter of an existing type; the pulled row is what the declaration computes on the device', async () => {
    const body = counterBody();
    const response = await post(adminA, createCounter, body);
    expect(response.statusCode, response.body).toBe(201);
    expect(counterSchema.parse(response.json())).toMatchObject({ nodeid: body.nodeid, name: 'Spindel', hascountertype: { nodeid: typeA }, values: [] });
    const device = createCounter.apply!(undefined, parseMutation(createCounter, { params: {}, body }), { now: Date.now(), usernodeid: a.admin.nodeid });
    expect(changeOf(await pullChanges(t, adminA, 0), 'counters', body.nodeid).data).toMatchObject(device);
  });

  it('adds a counter of a NEW type as the device does: type, counter, first reading — each reaches the change feed', async () => {
    const cursor = await tenantVersion(t.database.db, a.legalEntity.nodeid);
    const type = typeBody();
    const typeResponse = await post(adminA, createCounterType, type);
    expect(typeResponse.statusCode, typeResponse.body).toBe(201);
    expect(createCounterTypeResultSchema.parse(typeResponse.json())).toMatchObject({ nodeid: type.nodeid, name: type.name, unit: { unitid: 'HUR', symbol: 'h' }, builtin: false, counter: null });
    const counter = counterBody({ counterTypeNodeId: type.nodeid, name: type.name });
    expect((await post(adminA, createCounter, counter)).statusCode).toBe(201);
    const reading = readingBody(counter.nodeid, '12,5');
    expect((await send(t, adminA, 'PUT', url(addCounterReading, { id: counter.nodeid }), reading)).statusCode).toBe(200);

    const changes = await pullChanges(t, adminA, cursor);
    const device = createCounterType.apply!(undefined, parseMutation(createCounterType, { params: {}, body: type }), { now: Date.now(), usernodeid: a.admin.nodeid });
    expect(changeOf(changes, 'countertypes', type.nodeid).data).toMatchObject(device);
    expect(changeOf(changes, 'counters', counter.nodeid).data).toMatchObject({ countertypenodeid: type.nodeid, equipmentnodeid: machineA });
    expect(changeOf(changes, 'counterreadings', reading.values[0]!.nodeid).data).toMatchObject({ counternodeid: counter.nodeid, value: 12.5 });
    // Another tenant's device never sees them.
    const foreign = await pullChanges(t, adminB, 0);
    expect(foreign.some((change) => change.nodeid === type.nodeid || change.nodeid === counter.nodeid)).toBe(false);
  });

  it('a resend under the same mutation id answers the stored result; under a new one (Erneut senden) it finds what it made', async () => {
    const clientid = uuidv4();
    const type = typeBody();
    await sentTwice(t, adminA, 'POST', url(createCounterType), type, { clientid, status: 201, unchanged: () => rowCount(t.database.db, counterTypes) });
    expect(await rowCount(t.database.db, syncMutations, eq(syncMutations.clientid, clientid))).toBe(1);
    const counter = counterBody({ counterTypeNodeId: type.nodeid });
    const first = await post(adminA, createCounter, counter, mutationHeaders(clientid, 2));
    expect(first.statusCode, first.body).toBe(201);

    const [types, counts] = [await rowCount(t.database.db, counterTypes), await rowCount(t.database.db, counters)];
    const again = await post(adminA, createCounterType, type, mutationHeaders(clientid, 3));
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toMatchObject({ nodeid: type.nodeid, name: type.name });
    const counterAgain = await post(adminA, createCounter, counter, mutationHeaders(clientid, 4));
    expect(counterAgain.statusCode, counterAgain.body).toBe(201);
    expect(counterAgain.json()).toMatchObject({ nodeid: counter.nodeid });
    expect([await rowCount(t.database.db, counterTypes), await rowCount(t.database.db, counters)]).toEqual([types, counts]);
  });

  it('an id that is another record’s is refused (409), and a deleted counter stays deleted (410)', async () => {
    const counter = counterBody();
    expect((await post(adminA, createCounter, counter)).statusCode).toBe(201);
    const otherMachine = (await insertEquipment(t.database.db, { legalentitynodeid: a.legalEntity.nodeid })).nodeid;
    const clash = await post(adminA, createCounter, { ...counter, equipmentNodeId: otherMachine });
    expect(clash.statusCode).toBe(409);
    expect(apiErrorSchema.parse(clash.json()).details?.map((d) => d.field)).toEqual(['nodeid']);
    // Tenant B using tenant A's counter id on its own machine and type.
    const typeB = (await insertCounterType(t.database.db, { legalentitynodeid: b.legalEntity.nodeid })).nodeid;
    expect((await send(t, adminB, 'POST', url(createCounter), { ...counter, equipmentNodeId: machineB, counterTypeNodeId: typeB })).statusCode).toBe(409);

    expect((await send(t, adminA, 'DELETE', url(deleteCounter, { id: counter.nodeid }), { nodeid: counter.nodeid })).statusCode).toBe(200);
    const revived = await post(adminA, createCounter, counter);
    expect(revived.statusCode).toBe(410);
    expect((await listed(machineA)).map((c) => c.nodeid)).not.toContain(counter.nodeid);
  });

  describe('a create of an existing counter is only the same create again', () => {
    const readingsOf = async (counter: string) => (await listed(machineA)).find((c) => c.nodeid === counter)?.values.map((v) => v.reading);

    it('sent again with the same content (a retry after a lost answer, plain or under a new mutation id) answers the counter and its readings, adding nothing', async () => {
      const body = counterBody({ values: [{ nodeid: uuidv7(), reading: 12, timestamp: Date.now() - 60_000 }, { reading: 13, timestamp: Date.now() - 30_000 }] });
      const first = await post(adminA, createCounter, body);
      expect(first.statusCode, first.body).toBe(201);
      const clientid = uuidv4();
      for (const headers of [{}, mutationHeaders(clientid, 1)]) {
        const again = await post(adminA, createCounter, body, headers);
        expect(again.statusCode, again.body).toBe(201);
        expect(again.json()).toEqual(first.json());
      }
      // A user who may create counters but not update them resends the same create: answered the same.
      const creator = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.counter', allFlagsBut('update'));
      const byCreator = await post(creator.authorization, createCounter, body);
      expect(byCreator.statusCode, byCreator.body).toBe(201);
      expect(byCreator.json()).toEqual(first.json());
      expect(await readingsOf(body.nodeid)).toEqual([12, 13]);
    });

    it('with another name it is another record: 409 naming nodeid, nothing written (it merged its readings into the counter)', async () => {
      const body = counterBody({ values: [{ nodeid: uuidv7(), reading: 12, timestamp: Date.now() - 60_000 }] });
      expect((await post(adminA, createCounter, body)).statusCode).toBe(201);
      const cursor = await tenantVersion(t.database.db, a.legalEntity.nodeid);
      const renamed = await post(adminA, createCounter, { ...body, name: 'Anderer Zähler', values: [{ nodeid: uuidv7(), reading: 13, timestamp: Date.now() }] });
      expect(renamed.statusCode, renamed.body).toBe(409);
      expect(apiErrorSchema.parse(renamed.json()).details?.map((d) => d.field)).toEqual(['nodeid']);
      expect(await readingsOf(body.nodeid)).toEqual([12]);
      expect((await listed(machineA)).find((c) => c.nodeid === body.nodeid)?.name).toBe('Spindel');
      expect(await tenantVersion(t.database.db, a.legalEntity.nodeid)).toBe(cursor);
    });

    it('with readings not stored yet it adds them only for a user who may update counters: 403 without, nothing written', async () => {
      const body = counterBody({ values: [{ nodeid: uuidv7(), reading: 12, timestamp: Date.now() - 60_000 }] });
      expect((await post(adminA, createCounter, body)).statusCode).toBe(201);
      const more = { ...body, values: [...body.values, { nodeid: uuidv7(), reading: 13, timestamp: Date.now() - 30_000 }] };
      const creator = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.counter', allFlagsBut('update'));
      const cursor = await tenantVersion(t.database.db, a.legalEntity.nodeid);
      for (const headers of [{}, mutationHeaders(uuidv4(), 1)]) {
        const refused = await post(creator.authorization, createCounter, more, headers);
        expect(refused.statusCode, refused.body).toBe(403);
        expect(apiErrorSchema.parse(refused.json()).message).toMatch(/update counters/);
      }
      // The same through a new counter type's first counter.
      const typeCreate = await post(creator.authorization, createCounterType, typeBody({ counter: { nodeid: body.nodeid, name: body.name, equipmentNodeId: machineA, values: more.values } }));
      expect(typeCreate.statusCode, typeCreate.body).toBe(409);
      expect(await readingsOf(body.nodeid)).toEqual([12]);
      expect(await tenantVersion(t.database.db, a.legalEntity.nodeid)).toBe(cursor);

      const updater = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.counter', [true, true, true, false]);
      const merged = await post(updater.authorization, createCounter, more);
      expect(merged.statusCode, merged.body).toBe(201);
      expect(counterSchema.parse(merged.json()).values.map((v) => v.reading)).toEqual([12, 13]);
      expect(await readingsOf(body.nodeid)).toEqual([12, 13]);
    });
  });

  it('deletes a counter with its readings; the tombstones reach the change feed; the built-in type is refused', async () => {
    const counter = counterBody();
    await post(adminA, createCounter, counter);
    const reading = readingBody(counter.nodeid, 5);
    await send(t, adminA, 'PUT', url(addCounterReading, { id: counter.nodeid }), reading);
    const cursor = await tenantVersion(t.database.db, a.legalEntity.nodeid);
    const deleted = await send(t, adminA, deleteCounter.method, url(deleteCounter, { id: counter.nodeid }), { nodeid: counter.nodeid });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const changes = await pullChanges(t, adminA, cursor);
    expect(changeOf(changes, 'counters', counter.nodeid).deleted).toBe(true);
    expect(changeOf(changes, 'counterreadings', reading.values[0]!.nodeid).deleted).toBe(true);

    const hours = counterBody({ counterTypeNodeId: builtinA, name: 'Betriebsstunden' });
    await post(adminA, createCounter, hours);
    const refused = await send(t, adminA, 'DELETE', url(deleteCounter, { id: hours.nodeid }));
    expect(refused.statusCode).toBe(409);
    expect((await listed(machineA)).map((c) => c.nodeid)).toContain(hours.nodeid);
  });

  it('a delete whose body names another counter answers 400 and deletes nothing', async () => {
    const counter = counterBody();
    await post(adminA, createCounter, counter);
    const response = await send(t, adminA, 'DELETE', url(deleteCounter, { id: counter.nodeid }), { nodeid: uuidv7() });
    expect(response.statusCode).toBe(400);
    expect((await listed(machineA)).map((c) => c.nodeid)).toContain(counter.nodeid);
  });

  it('edit keeps type and name locked: another value is a 409 naming the field', async () => {
    const counter = counterBody();
    await post(adminA, createCounter, counter);
    const response = await send(t, adminA, 'PUT', `/api/counters/update/${counter.nodeid}`, { lang: 'de', name: 'Umbenannt', counterTypeNodeId: builtinA, previousCounterTypeNodeId: typeA });
    expect(response.statusCode).toBe(409);
    expect(apiErrorSchema.parse(response.json()).details?.map((d) => d.field)).toEqual(['name', 'counterTypeNodeId']);
    expect((await listed(machineA)).find((c) => c.nodeid === counter.nodeid)).toMatchObject({ name: 'Spindel', hascountertype: { nodeid: typeA } });
  });

  it("answers 404 for another tenant's machine, type or counter, writing nothing", async () => {
    const before = await rowCount(t.database.db, counters);
    expect((await post(adminB, createCounter, counterBody({ counterTypeNodeId: typeA, equipmentNodeId: machineB }))).statusCode).toBe(404);
    const counter = counterBody();
    await post(adminA, createCounter, counter);
    expect((await send(t, adminB, 'DELETE', url(deleteCounter, { id: counter.nodeid }))).statusCode).toBe(404);
    expect((await send(t, adminB, 'PUT', url(addCounterReading, { id: counter.nodeid }), readingBody(counter.nodeid, 1))).statusCode).toBe(404);
    expect(await rowCount(t.database.db, counters)).toBe(before + 1);
  });

  it.each([
    { flag: 'create', name: createCounter.name, definition: createCounter as AnyMutation, body: () => counterBody() },
    { flag: 'create', name: createCounterType.name, definition: createCounterType as AnyMutation, body: () => typeBody() },
  ] as const)('answers 403 without the equipment.counter $flag flag ($name)', async ({ flag, definition, body }) => {
    const { authorization } = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.counter', allFlagsBut(flag));
    const [types, counts] = [await rowCount(t.database.db, counterTypes), await rowCount(t.database.db, counters)];
    const response = await post(authorization, definition, body());
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ message: ACCESS_DENIED_MESSAGE });
    expect([await rowCount(t.database.db, counterTypes), await rowCount(t.database.db, counters)]).toEqual([types, counts]);
  });

  it('answers 403 to a delete without the delete flag', async () => {
    const counter = counterBody();
    await post(adminA, createCounter, counter);
    const { authorization } = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.counter', allFlagsBut('delete'));
    expect((await send(t, authorization, 'DELETE', url(deleteCounter, { id: counter.nodeid }))).statusCode).toBe(403);
    expect((await listed(machineA)).map((c) => c.nodeid)).toContain(counter.nodeid);
  });
});
