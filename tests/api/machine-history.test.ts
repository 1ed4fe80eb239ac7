import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../src/shared/api/errors';
import { historySchema } from '../../src/shared/api/history';
import type { NotificationStatus, NotificationType } from '../../src/shared/domain/notification';
import { insertNotification } from '../factories/notifications';
import { insertEquipment } from '../factories/structure';
import type { TestTenant } from '../factories/tenant';
import { itChecksEachFlag } from './support/permission-matrix';
import { call } from './support/requests';
import { createTwoTenantApp, type TestApp } from './support/test-app';

// GET /api/equipments/{id}/history: the machine's notifications through the shared history filter (the server's
// days are UTC, so the fixtures are UTC noon).
const utc = (year: number, month: number, day: number) => new Date(Date.UTC(year, month - 1, day, 12));

describe('machine history', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let adminA: string;
  let adminB: string;
  let machine: string;
  let quiet: string;
  let other: string;

  const get = (query = '', authorization = adminA, id = machine) => call(t, authorization, 'GET', `/api/equipments/${id}/history${query}`);
  const ids = async (query: string) => {
    const response = await get(query);
    expect(response.statusCode, response.body).toBe(200);
    return historySchema.parse(response.json()).entries.map((e) => e.title);
  };

  beforeAll(async () => {
    ({ t, a, b, adminA, adminB } = await createTwoTenantApp());
    const db = t.database.db;
    machine = (await insertEquipment(db, { legalentitynodeid: a.legalEntity.nodeid, name: 'BAZ 02', constructiondate: new Date(Date.UTC(2014, 0, 1)) })).nodeid;
    quiet = (await insertEquipment(db, { legalentitynodeid: a.legalEntity.nodeid, name: 'Neu', constructiondate: new Date(Date.UTC(2026, 0, 1)) })).nodeid;
    other = (await insertEquipment(db, { legalentitynodeid: b.legalEntity.nodeid })).nodeid;
    const legalentitynodeid = a.legalEntity.nodeid;
    const add = (title: string, type: NotificationType, status: NotificationStatus, created: Date) =>
      insertNotification(db, { legalentitynodeid, equipmentnodeid: machine, title, type, status, created, progressstarted: status > 0 ? created : null, closed: status === 2 ? created : null });
    await add('Reparatur 2024', 8, 2, utc(2024, 3, 5));
    await add('Wartung 2025', 6, 2, utc(2025, 1, 1));
    await add('Reparatur offen', 8, 1, utc(2025, 6, 15));
    await add('Auffälligkeit', 1, 0, utc(2026, 2, 10));
    await insertNotification(db, { legalentitynodeid: b.legalEntity.nodeid, equipmentnodeid: other, title: 'Fremd' });
  });
  afterAll(() => t?.close());

  it('answers every notification of the machine newest first, with the build year and the total', async () => {
    const response = await get();
    expect(response.statusCode).toBe(200);
    const body = historySchema.parse(response.json());
    expect(body).toMatchObject({ equipmentnodeid: machine, buildyear: 2014, total: 4 });
    expect(body.entries.map((e) => e.title)).toEqual(['Auffälligkeit', 'Reparatur offen', 'Wartung 2025', 'Reparatur 2024']);
    expect(body.entries[3]).toMatchObject({ type: 8, status: 2, created: utc(2024, 3, 5).getTime(), closed: utc(2024, 3, 5).getTime() });
    expect(body.entries[0]!.closed).toBe(0);
  });

  it.each([
    ['type', '?type=8', ['Reparatur offen', 'Reparatur 2024']],
    ['status', '?status=2', ['Wartung 2025', 'Reparatur 2024']],
    ['from', '?from=2025-01-01', ['Auffälligkeit', 'Reparatur offen', 'Wartung 2025']],
    ['to', '?to=2025-01-01', ['Wartung 2025', 'Reparatur 2024']],
    ['a date as the app shows it', '?to=01.01.2025', ['Wartung 2025', 'Reparatur 2024']],
    ['all combined', '?type=8&status=1&from=2025-01-01&to=2025-12-31', ['Reparatur offen']],
    ['nothing matches', '?type=9', []],
  ])('filters by %s', async (_label, query, expected) => {
    expect(await ids(query)).toEqual(expected);
  });

  it.each([
    ['a type the filter does not offer', '?type=3', 'type'],
    ['an unknown status', '?status=3', 'status'],
    ['an empty type', '?type=', 'type'],
    ['a two-digit year', '?from=05.03.25', 'from'],
    ['an impossible date', '?to=2025-02-30', 'to'],
  ])('refuses %s with 400 naming the field', async (_label, query, field) => {
    const response = await get(query);
    expect(response.statusCode).toBe(400);
    expect(JSON.stringify(response.json())).toContain(field);
  });

  it.each([
    ['both as YYYY-MM-DD', '?from=2026-01-01&to=2025-01-01'],
    ['as the app shows dates', '?from=02.01.2025&to=01.01.2025'],
    ['in the two spellings', '?from=2025-01-02&to=01.01.2025&type=8'],
  ])('refuses a start after the end (%s) with 400 naming to, as the tab marks its end date', async (_label, query) => {
    const response = await get(query);
    expect(response.statusCode, response.body).toBe(400);
    expect(apiErrorSchema.parse(response.json()).details).toEqual([{ field: 'to', message: 'Must not be before from' }]);
  });

  it('a range of one day (start = end) is that day', async () => {
    expect(await ids('?from=2025-01-01&to=01.01.2025')).toEqual(['Wartung 2025']);
  });

  it('a machine without notifications has an empty history', async () => {
    const body = historySchema.parse((await get('', adminA, quiet)).json());
    expect(body).toEqual({ equipmentnodeid: quiet, buildyear: 2026, total: 0, entries: [] });
  });

  it("another tenant's machine is a 404, and its notifications never show", async () => {
    expect((await get('', adminA, other)).statusCode).toBe(404);
    expect((await get('', adminB)).statusCode).toBe(404);
    expect((await get('', adminB, other)).json()).toMatchObject({ total: 1, entries: [{ title: 'Fremd' }] });
  });

  itChecksEachFlag({
    tenant: () => ({ t, legalentitynodeid: a.legalEntity.nodeid }),
    feature: 'notification',
    routes: [{ flag: 'read', name: 'GET /api/equipments/{id}/history', request: (id) => ['GET', `/api/equipments/${id}/history`], ok: 200 }],
    subject: async () => machine,
  });
});
