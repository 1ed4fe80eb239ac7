/**
 * Solutions (part 1 §2.2, §2.3, §6, §7) through their declarations createWorkflow / updateWorkflow /
 * deleteWorkflow: every request is built from the declaration (method, path, body) as the device queues it, and
 * goes through the real route.
 */
import { and, eq } from 'drizzle-orm';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_DENIED_MESSAGE, apiErrorSchema } from '../../src/shared/api/errors';
import type { CreateWorkflowInput } from '../../src/shared/api/workflows';
import { mutationPath, parseMutation } from '../../src/shared/mutations/mutation';
import { createWorkflow, deleteWorkflow, updateWorkflow, WORKFLOW_STEP_DESCRIPTION, WORKFLOW_STEP_ID } from '../../src/shared/mutations/workflows';
import { workflowRowSchema, workflowStepRowSchema } from '../../src/shared/rows/solutions';
import { attachments, syncMutations, tombstones, workflowSteps, workflows } from '../../src/server/db/schema';
import { insertFile } from '../factories/files';
import { insertNotification } from '../factories/notifications';
import { insertEquipment } from '../factories/structure';
import type { TestTenant } from '../factories/tenant';
import { rowCount, tenantVersion } from './support/db-queries';
import { allFlagsBut, userWithFlags } from './support/requests';
import { changeOf, pullChanges, send, sentTwice } from './support/structure';
import { createTwoTenantApp, type TestApp } from './support/test-app';

describe('solutions (createWorkflow, updateWorkflow, deleteWorkflow)', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let adminA: string;
  let adminB: string;
  let notification: string;
  let notificationB: string;

  const createUrl = `/api/${mutationPath(createWorkflow, {})}`;
  const workflowUrl = (id: string) => `/api/${mutationPath(updateWorkflow, { id })}`;
  const body = (overrides: Partial<CreateWorkflowInput> = {}): CreateWorkflowInput => ({
    lang: 'de',
    nodeid: uuidv7(),
    stepnodeid: uuidv7(),
    created: Date.UTC(2026, 10, 24, 9, 30),
    notificationnodeid: notification,
    title_workflow: 'Hydraulikschlauch getauscht',
    description: 'Schlauch an der Spannvorrichtung ersetzt, Dichtheit geprüft.',
    ...overrides,
  });
  const create = (authorization: string, payload: CreateWorkflowInput, headers: Record<string, string> = {}) => send(t, authorization, createWorkflow.method, createUrl, payload, headers);
  const made = async (payload: CreateWorkflowInput = body()) => {
    const response = await create(adminA, payload);
    expect(response.statusCode, response.body).toBe(201);
    return workflowRowSchema.parse(response.json());
  };
  const stepsOf = (workflownodeid: string) => t.database.db.select().from(workflowSteps).where(eq(workflowSteps.workflownodeid, workflownodeid));
  const version = () => tenantVersion(t.database.db, a.legalEntity.nodeid);

  beforeAll(async () => {
    ({ t, a, b, adminA, adminB } = await createTwoTenantApp());
    const machine = await insertEquipment(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, name: 'Presse 02' });
    notification = (await insertNotification(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, equipmentnodeid: machine.nodeid })).nodeid;
    const machineB = await insertEquipment(t.database.db, { legalentitynodeid: b.legalEntity.nodeid, name: 'Presse B' });
    notificationB = (await insertNotification(t.database.db, { legalentitynodeid: b.legalEntity.nodeid, equipmentnodeid: machineB.nodeid })).nodeid;
  });
  afterAll(() => t?.close());

  it('registers the three routes of the declarations', () => {
    for (const definition of [createWorkflow, updateWorkflow, deleteWorkflow]) expect(t.app.hasRoute({ method: definition.method, url: `/api${definition.route}` })).toBe(true);
  });

  it('creates a solution: 201 with the row the declaration computes on the device, its first step, both in the pull at one version', async () => {
    const payload = body({ title_workflow: '  Filter gewechselt  ' });
    const row = await made(payload);
    const device = createWorkflow.apply!(undefined, parseMutation(createWorkflow, { params: {}, body: payload }), { now: Date.now(), usernodeid: a.admin.nodeid });
    const { [WORKFLOW_STEP_ID]: stepnodeid, [WORKFLOW_STEP_DESCRIPTION]: description, ...shape } = device;
    expect(stepnodeid).toBe(payload.stepnodeid);
    expect(row).toMatchObject({ ...shape, nodeid: payload.nodeid, title: 'Filter gewechselt', notificationnodeid: notification, authornodeid: a.admin.nodeid, created: payload.created });
    const [step] = await stepsOf(row.nodeid);
    expect(step).toMatchObject({ nodeid: payload.stepnodeid, position: 0, title: 'Filter gewechselt', description, authornodeid: a.admin.nodeid, version: row.version });
    const changes = await pullChanges(t, adminA, row.version - 1);
    expect(changeOf(changes, 'workflows', row.nodeid).data).toMatchObject(shape);
    expect(workflowStepRowSchema.parse(changeOf(changes, 'workflowsteps', payload.stepnodeid!).data)).toMatchObject({ workflownodeid: row.nodeid, description });
  });

  it('a solution may have no title or description (empty means none); without device ids the server makes them', async () => {
    const row = await made(body({ nodeid: undefined, stepnodeid: undefined, created: undefined, title_workflow: '', description: '   ' }));
    expect(row.title).toBeNull();
    expect(Math.abs(row.created - Date.now())).toBeLessThan(60_000);
    const [step] = await stepsOf(row.nodeid);
    expect(step?.description).toBeNull();
  });

  it.each([
    ['ahead by its device clock', Date.UTC(2100, 0, 1)],
    ['by a clock never set (1970)', 86_400_000],
  ])('a solution dated %s is dated now', async (_case, created) => {
    const row = await made(body({ created }));
    expect(Math.abs(row.created - Date.now())).toBeLessThan(60_000);
  });

  it('updates title and description, only the fields sent; the step changes and the workflow takes the same version', async () => {
    const row = await made();
    const onlyDescription = await send(t, adminA, updateWorkflow.method, workflowUrl(row.nodeid), { lang: 'de', workflownodeid: row.nodeid, description: 'Neu: auch den Rücklauf geprüft.' });
    expect(onlyDescription.statusCode, onlyDescription.body).toBe(200);
    const updated = workflowRowSchema.parse(onlyDescription.json());
    expect(updated.title).toBe(row.title);
    expect(updated.version).toBeGreaterThan(row.version);
    const [step] = await stepsOf(row.nodeid);
    expect(step).toMatchObject({ description: 'Neu: auch den Rücklauf geprüft.', title: row.title, version: updated.version });

    const retitled = workflowRowSchema.parse((await send(t, adminA, 'PUT', workflowUrl(row.nodeid), { lang: 'de', title_workflow: 'Schlauch und Rücklauf' })).json());
    expect(retitled.title).toBe('Schlauch und Rücklauf');
    const [after] = await stepsOf(row.nodeid);
    expect(after).toMatchObject({ title: 'Schlauch und Rücklauf', description: 'Neu: auch den Rücklauf geprüft.' });
    const changes = await pullChanges(t, adminA, row.version);
    expect(changeOf(changes, 'workflows', row.nodeid).data).toMatchObject({ title: 'Schlauch und Rücklauf' });
    expect(changeOf(changes, 'workflowsteps', after!.nodeid).data).toMatchObject({ description: 'Neu: auch den Rücklauf geprüft.' });
  });

  it('an update that changes nothing writes no version', async () => {
    const row = await made();
    const before = await version();
    const response = await send(t, adminA, updateWorkflow.method, workflowUrl(row.nodeid), { lang: 'de', title_workflow: row.title, description: body().description });
    expect(response.statusCode, response.body).toBe(200);
    expect(await version()).toBe(before);
  });

  it('files hang on the step (targetkind workflowstep); deleting the solution removes steps and attachments with tombstones', async () => {
    const payload = body();
    const row = await made(payload);
    const file = await insertFile(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, status: 'complete', size: 10, createdbynodeid: a.admin.nodeid });
    const attached = await send(t, adminA, 'POST', '/api/attachments', { lang: 'de', title: 'Foto Schlauch', file: { fileid: file.fileid, fileversion: file.fileversion }, isattachmentof: payload.stepnodeid });
    expect(attached.statusCode, attached.body).toBe(201);
    expect(attached.json()).toMatchObject({ targetkind: 'workflowstep', isattachmentof: payload.stepnodeid });
    const attachment = (attached.json() as { nodeid: string }).nodeid;

    const response = await send(t, adminA, deleteWorkflow.method, workflowUrl(row.nodeid), { nodeid: row.nodeid });
    expect(response.statusCode, response.body).toBe(200);
    expect(await rowCount(t.database.db, workflows, eq(workflows.nodeid, row.nodeid))).toBe(0);
    expect(await rowCount(t.database.db, workflowSteps, eq(workflowSteps.workflownodeid, row.nodeid))).toBe(0);
    expect(await rowCount(t.database.db, attachments, eq(attachments.nodeid, attachment))).toBe(0);
    const changes = await pullChanges(t, adminA, row.version);
    expect(changeOf(changes, 'workflows', row.nodeid).deleted).toBe(true);
    expect(changeOf(changes, 'workflowsteps', payload.stepnodeid!).deleted).toBe(true);
    expect(changeOf(changes, 'attachments', attachment).deleted).toBe(true);
    // A resend of the create of a deleted solution (another mutation id) does not bring it back.
    expect((await create(adminA, payload)).statusCode).toBe(410);
  });

  it('refuses bad input with 400 naming the field, writing nothing', async () => {
    const before = await version();
    const cases: [unknown, string][] = [
      [{ ...body(), notificationnodeid: undefined }, 'notificationnodeid'],
      [{ ...body(), notificationnodeid: 'not-a-uuid' }, 'notificationnodeid'],
      [{ ...body(), title_workflow: 42 }, 'title_workflow'],
      [{ ...body(), title_workflow: 'x'.repeat(2001) }, 'title_workflow'],
      [{ ...body(), description: 'x'.repeat(20_001) }, 'description'],
      [{ ...body(), created: 'gestern' }, 'created'],
      // Past what a date can hold: was a 500 (Invalid time value), which a device retries for ever.
      [{ ...body(), created: 8_640_000_000_000_001 }, 'created'],
      [{ ...body(), stepnodeid: 'step-1' }, 'stepnodeid'],
      [{ ...body(), lang: 'fr' }, 'lang'],
      [{ ...body(), usernodeid: uuidv4() }, 'usernodeid'],
    ];
    const same = uuidv7();
    cases.push([{ ...body(), nodeid: same, stepnodeid: same }, 'stepnodeid']);
    for (const [payload, field] of cases) {
      const response = await send(t, adminA, 'POST', createUrl, payload);
      expect(response.statusCode, `${field}: ${response.body}`).toBe(400);
      expect(apiErrorSchema.parse(response.json()).details?.map((detail) => detail.field)).toContain(field);
    }
    expect(await version()).toBe(before);
    const row = await made();
    const afterCreate = await version();
    const mismatch = await send(t, adminA, 'PUT', workflowUrl(row.nodeid), { lang: 'de', workflownodeid: uuidv4(), title_workflow: 'Andere' });
    expect(mismatch.statusCode).toBe(400);
    const tooLong = await send(t, adminA, 'PUT', workflowUrl(row.nodeid), { lang: 'de', description: 'x'.repeat(20_001) });
    expect(tooLong.statusCode).toBe(400);
    const badId = await send(t, adminA, 'PUT', workflowUrl('kein-uuid'), { lang: 'de', title_workflow: 'X' });
    expect(badId.statusCode).toBe(400);
    const badDelete = await send(t, adminA, 'DELETE', workflowUrl(row.nodeid), { nodeid: uuidv4() });
    expect(badDelete.statusCode).toBe(400);
    expect(await version()).toBe(afterCreate);
  });

  it('answers 404 for a notification or solution that does not exist', async () => {
    const before = await version();
    expect((await create(adminA, body({ notificationnodeid: uuidv7() }))).statusCode).toBe(404);
    expect((await send(t, adminA, 'PUT', workflowUrl(uuidv7()), { lang: 'de', title_workflow: 'X' })).statusCode).toBe(404);
    expect((await send(t, adminA, 'DELETE', workflowUrl(uuidv7()))).statusCode).toBe(404);
    expect(await version()).toBe(before);
  });

  it('answers 403 without the notification.workflow flag each write needs', async () => {
    const row = await made();
    const forCreate = await userWithFlags(t, a.legalEntity.nodeid, 'notification.workflow', allFlagsBut('create'));
    const forUpdate = await userWithFlags(t, a.legalEntity.nodeid, 'notification.workflow', allFlagsBut('update'));
    const forDelete = await userWithFlags(t, a.legalEntity.nodeid, 'notification.workflow', allFlagsBut('delete'));
    const before = await version();
    const responses = [
      await create(forCreate.authorization, body()),
      await send(t, forUpdate.authorization, 'PUT', workflowUrl(row.nodeid), { lang: 'de', title_workflow: 'Geändert?' }),
      await send(t, forDelete.authorization, 'DELETE', workflowUrl(row.nodeid)),
    ];
    for (const response of responses) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ message: ACCESS_DENIED_MESSAGE });
    }
    expect(await version()).toBe(before);
    // …and each of them may do what its flags allow.
    expect((await send(t, forCreate.authorization, 'PUT', workflowUrl(row.nodeid), { lang: 'de', description: 'Darf ändern.' })).statusCode).toBe(200);
  });

  it('another tenant: its notification cannot get a solution, a solution cannot be changed or deleted across tenants (404), nothing leaks', async () => {
    const row = await made();
    const before = await version();
    const responses = [
      await create(adminB, body()),
      await send(t, adminB, 'PUT', workflowUrl(row.nodeid), { lang: 'de', title_workflow: 'Gekapert' }),
      await send(t, adminB, 'DELETE', workflowUrl(row.nodeid)),
      await create(adminA, body({ notificationnodeid: notificationB })),
    ];
    for (const response of responses) {
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain(row.title!);
    }
    expect(await version()).toBe(before);
    const [stored] = await t.database.db.select().from(workflows).where(eq(workflows.nodeid, row.nodeid));
    expect(stored?.title).toBe(row.title);
  });

  it('with X-Client-Id/X-Mutation-Id each write is applied once; a resend answers the stored result', async () => {
    const clientid = uuidv4();
    const payload = body();
    const first = await sentTwice(t, adminA, createWorkflow.method, createUrl, payload, { clientid, status: 201, unchanged: version });
    expect(await rowCount(t.database.db, workflows, eq(workflows.nodeid, payload.nodeid!))).toBe(1);
    expect(await rowCount(t.database.db, workflowSteps, eq(workflowSteps.workflownodeid, payload.nodeid!))).toBe(1);
    expect(await rowCount(t.database.db, syncMutations, eq(syncMutations.clientid, clientid))).toBe(1);

    await sentTwice(t, adminA, updateWorkflow.method, workflowUrl(payload.nodeid!), { lang: 'de', description: 'Offline ergänzt' }, { status: 200, unchanged: version });
    await sentTwice(t, adminA, deleteWorkflow.method, workflowUrl(payload.nodeid!), { nodeid: payload.nodeid }, { status: 200, unchanged: version });
    expect(await rowCount(t.database.db, tombstones, and(eq(tombstones.kind, 'workflows'), eq(tombstones.nodeid, payload.nodeid!)))).toBe(1);
    expect(first.json()).toMatchObject({ nodeid: payload.nodeid });
  });

  it('the same create sent again under a new mutation id answers the row it made, without a second version or step', async () => {
    const payload = body();
    const first = await made(payload);
    const before = await version();
    const again = await create(adminA, payload);
    expect(again.statusCode).toBe(201);
    expect(workflowRowSchema.parse(again.json())).toEqual(first);
    expect(await version()).toBe(before);
    expect(await stepsOf(first.nodeid)).toHaveLength(1);
  });

  it('a notification deleted while its solution is changed: both end cleanly, never in a deadlock (both lock rows before the version)', async () => {
    const machine = await insertEquipment(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, name: 'Presse 03' });
    for (let round = 0; round < 12; round++) {
      const target = (await insertNotification(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, equipmentnodeid: machine.nodeid })).nodeid;
      const row = await made(body({ notificationnodeid: target }));
      const [update, removal] = await Promise.all([
        send(t, adminA, updateWorkflow.method, workflowUrl(row.nodeid), { lang: 'de', workflownodeid: row.nodeid, title_workflow: `Runde ${round}`, description: `Beschreibung ${round}` }),
        send(t, adminA, 'DELETE', `/api/notifications/${target}`, { nodeid: target }),
      ]);
      expect(removal.statusCode, removal.body).toBe(200);
      expect([200, 404, 410], update.body).toContain(update.statusCode);
      expect(await rowCount(t.database.db, workflows, eq(workflows.nodeid, row.nodeid))).toBe(0);
      const stones = await t.database.db.select({ kind: tombstones.kind }).from(tombstones).where(and(eq(tombstones.legalentitynodeid, a.legalEntity.nodeid), eq(tombstones.version, (removal.json() as { version: number }).version)));
      expect(stones.map((stone) => stone.kind).sort()).toEqual(['notifications', 'workflow_steps', 'workflows']);
    }
  });
});
