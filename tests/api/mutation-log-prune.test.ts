import { and, asc, eq, lte } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncMutations } from '../../src/server/db/schema';
import { MUTATION_LOG_KEEP_LAST, pruneMutationLog } from '../../src/server/jobs/prune-mutation-log';
import { pruneMutationLog as pruneWith } from '../../src/server/services/mutation-log-service';
import type { TestTenant } from '../factories/tenant';
import { createOneTenantApp, type TestApp } from './support/test-app';

// Pruning stored mutation outcomes no client can ask for again (docs/sync.md § Pruning the mutation log).

const DAY = 86_400_000;

describe('sync: pruning the mutation log', () => {
  let t: TestApp;
  let a: TestTenant;
  let authorization: string;

  const siteInput = () => ({ lang: 'de', name: 'Werk', street: 'Weg 1', zipcode: '12345', city: 'Ulm', country: 'DE', legalentitynodeid: a.legalEntity.nodeid, nodeid: uuidv7() });
  const send = (clientid: string, mid: number, body: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/sites', headers: { authorization, 'x-client-id': clientid, 'x-mutation-id': String(mid) }, payload: body as Record<string, unknown> });
  const storedIds = async (clientid: string) =>
    (await t.database.db.select({ mid: syncMutations.mutationId }).from(syncMutations).where(eq(syncMutations.clientid, clientid)).orderBy(asc(syncMutations.mutationId))).map((r) => r.mid);
  /** Sends `count` writes and dates their stored outcomes `daysAgo` back. */
  const client = async (count: number, daysAgo: number) => {
    const clientid = uuidv7();
    const bodies = [];
    for (let mid = 1; mid <= count; mid++) {
      const body = siteInput();
      bodies.push(body);
      expect((await send(clientid, mid, body)).statusCode).toBe(201);
    }
    await t.database.db.update(syncMutations).set({ createdAt: new Date(Date.now() - daysAgo * DAY) }).where(eq(syncMutations.clientid, clientid));
    return { clientid, bodies };
  };

  beforeAll(async () => {
    ({ t, a, adminA: authorization } = await createOneTenantApp());
  });
  afterAll(() => t?.close());

  it('removes old outcomes far below the last applied id; keeps the newest, the young and the last one', async () => {
    const old = await client(6, 40);
    const young = await client(6, 1);
    const removed = await pruneWith(t.database.db, { keepLast: 2, olderThan: new Date(Date.now() - 30 * DAY) });
    expect(removed).toBe(4);
    expect(await storedIds(old.clientid)).toEqual([5, 6]);
    expect(await storedIds(young.clientid)).toEqual([1, 2, 3, 4, 5, 6]);
    // Running it again (another instance) removes nothing more.
    expect(await pruneWith(t.database.db, { keepLast: 2, olderThan: new Date(Date.now() - 30 * DAY) })).toBe(0);

    // What a client can still send works as before: the last answer replays, the next id applies.
    const replay = await send(old.clientid, 6, old.bodies[5]);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await send(old.clientid, 7, siteInput())).statusCode).toBe(201);
    // A pruned id (only a stale duplicate sends one) is refused, never applied again.
    expect((await send(old.clientid, 1, old.bodies[0])).statusCode).toBe(422);
  });

  it('keepLast below 1 still keeps the last applied outcome (a lost answer replays it)', async () => {
    const { clientid } = await client(3, 60);
    await pruneWith(t.database.db, { keepLast: 0, olderThan: new Date() });
    expect(await storedIds(clientid)).toEqual([3]);
  });

  it('the job keeps a month and the last MUTATION_LOG_KEEP_LAST ids per client', async () => {
    const { clientid } = await client(3, 45);
    const before = await t.database.db.select({ mid: syncMutations.mutationId }).from(syncMutations).where(and(eq(syncMutations.clientid, clientid), lte(syncMutations.mutationId, 3)));
    expect(before).toHaveLength(3);
    await pruneMutationLog(t.app.serviceContext);
    // Three ids are far fewer than the kept window: nothing of this client goes.
    expect(MUTATION_LOG_KEEP_LAST).toBeGreaterThan(3);
    expect(await storedIds(clientid)).toEqual([1, 2, 3]);
  });
});
