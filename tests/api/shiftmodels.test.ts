import { and, eq } from 'drizzle-orm';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_DENIED_MESSAGE, apiErrorSchema } from '../../src/shared/api/errors';
import { shiftModelSchema } from '../../src/shared/api/shiftmodels';
import { shiftModelRowSchema } from '../../src/shared/rows/structure';
import { areas, equipment, recordHistory, shiftModels, shifts, tombstones } from '../../src/server/db/schema';
import { insertArea, insertEquipment } from '../factories/structure';
import type { TestTenant } from '../factories/tenant';
import { rowCount, tenantVersion } from './support/db-queries';
import { allFlagsBut, call, onlyFlag, postCreated, userWithFlags } from './support/requests';
import { changeOf, mutationHeaders, pullChanges, send, sentTwice } from './support/structure';
import { createTwoTenantApp, type TestApp } from './support/test-app';

const EARLY = { start: '06:00', end: '13:59', weekdays: [1, 2, 3, 4, 5], unmanned: false };
const NIGHT = { start: '22:00', end: '05:59', weekdays: [1, 2, 3, 4], unmanned: true };

describe('shift models', () => {
  let t: TestApp;
  let a: TestTenant;
  let adminA: string;
  let adminB: string;
  let b: TestTenant;

  const read = async (nodeid: string) => shiftModelSchema.parse((await call(t, adminA, 'GET', `/api/shiftmodels/${nodeid}`)).json());
  /** A write answers the plan's row, exactly (what the change feed sends); its rows in editor form come with GET. */
  const create = async (shiftmodelof: string, rows: unknown[]) => {
    const row = await postCreated(t, adminA, '/api/shiftmodels', { shiftmodelof, shifts: rows }, shiftModelRowSchema.strict());
    const model = await read(row.nodeid);
    expect(row).toEqual({ nodeid: model.nodeid, legalentitynodeid: a.legalEntity.nodeid, name: null, version: model.version });
    return model;
  };

  beforeAll(async () => {
    ({ t, a, b, adminA, adminB } = await createTwoTenantApp());
  });
  afterAll(() => t?.close());

  it('creates an area’s plan, answers its row, reads it in editor form and puts it in the change feed', async () => {
    const area = await insertArea(t.database.db, { legalentitynodeid: a.legalEntity.nodeid });
    const v0 = await tenantVersion(t.database.db, a.legalEntity.nodeid);
    const model = await create(area.nodeid, [EARLY, NIGHT]);
    expect(model).toMatchObject({ shiftmodelof: { type: 'area', nodeid: area.nodeid }, version: v0 + 1 });
    expect(model.shifts.map(({ nodeid: _n, ...s }) => s)).toEqual([
      { ...EARLY, endsnextday: false },
      { ...NIGHT, endsnextday: true },
    ]);
    const [row] = await t.database.db.select().from(areas).where(eq(areas.nodeid, area.nodeid));
    expect(row).toMatchObject({ shiftmodelnodeid: model.nodeid, version: v0 + 1 });
    const changes = await pullChanges(t, adminA, v0);
    expect(changeOf(changes, 'shiftmodels', model.nodeid).version).toBe(v0 + 1);
    expect(changeOf(changes, 'areas', area.nodeid).data).toMatchObject({ shiftmodelnodeid: model.nodeid });
    expect(changeOf(changes, 'shifts', model.shifts[1]!.nodeid).data).toMatchObject({ start: '22:00', end: '05:59', endsnextday: true, unmanned: true });
  });

  it('a machine’s own plan turns off "take settings from area"; a second plan replaces the first', async () => {
    const machine = await insertEquipment(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, useareashiftmodel: true });
    const first = await create(machine.nodeid, [EARLY]);
    const second = await create(machine.nodeid, [NIGHT]);
    const [row] = await t.database.db.select().from(equipment).where(eq(equipment.nodeid, machine.nodeid));
    expect(row).toMatchObject({ shiftmodelnodeid: second.nodeid, useareashiftmodel: false });
    expect(await rowCount(t.database.db, shiftModels, eq(shiftModels.nodeid, first.nodeid))).toBe(0);
    const stones = await t.database.db.select().from(tombstones).where(and(eq(tombstones.legalentitynodeid, a.legalEntity.nodeid), eq(tombstones.version, second.version)));
    expect(stones.map((s) => `${s.kind}:${s.nodeid}`).sort()).toEqual([`shift_models:${first.nodeid}`, `shifts:${first.shifts[0]!.nodeid}`].sort());
  });

  it('PUT replaces the rows, keeps rows sent with their id, deletes the others (tombstones, history)', async () => {
    const area = await insertArea(t.database.db, { legalentitynodeid: a.legalEntity.nodeid });
    const model = await create(area.nodeid, [EARLY, NIGHT]);
    const [early, night] = model.shifts;
    const response = await call(t, adminA, 'PUT', `/api/shiftmodels/${model.nodeid}`, { shiftnodeid: model.nodeid, shifts: [{ ...EARLY, nodeid: early!.nodeid, end: '14:29' }, { start: '14:30', end: '22:59', weekdays: [6] }] });
    expect(response.statusCode, response.body).toBe(200);
    const row = shiftModelRowSchema.strict().parse(response.json());
    const updated = await read(model.nodeid);
    expect(row.version).toBe(updated.version);
    expect(updated.shifts.map((s) => [s.nodeid === early!.nodeid, s.start, s.end])).toEqual([
      [true, '06:00', '14:29'],
      [false, '14:30', '22:59'],
    ]);
    expect(await rowCount(t.database.db, shifts, eq(shifts.nodeid, night!.nodeid))).toBe(0);
    expect(await rowCount(t.database.db, tombstones, and(eq(tombstones.kind, 'shifts'), eq(tombstones.nodeid, night!.nodeid)))).toBe(1);
    const [history] = await t.database.db.select().from(recordHistory).where(and(eq(recordHistory.nodeid, model.nodeid), eq(recordHistory.version, updated.version)));
    expect((history?.changes.shifts?.old as unknown[]).length).toBe(2);
  });

  it('DELETE leaves the owner without a plan', async () => {
    const area = await insertArea(t.database.db, { legalentitynodeid: a.legalEntity.nodeid });
    const model = await create(area.nodeid, [EARLY]);
    const response = await call(t, adminA, 'DELETE', `/api/shiftmodels/${model.nodeid}`, { shiftnodeid: model.nodeid });
    expect(response.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(areas).where(eq(areas.nodeid, area.nodeid));
    expect(row?.shiftmodelnodeid).toBeNull();
    expect((await call(t, adminA, 'GET', `/api/shiftmodels/${model.nodeid}`)).statusCode).toBe(404);
    const changes = await pullChanges(t, adminA, model.version);
    expect(changeOf(changes, 'shiftmodels', model.nodeid).deleted).toBe(true);
  });

  it.each([
    ['shifts.0.weekdays', [{ ...EARLY, weekdays: [] }]],
    ['shifts.0.start', [{ ...EARLY, start: '6 Uhr' }]],
    ['shifts.0.weekdays.0', [{ ...EARLY, weekdays: [8] }]],
    // start == end ends the same day (endsnextday false): a shift of 0 hours, an input mistake.
    ['shifts.1.end', [EARLY, { ...EARLY, start: '06:00', end: '06:00', weekdays: [2] }]],
    ['shifts.0.end', [{ ...EARLY, start: '23:15', end: ' 23:15' }]],
    // An end earlier in the start's hour ends the same day too: before the start.
    ['shifts.1.end', [EARLY, { ...EARLY, start: '06:30', end: '06:10', weekdays: [2] }]],
  ])('400 naming %s', async (field, rows) => {
    const area = await insertArea(t.database.db, { legalentitynodeid: a.legalEntity.nodeid });
    const before = await rowCount(t.database.db, shiftModels);
    const response = await call(t, adminA, 'POST', '/api/shiftmodels', { shiftmodelof: area.nodeid, shifts: rows });
    expect(response.statusCode).toBe(400);
    expect(apiErrorSchema.parse(response.json()).details?.map((d) => d.field)).toContain(field);
    expect(await rowCount(t.database.db, shiftModels)).toBe(before);
    const [row] = await t.database.db.select().from(areas).where(eq(areas.nodeid, area.nodeid));
    expect(row?.shiftmodelnodeid).toBeNull();
  });

  it('401 without a token; an area’s plan needs site update, a machine’s equipment update (403 Zugriff verwehrt!)', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/shiftmodels', payload: {} })).statusCode).toBe(401);
    const le = a.legalEntity.nodeid;
    const area = await insertArea(t.database.db, { legalentitynodeid: le });
    const machine = await insertEquipment(t.database.db, { legalentitynodeid: le });
    const noSiteUpdate = await userWithFlags(t, le, 'site', allFlagsBut('update'));
    const denied = await call(t, noSiteUpdate.authorization, 'POST', '/api/shiftmodels', { shiftmodelof: area.nodeid, shifts: [EARLY] });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ message: ACCESS_DENIED_MESSAGE });
    // the same user may plan a machine (equipment flags untouched)
    expect((await call(t, noSiteUpdate.authorization, 'POST', '/api/shiftmodels', { shiftmodelof: machine.nodeid, shifts: [EARLY] })).statusCode).toBe(201);
    const noEquipmentUpdate = await userWithFlags(t, le, 'equipment', allFlagsBut('update'));
    const model = await create(machine.nodeid, [EARLY]);
    expect((await call(t, noEquipmentUpdate.authorization, 'PUT', `/api/shiftmodels/${model.nodeid}`, { shifts: [NIGHT] })).statusCode).toBe(403);
    expect((await call(t, noEquipmentUpdate.authorization, 'DELETE', `/api/shiftmodels/${model.nodeid}`)).statusCode).toBe(403);
    const onlySiteUpdate = await userWithFlags(t, le, 'site', onlyFlag('update'));
    expect((await call(t, onlySiteUpdate.authorization, 'POST', '/api/shiftmodels', { shiftmodelof: area.nodeid, shifts: [EARLY] })).statusCode).toBe(201);
  });

  it('tenant scope: 404 for another tenant’s owner or plan', async () => {
    const area = await insertArea(t.database.db, { legalentitynodeid: a.legalEntity.nodeid });
    const model = await create(area.nodeid, [EARLY]);
    expect((await call(t, adminB, 'POST', '/api/shiftmodels', { shiftmodelof: area.nodeid, shifts: [EARLY] })).statusCode).toBe(404);
    expect((await call(t, adminB, 'PUT', `/api/shiftmodels/${model.nodeid}`, { shifts: [NIGHT] })).statusCode).toBe(404);
    expect((await call(t, adminB, 'DELETE', `/api/shiftmodels/${model.nodeid}`)).statusCode).toBe(404);
    expect((await call(t, adminB, 'GET', `/api/shiftmodels/${model.nodeid}`)).statusCode).toBe(404);
  });

  it('a row id that is another record’s — another tenant’s row, a row of another plan — is 409 naming the row, nothing written', async () => {
    const tenantB = b.legalEntity.nodeid;
    const areaB = await insertArea(t.database.db, { legalentitynodeid: tenantB });
    const planB = shiftModelRowSchema.parse((await call(t, adminB, 'POST', '/api/shiftmodels', { shiftmodelof: areaB.nodeid, shifts: [EARLY] })).json());
    const [rowB] = await t.database.db.select({ nodeid: shifts.nodeid }).from(shifts).where(eq(shifts.shiftmodelnodeid, planB.nodeid));
    const areaA = await insertArea(t.database.db, { legalentitynodeid: a.legalEntity.nodeid });
    const planA = await create(areaA.nodeid, [EARLY]);
    const otherPlanA = await create((await insertArea(t.database.db, { legalentitynodeid: a.legalEntity.nodeid })).nodeid, [NIGHT]);
    const versionA = await tenantVersion(t.database.db, a.legalEntity.nodeid);
    const versionB = await tenantVersion(t.database.db, tenantB);

    const refusals = [
      ['PUT', `/api/shiftmodels/${planA.nodeid}`, { shifts: [{ ...NIGHT, nodeid: rowB!.nodeid }] }, 'shifts.0.nodeid'],
      ['PUT', `/api/shiftmodels/${planA.nodeid}`, { shifts: [{ ...EARLY, nodeid: planA.shifts[0]!.nodeid }, { ...NIGHT, nodeid: otherPlanA.shifts[0]!.nodeid }] }, 'shifts.1.nodeid'],
      ['POST', '/api/shiftmodels', { shiftmodelof: areaA.nodeid, shifts: [{ ...NIGHT, nodeid: rowB!.nodeid }] }, 'shifts.0.nodeid'],
      ['POST', '/api/areas', { lang: 'de', name: 'Halle 9', sitenodeid: areaA.sitenodeid, shifts: [{ ...NIGHT, nodeid: rowB!.nodeid }] }, 'shifts.0.nodeid'],
    ] as const;
    for (const [method, url, body, field] of refusals) {
      const response = await call(t, adminA, method, url, body);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(409);
      expect(apiErrorSchema.parse(response.json())).toMatchObject({ message: `This id cannot be used: ${field} belongs to another record`, details: [{ field }] });
    }
    expect(await tenantVersion(t.database.db, a.legalEntity.nodeid)).toBe(versionA);
    expect(await tenantVersion(t.database.db, tenantB)).toBe(versionB);
    expect((await read(planA.nodeid)).shifts).toEqual(planA.shifts);

    // One id twice in one plan is two rows under one id: refused before anything is looked up (400).
    const twice = uuidv7();
    const response = await call(t, adminA, 'PUT', `/api/shiftmodels/${planA.nodeid}`, { shifts: [{ ...EARLY, nodeid: twice }, { ...NIGHT, nodeid: twice }] });
    expect(response.statusCode, response.body).toBe(400);
    expect(apiErrorSchema.parse(response.json()).details).toMatchObject([{ field: 'shifts' }]);
    expect((await read(planA.nodeid)).shifts).toEqual(planA.shifts);
  });

  it('a row id the tenant deleted is 410 naming the row, nothing written; a row removed by a PUT of the same plan may come back (last write wins)', async () => {
    const deletedPlan = await create((await insertArea(t.database.db, { legalentitynodeid: a.legalEntity.nodeid })).nodeid, [EARLY]);
    const deletedRow = deletedPlan.shifts[0]!.nodeid;
    expect((await call(t, adminA, 'DELETE', `/api/shiftmodels/${deletedPlan.nodeid}`)).statusCode).toBe(200);
    const areaA = await insertArea(t.database.db, { legalentitynodeid: a.legalEntity.nodeid });
    const plan = await create(areaA.nodeid, [EARLY, NIGHT]);
    const [early, night] = plan.shifts;
    const version = await tenantVersion(t.database.db, a.legalEntity.nodeid);

    const refusals = [
      ['POST', '/api/shiftmodels', { shiftmodelof: (await insertArea(t.database.db, { legalentitynodeid: a.legalEntity.nodeid })).nodeid, shifts: [{ ...NIGHT, nodeid: deletedRow }] }, 'shifts.0.nodeid'],
      ['POST', '/api/areas', { lang: 'de', name: 'Halle 10', sitenodeid: areaA.sitenodeid, shifts: [EARLY, { ...NIGHT, nodeid: deletedRow }] }, 'shifts.1.nodeid'],
      ['PUT', `/api/shiftmodels/${plan.nodeid}`, { shifts: [{ ...EARLY, nodeid: early!.nodeid }, { ...NIGHT, nodeid: deletedRow }] }, 'shifts.1.nodeid'],
    ] as const;
    for (const [method, url, body, field] of refusals) {
      const response = await call(t, adminA, method, url, body);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(410);
      expect(apiErrorSchema.parse(response.json())).toMatchObject({ message: `This id cannot be used: ${field} belongs to a deleted record`, details: [{ field }] });
    }
    expect(await tenantVersion(t.database.db, a.legalEntity.nodeid)).toBe(version);
    expect((await read(plan.nodeid)).shifts).toEqual(plan.shifts);

    // A device that read the plan before another user's PUT removed the night shift sends it again with its id:
    // it is this plan's own row, and the last write wins as for every field.
    expect((await call(t, adminA, 'PUT', `/api/shiftmodels/${plan.nodeid}`, { shifts: [{ ...EARLY, nodeid: early!.nodeid }] })).statusCode).toBe(200);
    const back = await call(t, adminA, 'PUT', `/api/shiftmodels/${plan.nodeid}`, { shifts: [{ ...EARLY, nodeid: early!.nodeid }, { ...NIGHT, nodeid: night!.nodeid }] });
    expect(back.statusCode, back.body).toBe(200);
    expect((await read(plan.nodeid)).shifts.map((row) => row.nodeid)).toEqual([early!.nodeid, night!.nodeid]);
    // That row is still this plan's alone: another plan cannot take it after it was removed.
    const removedAgain = await call(t, adminA, 'PUT', `/api/shiftmodels/${plan.nodeid}`, { shifts: [{ ...EARLY, nodeid: early!.nodeid }] });
    expect(removedAgain.statusCode).toBe(200);
    const elsewhere = await call(t, adminA, 'POST', '/api/shiftmodels', { shiftmodelof: (await insertArea(t.database.db, { legalentitynodeid: a.legalEntity.nodeid })).nodeid, shifts: [{ ...NIGHT, nodeid: night!.nodeid }] });
    expect(elsewhere.statusCode, elsewhere.body).toBe(410);
  });

  it('replays a create under the same mutation id; the same create again answers the plan', async () => {
    const area = await insertArea(t.database.db, { legalentitynodeid: a.legalEntity.nodeid });
    const clientid = uuidv4();
    const body = { nodeid: uuidv7(), shiftmodelof: area.nodeid, shifts: [EARLY] };
    const first = await sentTwice(t, adminA, 'POST', '/api/shiftmodels', body, { clientid, status: 201 });
    const again = await send(t, adminA, 'POST', '/api/shiftmodels', body, mutationHeaders(clientid, 2));
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await read(body.nodeid)).toMatchObject({ nodeid: body.nodeid, shifts: [{ start: '06:00' }] });
  });
});
