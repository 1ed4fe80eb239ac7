/**
 * A maintenance task's procedure is a workflow with steps (workflows.maintenancetasknodeid), like a notification's
 * solution. The pull sent every workflow and step to whoever reads solutions (`notification`,
 * `notification.workflow`), so a profile without `equipment.maintenancetask` read got the procedures of maintenance
 * tasks it may not see (found by a security probe). They are left out now, and the scope says so.
 */
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maintenanceTasks, workflowSteps, workflows } from '../../src/server/db/schema';
import { insertNotification } from '../factories/notifications';
import { insertEquipment } from '../factories/structure';
import type { TestTenant } from '../factories/tenant';
import { userWithFlags } from './support/requests';
import { pullChanges, send } from './support/structure';
import { createOneTenantApp, type TestApp } from './support/test-app';

describe('maintenance procedures in the pull', () => {
  let t: TestApp;
  let a: TestTenant;
  let adminA: string;
  const solution = uuidv7();
  const solutionStep = uuidv7();
  const procedure = uuidv7();
  const procedureStep = uuidv7();

  beforeAll(async () => {
    ({ t, a, adminA } = await createOneTenantApp());
    const db = t.database.db;
    const le = a.legalEntity.nodeid;
    const machine = (await insertEquipment(db, { legalentitynodeid: le })).nodeid;
    const notification = (await insertNotification(db, { legalentitynodeid: le, equipmentnodeid: machine })).nodeid;
    const task = uuidv7();
    await db.insert(maintenanceTasks).values({ nodeid: task, legalentitynodeid: le, maintenancetaskid: 'WA-0001', title: 'Öl wechseln', startingfrom: new Date(), repetitioninterval: '1m', equipmentnodeid: machine });
    const created = new Date();
    await db.insert(workflows).values([
      { nodeid: solution, legalentitynodeid: le, title: 'Lager getauscht', notificationnodeid: notification, created },
      { nodeid: procedure, legalentitynodeid: le, title: 'Ölwechsel', maintenancetasknodeid: task, created },
    ]);
    await db.insert(workflowSteps).values([
      { nodeid: solutionStep, legalentitynodeid: le, workflownodeid: solution, title: 'Lager', created },
      { nodeid: procedureStep, legalentitynodeid: le, workflownodeid: procedure, title: 'Öl ablassen', created },
    ]);
  });
  afterAll(() => t?.close());

  const seen = async (authorization: string) => {
    const changes = await pullChanges(t, authorization, 0);
    const ids = new Set(changes.filter((change) => change.kind === 'workflows' || change.kind === 'workflowsteps').map((change) => change.nodeid));
    return [solution, solutionStep, procedure, procedureStep].map((id) => ids.has(id));
  };
  const scopeOf = async (authorization: string) => (await send(t, authorization, 'GET', '/api/sync/pull?cursor=0', undefined, { 'x-client-id': uuidv7() })).json<{ scope: string }>().scope.split(',');

  it('who may not read maintenance tasks gets the solutions of notifications but not the procedures of tasks', async () => {
    const noTasks = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.maintenancetask', [false, false, false, false]);
    expect(await seen(noTasks.authorization)).toEqual([true, true, false, false]);
    expect(await scopeOf(noTasks.authorization)).toContain('workflows.maintenancetasks');
  });

  it('who may read them gets both', async () => {
    expect(await seen(adminA)).toEqual([true, true, true, true]);
    expect(await scopeOf(adminA)).not.toContain('workflows.maintenancetasks');
  });
});
