// why first: Dexie looks for IndexedDB when it is imported; the devices' databases live in fake-indexeddb.
import 'fake-indexeddb/auto';
import { eq, inArray } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createNotification } from '../../src/client/sync/repositories/notifications';
import type { CreateSiteInput } from '../../src/shared/api/sites';
import { syncBatchResponseSchema, type SyncBatchEntry, type SyncBatchResult } from '../../src/shared/api/sync';
import { notifications, sites, users } from '../../src/server/db/schema';
import { FaultInjector } from '../../src/server/plugins/fault-injection';
import { insertUser, loginAs, type TestTenant } from '../factories/tenant';
import { lastMutationId, rowCount } from './support/db-queries';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy';
import { Device, serverLog } from './support/sync-device';
import { insertSyncPlant, type SyncPlant } from './support/sync-plant';
import { send } from './support/structure';
import { createOneTenantApp, createTestApp, type TestApp } from './support/test-app';

// POST /api/sync/batch is bounded (docs/sync.md § Batch): it answers the entries done so far once their answers
// reach a byte budget or it has run for a time budget, and it stops when its caller's session ends meanwhile. The
// device sends the rest again; nothing is lost or applied twice.

function siteInput(legalentitynodeid: string, name: string): CreateSiteInput {
  return { nodeid: uuidv7(), lang: 'de', name, street: 'Industriestraße 5', zipcode: '70565', city: 'Stuttgart', country: 'DE', legalentitynodeid };
}

const createSite = (mutationId: number, input: CreateSiteInput): SyncBatchEntry => ({ mutationId, method: 'POST', path: '/api/sites', body: input });

function batchOf(t: TestApp) {
  return async (authorization: string, clientid: string, mutations: SyncBatchEntry[]): Promise<SyncBatchResult[]> => {
    const response = await send(t, authorization, 'POST', '/api/sync/batch', { mutations }, { 'x-client-id': clientid });
    expect(response.statusCode, response.body).toBe(200);
    return syncBatchResponseSchema.parse(response.json()).results;
  };
}

describe('sync batch: a byte budget for the answers', () => {
  let t: TestApp;
  let a: TestTenant;
  let adminA: string;

  beforeAll(async () => {
    // One byte: every batch stops after its first entry.
    ({ t, a, adminA } = await createOneTenantApp({}, { syncBatchBudget: { answerBytes: 1 } }));
  });
  afterAll(() => t?.close());

  it('answers the entries done once their answers pass the budget; the rest sent again runs once, in order', async () => {
    const batch = batchOf(t);
    const clientid = uuidv7();
    const inputs = [1, 2, 3].map((n) => siteInput(a.legalEntity.nodeid, `Budget ${n}`));
    const mutations = inputs.map((input, index) => createSite(index + 1, input));

    const first = await batch(adminA, clientid, mutations);
    expect(first.map((r) => [r.mutationId, r.status, r.replayed])).toEqual([[1, 201, false]]);
    expect(await lastMutationId(t.database.db, clientid)).toBe(1);
    const siteRows = () => Promise.all(inputs.map((input) => rowCount(t.database.db, sites, eq(sites.nodeid, input.nodeid!))));
    expect(await siteRows()).toEqual([1, 0, 0]);

    // The device sends the same batch again (it does not know why it was cut): the first is replayed, and the budget
    // is spent again.
    expect((await batch(adminA, clientid, mutations)).map((r) => [r.mutationId, r.status, r.replayed])).toEqual([[1, 201, true]]);
    expect((await batch(adminA, clientid, mutations.slice(1))).map((r) => [r.mutationId, r.status, r.replayed])).toEqual([[2, 201, false]]);
    expect((await batch(adminA, clientid, mutations.slice(2))).map((r) => [r.mutationId, r.status, r.replayed])).toEqual([[3, 201, false]]);
    expect(await siteRows()).toEqual([1, 1, 1]);
    expect((await serverLog(t.database.db, clientid)).map((r) => [r.mid, r.status])).toEqual([
      [1, 201],
      [2, 201],
      [3, 201],
    ]);
  });
});

describe('sync batch: a time budget', () => {
  const faults = new FaultInjector();
  let t: TestApp;
  let a: TestTenant;
  let adminA: string;

  beforeAll(async () => {
    ({ t, a, adminA } = await createOneTenantApp({}, { syncFaults: faults, syncBatchBudget: { ms: 300 } }));
  });
  afterEach(() => faults.clear());
  afterAll(() => t?.close());

  it('starts no entry once the batch has run past it: the entries done are answered, the rest runs when sent again', async () => {
    const batch = batchOf(t);
    const clientid = uuidv7();
    const inputs = [1, 2, 3, 4].map((n) => siteInput(a.legalEntity.nodeid, `Langsam ${n}`));
    const mutations = inputs.map((input, index) => createSite(index + 1, input));
    // The second entry's answer takes longer than the budget: the third does not start.
    faults.inject({ kind: 'delay-after-commit', method: 'POST', path: '/api/sites', times: 1, delayMs: 0 });
    faults.inject({ kind: 'delay-after-commit', method: 'POST', path: '/api/sites', times: 1, delayMs: 400 });

    const first = await batch(adminA, clientid, mutations);
    expect(first.map((r) => [r.mutationId, r.status])).toEqual([
      [1, 201],
      [2, 201],
    ]);
    expect(await lastMutationId(t.database.db, clientid)).toBe(2);
    const rest = await batch(adminA, clientid, mutations.slice(2));
    expect(rest.map((r) => [r.mutationId, r.status])).toEqual([
      [3, 201],
      [4, 201],
    ]);
    expect(await rowCount(t.database.db, sites, inArray(sites.nodeid, inputs.map((input) => input.nodeid!)))).toBe(4);
  });
});

describe('sync batch: the session ends while it runs', () => {
  const faults = new FaultInjector();
  let t: TestApp;
  let a: TestTenant;

  beforeAll(async () => {
    ({ t, a } = await createOneTenantApp({}, { syncFaults: faults }));
  });
  afterEach(() => faults.clear());
  afterAll(() => t?.close());

  /**
   * A batch of three site creates whose first answer waits 800 ms after its commit; `meanwhile` runs in that time
   * (no lock held). Answers the batch's results and which of the three sites exist.
   */
  async function batchWhile(authorization: string, meanwhile: () => Promise<void>) {
    const clientid = uuidv7();
    const inputs = [1, 2, 3].map((n) => siteInput(a.legalEntity.nodeid, `Sitzung ${n}`));
    faults.inject({ kind: 'delay-after-commit', method: 'POST', path: '/api/sites', delayMs: 800 });
    const running = batchOf(t)(authorization, clientid, inputs.map((input, index) => createSite(index + 1, input)));
    await vi.waitFor(() => expect(faults.fired).toHaveLength(1));
    // The first entry has passed its authentication (the fault is taken in onRequest, after the auth hook).
    await meanwhile();
    const results = await running;
    const exist = await Promise.all(inputs.map((input) => rowCount(t.database.db, sites, eq(sites.nodeid, input.nodeid!))));
    return { results, exist, clientid };
  }

  it('a logout: the next entry answers 401 and ends the batch; nothing after it is applied or logged', async () => {
    const user = await insertUser(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, profileid: a.admin.profileid });
    const { authorization } = await loginAs(t.app, user);
    const { results, exist, clientid } = await batchWhile(authorization, async () => {
      const logout = await send(t, authorization, 'POST', '/api/auth/logout');
      expect(logout.statusCode, logout.body).toBe(204);
    });
    expect(results.map((r) => [r.mutationId, r.status])).toEqual([
      [1, 201],
      [2, 401],
    ]);
    expect(exist).toEqual([1, 0, 0]);
    // The 401 is not the entry's outcome: it is retried under the same id after a new login.
    expect((await serverLog(t.database.db, clientid)).map((r) => r.mid)).toEqual([1]);
    expect(await lastMutationId(t.database.db, clientid)).toBe(1);
  });

  it('a deactivation: the same', async () => {
    const user = await insertUser(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, profileid: a.admin.profileid });
    const { authorization } = await loginAs(t.app, user);
    const { results, exist } = await batchWhile(authorization, async () => {
      await t.database.db.update(users).set({ active: false }).where(eq(users.nodeid, user.nodeid));
    });
    expect(results.map((r) => [r.mutationId, r.status])).toEqual([
      [1, 201],
      [2, 401],
    ]);
    expect(exist).toEqual([1, 0, 0]);
  });
});

describe('sync batch limits: the real client sends the rest of a batch answered in part', () => {
  let t: TestApp;
  let plant: SyncPlant;
  let proxy: FaultProxy;
  const devices: Device[] = [];

  beforeAll(async () => {
    t = await createTestApp({}, { syncBatchBudget: { answerBytes: 1 } });
    plant = await insertSyncPlant(t.database.db);
    proxy = await startFaultProxy(await t.app.listen({ port: 0, host: '127.0.0.1' }));
  });
  afterAll(async () => {
    for (const device of devices.splice(0)) await device.close();
    await proxy?.close();
    await t?.close();
  });

  it('one run sends the queue in batches the server cuts after each entry: every write applied once, in order, the queue empty', async () => {
    const tablet = new Device({ baseUrl: proxy.url });
    devices.push(tablet);
    await tablet.login(plant.technicians[0]!);
    await tablet.pull();
    const ids: string[] = [];
    for (const n of [1, 2, 3, 4]) ids.push(await createNotification(tablet.context(), { type: 1, title: `Teilantwort ${n}`, equipmentnodeid: plant.machines[0]! }));

    const result = await tablet.send();
    expect(result.outcome).toEqual({ type: 'idle' });
    expect(result.acknowledged).toBe(4);
    expect(await tablet.pending()).toEqual([]);
    // Each batch carried the rest of the queue and was answered for its first entry only.
    expect(proxy.log.filter((r) => r.mutationId !== undefined).map((r) => r.mutationId)).toEqual([1, 2, 3, 4, 2, 3, 4, 3, 4, 4]);
    const clientId = await tablet.clientId();
    expect((await serverLog(t.database.db, clientId)).map((r) => [r.mid, r.status])).toEqual([
      [1, 201],
      [2, 201],
      [3, 201],
      [4, 201],
    ]);
    expect(await rowCount(t.database.db, notifications, inArray(notifications.nodeid, ids))).toBe(4);
  });
});
