/**
 * A cost hangs on a notification, a report or a maintenance task. Like every create (docs/security.md: "a create,
 * read of what it hangs on"), booking a cost needs read of the record it is booked on: the route's own reads
 * (`readsNeeded`: `notification`) cover a notification, not a report (`notification.report`) nor a maintenance task
 * (`equipment.maintenancetask`). Found by a security probe: a profile without read of reports or maintenance tasks
 * booked costs on them (201, a row on a record it may not see).
 */
import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCost } from '../../src/shared/mutations/costs';
import { mutationPath } from '../../src/shared/mutations/mutation';
import { costs, maintenanceTasks } from '../../src/server/db/schema';
import { insertCostTypes, insertReport } from '../factories/costs';
import { insertNotification } from '../factories/notifications';
import { insertEquipment } from '../factories/structure';
import type { TestTenant } from '../factories/tenant';
import { tenantVersion } from './support/db-queries';
import { userWithFlags } from './support/requests';
import { pullChanges, send } from './support/structure';
import { createOneTenantApp, type TestApp } from './support/test-app';

describe('a cost needs read of the record it is booked on', () => {
  let t: TestApp;
  let a: TestTenant;
  let adminA: string;
  let notification: string;
  let report: string;
  let task: string;
  let parts: string;

  const createUrl = `/api/${mutationPath(createCost, {})}`;
  const body = (source: string) => ({ lang: 'de', nodeid: uuidv7(), name: 'Ersatzteile', value: 12.5, costTypeNodeId: parts, hasCostSourceNodeId: source, specifier: 'actualcost' });

  beforeAll(async () => {
    ({ t, a, adminA } = await createOneTenantApp());
    const db = t.database.db;
    const le = a.legalEntity.nodeid;
    parts = (await insertCostTypes(db, le)).parts;
    const machine = (await insertEquipment(db, { legalentitynodeid: le })).nodeid;
    notification = (await insertNotification(db, { legalentitynodeid: le, equipmentnodeid: machine })).nodeid;
    report = (await insertReport(db, { legalentitynodeid: le, notificationnodeid: notification })).nodeid;
    task = uuidv7();
    await db.insert(maintenanceTasks).values({ nodeid: task, legalentitynodeid: le, maintenancetaskid: 'WA-0001', title: 'Öl wechseln', startingfrom: new Date(), repetitioninterval: '1m', equipmentnodeid: machine });
  });
  afterAll(() => t?.close());

  it('who may not read reports books no cost on a report; who may not read maintenance tasks none on a task; nothing is written', async () => {
    const noReports = await userWithFlags(t, a.legalEntity.nodeid, 'notification.report', [false, false, false, false]);
    const noTasks = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.maintenancetask', [false, false, false, false]);
    const before = await tenantVersion(t.database.db, a.legalEntity.nodeid);
    for (const [user, source] of [
      [noReports, report],
      [noTasks, task],
    ] as const) {
      const payload = body(source);
      const response = await send(t, user.authorization, 'POST', createUrl, payload);
      expect(response.statusCode, response.body).toBe(403);
      expect(await t.database.db.select().from(costs).where(eq(costs.nodeid, payload.nodeid))).toEqual([]);
    }
    expect(await tenantVersion(t.database.db, a.legalEntity.nodeid)).toBe(before);
  });

  it('nor change a cost booked there: 403, the cost unchanged', async () => {
    const noReports = await userWithFlags(t, a.legalEntity.nodeid, 'notification.report', [false, false, false, false]);
    const noTasks = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.maintenancetask', [false, false, false, false]);
    for (const [user, source] of [
      [noReports, report],
      [noTasks, task],
    ] as const) {
      const payload = body(source);
      expect((await send(t, adminA, 'POST', createUrl, payload)).statusCode).toBe(201);
      const response = await send(t, user.authorization, 'PUT', `/api/costs/update/${payload.nodeid}`, { lang: 'de', value: 99 });
      expect(response.statusCode, response.body).toBe(403);
      expect((await t.database.db.select({ value: costs.value }).from(costs).where(eq(costs.nodeid, payload.nodeid)))[0]?.value).toBe(12.5);
      const own = body(notification);
      expect((await send(t, adminA, 'POST', createUrl, own)).statusCode).toBe(201);
      expect((await send(t, user.authorization, 'PUT', `/api/costs/update/${own.nodeid}`, { lang: 'de', value: 99 })).statusCode).toBe(200);
    }
  });

  it('the pull withholds the costs booked on reports or maintenance tasks from who may not read those, and says so in its scope', async () => {
    const noReports = await userWithFlags(t, a.legalEntity.nodeid, 'notification.report', [false, false, false, false]);
    const noTasks = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.maintenancetask', [false, false, false, false]);
    const onNotification = body(notification);
    const onReport = body(report);
    const onTask = body(task);
    for (const payload of [onNotification, onReport, onTask]) expect((await send(t, adminA, 'POST', createUrl, payload)).statusCode).toBe(201);
    const costIds = async (authorization: string) => new Set((await pullChanges(t, authorization, 0)).filter((change) => change.kind === 'costs').map((change) => change.nodeid));
    const seenWithoutReports = await costIds(noReports.authorization);
    expect([onNotification, onReport, onTask].map((p) => seenWithoutReports.has(p.nodeid))).toEqual([true, false, true]);
    const seenWithoutTasks = await costIds(noTasks.authorization);
    expect([onNotification, onReport, onTask].map((p) => seenWithoutTasks.has(p.nodeid))).toEqual([true, true, false]);
    const seenByAdmin = await costIds(adminA);
    expect([onNotification, onReport, onTask].map((p) => seenByAdmin.has(p.nodeid))).toEqual([true, true, true]);
    const scopeOf = async (authorization: string) => (await send(t, authorization, 'GET', '/api/sync/pull?cursor=0', undefined, { 'x-client-id': uuidv7() })).json<{ scope: string }>().scope.split(',');
    expect(await scopeOf(noReports.authorization)).toContain('costs.reports');
    expect(await scopeOf(noTasks.authorization)).toContain('costs.maintenancetasks');
    expect(await scopeOf(adminA)).not.toContain('costs.reports');
  });

  it('the same users still book costs on what they may read; the admin on all three', async () => {
    const noReports = await userWithFlags(t, a.legalEntity.nodeid, 'notification.report', [false, false, false, false]);
    const noTasks = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.maintenancetask', [false, false, false, false]);
    for (const [authorization, source] of [
      [noReports.authorization, notification],
      [noReports.authorization, task],
      [noTasks.authorization, notification],
      [noTasks.authorization, report],
      [adminA, notification],
      [adminA, report],
      [adminA, task],
    ] as const) {
      const response = await send(t, authorization, 'POST', createUrl, body(source));
      expect(response.statusCode, response.body).toBe(201);
    }
  });
});
