/**
 * A maintenance task's procedure is a workflow with steps (workflows.maintenancetasknodeid), like a notification's
 * solution. The pull sent every workflow and step to whoever reads solutions (`notification`,
 * `notification.workflow`), so a profile without `equipment.maintenancetask` read got the procedures of maintenance
 * tasks it may not see (found by a security probe). They are left out now, and the scope says so.
 */
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachments, maintenanceTasks, workflowSteps, workflows } from '../../src/server/db/schema';
import { insertFile } from '../factories/files';
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
  const solutionPhoto = uuidv7();
  const procedurePhoto = uuidv7();
  let solutionFile: { nodeid: string; fileid: string };
  let procedureFile: { nodeid: string; fileid: string };

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
    solutionFile = await insertFile(db, { legalentitynodeid: le, status: 'complete', createdbynodeid: a.admin.nodeid });
    procedureFile = await insertFile(db, { legalentitynodeid: le, status: 'complete', createdbynodeid: a.admin.nodeid });
    await db.insert(attachments).values([
      { nodeid: solutionPhoto, legalentitynodeid: le, title: 'Lager', filenodeid: solutionFile.nodeid, isattachmentof: solutionStep, targetkind: 'workflowstep' },
      { nodeid: procedurePhoto, legalentitynodeid: le, title: 'Ölablass', filenodeid: procedureFile.nodeid, isattachmentof: procedureStep, targetkind: 'workflowstep' },
    ]);
  });
  afterAll(() => t?.close());

  const seen = async (authorization: string) => {
    const changes = await pullChanges(t, authorization, 0);
    const ids = new Set(changes.filter((change) => ['workflows', 'workflowsteps', 'attachments'].includes(change.kind)).map((change) => change.nodeid));
    return [solution, solutionStep, solutionPhoto, procedure, procedureStep, procedurePhoto].map((id) => ids.has(id));
  };
  const scopeOf = async (authorization: string) => (await send(t, authorization, 'GET', '/api/sync/pull?cursor=0', undefined, { 'x-client-id': uuidv7() })).json<{ scope: string }>().scope.split(',');

  it('who may not read maintenance tasks gets the solutions of notifications but not the procedures of tasks', async () => {
    const noTasks = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.maintenancetask', [false, false, false, false]);
    expect(await seen(noTasks.authorization)).toEqual([true, true, true, false, false, false]);
    expect(await scopeOf(noTasks.authorization)).toContain('workflows.maintenancetasks');
  });

  it('nor the attachments of a procedure’s steps: no read, download, change, delete or new one (403); a solution’s step’s are theirs', async () => {
    const noTasks = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.maintenancetask', [false, false, false, false]);
    const status = async (method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, payload?: unknown) => (await send(t, noTasks.authorization, method, url, payload)).statusCode;
    expect(await status('GET', `/api/attachments/${procedurePhoto}`)).toBe(403);
    expect(await status('GET', `/api/files/${procedureFile.nodeid}/download`)).toBe(403);
    expect(await status('PUT', `/api/attachments/${procedurePhoto}`, { lang: 'de', title: 'Umbenannt' })).toBe(403);
    expect(await status('DELETE', `/api/attachments/${procedurePhoto}`)).toBe(403);
    const own = await insertFile(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, status: 'complete', createdbynodeid: noTasks.usernodeid });
    const attach = (step: string) => status('POST', '/api/attachments', { lang: 'de', nodeid: uuidv7(), title: 'Foto', file: { fileid: own.fileid, fileversion: 1 }, isattachmentof: step });
    expect(await attach(procedureStep)).toBe(403);
    expect(await status('GET', `/api/attachments/${solutionPhoto}`)).toBe(200);
    expect(await status('GET', `/api/files/${solutionFile.nodeid}/download`)).toBe(200);
    expect(await attach(solutionStep)).toBe(201);
    expect(await send(t, adminA, 'GET', `/api/attachments/${procedurePhoto}`).then((r) => r.statusCode)).toBe(200);
  });

  it('who may read them gets both', async () => {
    expect(await seen(adminA)).toEqual([true, true, true, true, true, true]);
    expect(await scopeOf(adminA)).not.toContain('workflows.maintenancetasks');
  });
});
