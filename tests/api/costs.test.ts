/**
 * Effort and costs (part 1 §2.2, §3, §5, §7) through their declarations createCost / updateCost and the reads
 * GET /costtypes and GET /units: every write is built from the declaration as the device queues it and goes
 * through the real route.
 */
import { eq } from 'drizzle-orm';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costTypeSchema, costUnitSchema, type CreateCostInput } from '../../src/shared/api/costs';
import { ACCESS_DENIED_MESSAGE, apiErrorSchema } from '../../src/shared/api/errors';
import { COST_TYPE_KEYS, type CostTypeKey } from '../../src/shared/domain/cost';
import { createCost, updateCost } from '../../src/shared/mutations/costs';
import { mutationPath, parseMutation } from '../../src/shared/mutations/mutation';
import { costRowSchema } from '../../src/shared/rows/costs';
import { costs, syncMutations } from '../../src/server/db/schema';
import { insertCostTypes, insertReport } from '../factories/costs';
import { insertNotification } from '../factories/notifications';
import { insertEquipment } from '../factories/structure';
import type { TestTenant } from '../factories/tenant';
import { rowCount, tenantVersion } from './support/db-queries';
import { allFlagsBut, userWithFlags } from './support/requests';
import { changeOf, pullChanges, send, sentTwice } from './support/structure';
import { createTwoTenantApp, type TestApp } from './support/test-app';

describe('costs (createCost, updateCost, GET /costtypes, GET /units)', () => {
  let t: TestApp;
  let a: TestTenant;
  let adminA: string;
  let adminB: string;
  let machine: string;
  let notification: string;
  let report: string;
  let typesA: Record<CostTypeKey, string>;
  let typesB: Record<CostTypeKey, string>;
  let notificationB: string;

  const createUrl = `/api/${mutationPath(createCost, {})}`;
  const costUrl = (id: string) => `/api/${mutationPath(updateCost, { id })}`;
  const body = (overrides: Partial<CreateCostInput> = {}): CreateCostInput => ({
    lang: 'de',
    nodeid: uuidv7(),
    name: 'Ersatzteile',
    value: 123.45,
    costTypeNodeId: typesA.parts,
    hasCostSourceNodeId: notification,
    specifier: 'actualcost',
    ...overrides,
  });
  const create = (authorization: string, payload: unknown, headers: Record<string, string> = {}) => send(t, authorization, createCost.method, createUrl, payload, headers);
  const made = async (payload: CreateCostInput = body()) => {
    const response = await create(adminA, payload);
    expect(response.statusCode, response.body).toBe(201);
    return costRowSchema.parse(response.json());
  };
  const version = () => tenantVersion(t.database.db, a.legalEntity.nodeid);

  beforeAll(async () => {
    let b: TestTenant;
    ({ t, a, b, adminA, adminB } = await createTwoTenantApp());
    const db = t.database.db;
    typesA = await insertCostTypes(db, a.legalEntity.nodeid);
    typesB = await insertCostTypes(db, b.legalEntity.nodeid);
    machine = (await insertEquipment(db, { legalentitynodeid: a.legalEntity.nodeid, hourlyrate: 85 })).nodeid;
    notification = (await insertNotification(db, { legalentitynodeid: a.legalEntity.nodeid, equipmentnodeid: machine })).nodeid;
    report = (await insertReport(db, { legalentitynodeid: a.legalEntity.nodeid, notificationnodeid: notification })).nodeid;
    notificationB = (await insertNotification(db, { legalentitynodeid: b.legalEntity.nodeid })).nodeid;
  });
  afterAll(() => t?.close());

  it('registers the routes of the declarations and the two reads', () => {
    for (const definition of [createCost, updateCost]) expect(t.app.hasRoute({ method: definition.method, url: `/api${definition.route}` })).toBe(true);
    expect(t.app.hasRoute({ method: 'GET', url: '/api/costtypes' })).toBe(true);
    expect(t.app.hasRoute({ method: 'GET', url: '/api/units' })).toBe(true);
  });

  it('GET /costtypes?lang: the tenant’s own types, in display order, names and unit in the language', async () => {
    const de = await send(t, adminA, 'GET', '/api/costtypes?lang=de');
    expect(de.statusCode, de.body).toBe(200);
    const types = costTypeSchema.array().parse(de.json());
    expect(types.map((type) => type.costtypeid)).toEqual([...COST_TYPE_KEYS]);
    expect(types.map((type) => type.nodeid)).toEqual(COST_TYPE_KEYS.map((key) => typesA[key]));
    expect(types[0]).toMatchObject({ name: 'Ersatzteile', unit: { unitid: 'EUR', unitId: 'EUR', name: 'Euro' } });
    expect(types[4]).toMatchObject({ name: 'Interne Personalstunden', unit: { unitid: 'HUR', name: 'Stunden' } });
    const en = costTypeSchema.array().parse((await send(t, adminA, 'GET', '/api/costtypes?lang=en')).json());
    expect(en[4]).toMatchObject({ name: 'Internal person hours', unit: { name: 'hours' } });
    expect(JSON.stringify(types)).not.toContain(typesB.parts);
    expect((await send(t, adminA, 'GET', '/api/costtypes?lang=fr')).statusCode).toBe(400);
  });

  it('GET /units: the units reference data with the spec’s unitId and displayName.plural', async () => {
    const response = await send(t, adminA, 'GET', '/api/units?lang=de');
    expect(response.statusCode, response.body).toBe(200);
    const units = costUnitSchema.array().parse(response.json());
    expect(units.find((unit) => unit.unitId === 'EUR')).toMatchObject({ namespace: 'ISO 4217', symbol: '€', displayName: { plural: { de: 'Euro', en: 'euros' } } });
    expect(units.find((unit) => unit.unitId === 'HUR')).toMatchObject({ symbol: 'h', name: 'Stunden' });
  });

  it('creates a cost on a notification: 201 with the row the declaration computes on the device, and it reaches the pull', async () => {
    const payload = body({ name: '  Lager 6204  ' });
    const row = await made(payload);
    const device = createCost.apply!(undefined, parseMutation(createCost, { params: {}, body: payload }), { now: Date.now(), usernodeid: a.admin.nodeid });
    expect(row).toMatchObject({ ...device, nodeid: payload.nodeid, name: 'Lager 6204', value: 123.45, notificationnodeid: notification, reportnodeid: null, maintenancetasknodeid: null, authornodeid: a.admin.nodeid });
    expect(changeOf(await pullChanges(t, adminA, 0), 'costs', payload.nodeid!).data).toMatchObject({ ...device, notificationnodeid: notification });
  });

  it('books on a report when the source is a report, planned costs included', async () => {
    const row = await made(body({ hasCostSourceNodeId: report, costTypeNodeId: typesA.internalhours, value: 2.5, specifier: 'plannedcost' }));
    expect(row).toMatchObject({ reportnodeid: report, notificationnodeid: null, specifier: 'plannedcost', value: 2.5 });
  });

  it('updates a cost, only the fields sent; the change reaches the pull; an update that changes nothing writes no version', async () => {
    const row = await made();
    const response = await send(t, adminA, 'PUT', costUrl(row.nodeid), { lang: 'de', nodeid: row.nodeid, value: 99.9, hasCostSourceNodeId: notification });
    expect(response.statusCode, response.body).toBe(200);
    const updated = costRowSchema.parse(response.json());
    expect(updated).toMatchObject({ value: 99.9, name: row.name, costtypenodeid: row.costtypenodeid });
    expect(updated.version).toBeGreaterThan(row.version);
    expect(changeOf(await pullChanges(t, adminA, row.version), 'costs', row.nodeid).data).toMatchObject({ value: 99.9 });
    const before = await version();
    expect((await send(t, adminA, 'PUT', costUrl(row.nodeid), { lang: 'de', value: 99.9 })).statusCode).toBe(200);
    expect(await version()).toBe(before);
  });

  it('refuses bad input with 400 naming the field, writing nothing', async () => {
    const before = await version();
    const cases: [unknown, string][] = [
      [{ ...body(), value: -1 }, 'value'],
      [{ ...body(), value: '12,5' }, 'value'],
      [{ ...body(), value: 1.005 }, 'value'],
      [{ ...body(), value: 1e12 }, 'value'],
      [{ ...body(), value: undefined }, 'value'],
      [{ ...body(), costTypeNodeId: 'nope' }, 'costTypeNodeId'],
      [{ ...body(), hasCostSourceNodeId: undefined }, 'hasCostSourceNodeId'],
      [{ ...body(), specifier: 'estimatedcost' }, 'specifier'],
      [{ ...body(), lang: 'fr' }, 'lang'],
      [{ ...body(), name: 'x'.repeat(201) }, 'name'],
    ];
    for (const [payload, field] of cases) {
      const response = await create(adminA, payload);
      expect(response.statusCode, `${field}: ${response.body}`).toBe(400);
      expect(apiErrorSchema.parse(response.json()).details?.map((detail) => detail.field)).toContain(field);
    }
    // JSON has no NaN or Infinity: they arrive as null and are refused the same way.
    expect((await send(t, adminA, 'POST', createUrl, JSON.stringify({ ...body(), value: Number.POSITIVE_INFINITY }), { 'content-type': 'application/json' })).statusCode).toBe(400);
    expect(await version()).toBe(before);

    const row = await made();
    const afterCreate = await version();
    expect((await send(t, adminA, 'PUT', costUrl(row.nodeid), { lang: 'de', nodeid: uuidv4(), value: 1 })).statusCode).toBe(400);
    expect((await send(t, adminA, 'PUT', costUrl(row.nodeid), { lang: 'de', value: -0.01 })).statusCode).toBe(400);
    expect((await send(t, adminA, 'PUT', costUrl('not-a-uuid'), { lang: 'de', value: 1 })).statusCode).toBe(400);
    expect(await version()).toBe(afterCreate);
  });

  it('refuses a source, cost type or cost that does not exist (404) and a cost moved to another source (409)', async () => {
    const row = await made();
    const before = await version();
    const missingSource = await create(adminA, body({ hasCostSourceNodeId: uuidv4() }));
    expect(missingSource.statusCode).toBe(404);
    expect(missingSource.json()).toMatchObject({ message: 'hasCostSourceNodeId: Cost source not found' });
    // A machine is no cost source.
    expect((await create(adminA, body({ hasCostSourceNodeId: machine }))).statusCode).toBe(404);
    const missingType = await create(adminA, body({ costTypeNodeId: uuidv4() }));
    expect(missingType.statusCode).toBe(404);
    expect(missingType.json()).toMatchObject({ message: 'costTypeNodeId: Cost type not found' });
    expect((await send(t, adminA, 'PUT', costUrl(uuidv4()), { lang: 'de', value: 1 })).statusCode).toBe(404);
    expect((await send(t, adminA, 'PUT', costUrl(row.nodeid), { lang: 'de', costTypeNodeId: uuidv4() })).statusCode).toBe(404);
    const moved = await send(t, adminA, 'PUT', costUrl(row.nodeid), { lang: 'de', value: 5, hasCostSourceNodeId: report });
    expect(moved.statusCode).toBe(409);
    expect(await version()).toBe(before);
  });

  it('answers 403 without the notification.cost flag each write needs, and for the cost types without read', async () => {
    const row = await made();
    const forCreate = await userWithFlags(t, a.legalEntity.nodeid, 'notification.cost', allFlagsBut('create'));
    const forUpdate = await userWithFlags(t, a.legalEntity.nodeid, 'notification.cost', allFlagsBut('update'));
    const forRead = await userWithFlags(t, a.legalEntity.nodeid, 'notification.cost', allFlagsBut('read'));
    const before = await version();
    const responses = [
      await create(forCreate.authorization, body()),
      await send(t, forUpdate.authorization, 'PUT', costUrl(row.nodeid), { lang: 'de', value: 1 }),
      await send(t, forRead.authorization, 'GET', '/api/costtypes?lang=de'),
    ];
    for (const response of responses) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ message: ACCESS_DENIED_MESSAGE });
    }
    expect(await version()).toBe(before);
    // …and each may do what its flags allow; units need no feature.
    expect((await send(t, forCreate.authorization, 'PUT', costUrl(row.nodeid), { lang: 'de', value: 7 })).statusCode).toBe(200);
    expect((await create(forUpdate.authorization, body())).statusCode).toBe(201);
    expect((await send(t, forRead.authorization, 'GET', '/api/units')).statusCode).toBe(200);
  });

  it('another tenant: its notification, cost type and cost are 404 to the caller, nothing changes, nothing leaks', async () => {
    const row = await made();
    const beforeA = await version();
    const responses = [
      await create(adminB, body({ costTypeNodeId: typesB.parts })),
      await create(adminA, body({ hasCostSourceNodeId: notificationB })),
      await create(adminA, body({ costTypeNodeId: typesB.parts })),
      await send(t, adminB, 'PUT', costUrl(row.nodeid), { lang: 'de', value: 1 }),
    ];
    for (const response of responses) {
      expect(response.statusCode, response.body).toBe(404);
      expect(response.body).not.toContain(row.nodeid);
    }
    expect(await version()).toBe(beforeA);
    const [stored] = await t.database.db.select().from(costs).where(eq(costs.nodeid, row.nodeid));
    expect(stored?.value).toBe(row.value);
    // A cost id of tenant A chosen again by tenant B's device is refused without saying whose it is.
    const taken = await create(adminB, body({ nodeid: row.nodeid, costTypeNodeId: typesB.parts, hasCostSourceNodeId: notificationB }));
    expect(taken.statusCode).toBe(409);
    expect(taken.body).not.toContain(notification);
  });

  it('with X-Client-Id/X-Mutation-Id each write is applied once; a resend answers the stored result', async () => {
    const clientid = uuidv4();
    const payload = body();
    await sentTwice(t, adminA, createCost.method, createUrl, payload, { clientid, status: 201, unchanged: version });
    expect(await rowCount(t.database.db, costs, eq(costs.nodeid, payload.nodeid!))).toBe(1);
    expect(await rowCount(t.database.db, syncMutations, eq(syncMutations.clientid, clientid))).toBe(1);
    await sentTwice(t, adminA, updateCost.method, costUrl(payload.nodeid!), { lang: 'de', value: 1.5 }, { status: 200, unchanged: version });
  });

  it('the same create sent again under a new mutation id answers the cost it made, without a second version; other content is 409', async () => {
    const payload = body();
    const first = await made(payload);
    const before = await version();
    const again = await create(adminA, payload);
    expect(again.statusCode).toBe(201);
    expect(costRowSchema.parse(again.json())).toEqual(first);
    expect((await create(adminA, { ...payload, value: 1 })).statusCode).toBe(409);
    expect(await version()).toBe(before);
  });
});
