import { asc, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateSiteInput } from '../../src/shared/api/sites';
import { SET_ASIDE_REFUSAL, syncBatchResponseSchema, syncSetAsideResponseSchema } from '../../src/shared/api/sync';
import type { Db } from '../../src/server/db/client';
import { sites, syncMutations } from '../../src/server/db/schema';
import { lastMutationId, rowCount } from './support/db-queries';
import { mutationHeaders, send } from './support/structure';
import { createTwoTenantApp, type TestApp } from './support/test-app';
import type { TestTenant } from '../factories/tenant';

// POST /api/sync/set-aside (docs/sync.md § Setting aside): a device gives up the mutation id the server expects
// next, after repeated server errors on that write, so the writes queued behind it go on.

function siteInput(legalentitynodeid: string, name: string): CreateSiteInput {
  return { nodeid: uuidv7(), lang: 'de', name, street: 'Industriestraße 5', zipcode: '70565', city: 'Stuttgart', country: 'DE', legalentitynodeid };
}

async function serverLog(db: Db, clientid: string) {
  return db
    .select({ mid: syncMutations.mutationId, status: syncMutations.status, hash: syncMutations.requestHash })
    .from(syncMutations)
    .where(eq(syncMutations.clientid, clientid))
    .orderBy(asc(syncMutations.mutationId));
}

describe('sync: POST /api/sync/set-aside', () => {
  let t: TestApp;
  let a: TestTenant;
  let adminA: string;
  let adminB: string;

  const db = () => t.database.db;
  const setAside = (authorization: string, clientid: string | undefined, body: unknown) =>
    send(t, authorization, 'POST', '/api/sync/set-aside', body, clientid === undefined ? {} : { 'x-client-id': clientid });
  const createSite = (clientid: string, mutationId: number, input: CreateSiteInput) => send(t, adminA, 'POST', '/api/sites', input, mutationHeaders(clientid, mutationId));

  beforeAll(async () => {
    ({ t, a, adminA, adminB } = await createTwoTenantApp());
  });
  afterAll(() => t?.close());

  it('stores a refusal for the next id: the write queued behind it applies, and a late resend of the id gets that refusal', async () => {
    const clientid = uuidv7();
    const first = siteInput(a.legalEntity.nodeid, 'Vor dem Fehler');
    expect((await createSite(clientid, 1, first)).statusCode).toBe(201);

    const response = await setAside(adminA, clientid, { mutationId: 2 });
    expect(response.statusCode, response.body).toBe(200);
    expect(syncSetAsideResponseSchema.parse(response.json())).toEqual({ mutationId: 2, outcome: 'set-aside' });
    expect(await lastMutationId(db(), clientid)).toBe(2);

    const behind = siteInput(a.legalEntity.nodeid, 'Dahinter');
    expect((await createSite(clientid, 3, behind)).statusCode).toBe(201);
    expect(await rowCount(db(), sites, eq(sites.nodeid, behind.nodeid!))).toBe(1);

    // The write that was set aside, sent late under its old id (a frozen tab): the stored refusal, nothing written.
    const stuck = siteInput(a.legalEntity.nodeid, 'Zurückgestellt');
    const late = await createSite(clientid, 2, stuck);
    expect(late.statusCode).toBe(422);
    expect(late.headers['idempotent-replayed']).toBe('true');
    expect(late.json()).toEqual(SET_ASIDE_REFUSAL);
    expect(await rowCount(db(), sites, eq(sites.nodeid, stuck.nodeid!))).toBe(0);
    expect((await serverLog(db(), clientid)).map((row) => [row.mid, row.status])).toEqual([
      [1, 201],
      [2, 422],
      [3, 201],
    ]);
  });

  it('leaves an id that has an answer as it is, and says which (a write that went through meanwhile)', async () => {
    const clientid = uuidv7();
    const input = siteInput(a.legalEntity.nodeid, 'Schon da');
    expect((await createSite(clientid, 1, input)).statusCode).toBe(201);
    const response = await setAside(adminA, clientid, { mutationId: 1 });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ mutationId: 1, outcome: 'answered', status: 201 });
    expect((await serverLog(db(), clientid)).map((row) => [row.mid, row.status])).toEqual([[1, 201]]);
    // Its resend still gets the write's own answer.
    const again = await createSite(clientid, 1, input);
    expect([again.statusCode, again.headers['idempotent-replayed']]).toEqual([201, 'true']);

    // An id set aside twice (its answer was lost, or two tabs asked): the same answer, nothing stored twice.
    expect((await setAside(adminA, clientid, { mutationId: 2 })).json()).toEqual({ mutationId: 2, outcome: 'set-aside' });
    expect((await setAside(adminA, clientid, { mutationId: 2 })).json()).toEqual({ mutationId: 2, outcome: 'set-aside' });
    expect(await lastMutationId(db(), clientid)).toBe(2);
    expect((await serverLog(db(), clientid)).map((row) => [row.mid, row.status])).toEqual([
      [1, 201],
      [2, 422],
    ]);
  });

  it('refuses an id past the next one with the gap answer of a write, and stores nothing', async () => {
    const clientid = uuidv7();
    const response = await setAside(adminA, clientid, { mutationId: 3 });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ statusCode: 409, expectedMutationId: 1 });
    expect(await serverLog(db(), clientid)).toEqual([]);
    expect(await lastMutationId(db(), clientid)).toBe(0);
  });

  it("refuses another user's device (403), a missing or malformed device id and a bad body (400), and no session (401)", async () => {
    const clientid = uuidv7();
    expect((await createSite(clientid, 1, siteInput(a.legalEntity.nodeid, 'Meins'))).statusCode).toBe(201);
    const foreign = await setAside(adminB, clientid, { mutationId: 2 });
    expect(foreign.statusCode).toBe(403);
    expect((await setAside(adminA, undefined, { mutationId: 2 })).statusCode).toBe(400);
    expect((await setAside(adminA, 'not-a-uuid', { mutationId: 2 })).statusCode).toBe(400);
    for (const body of [{}, { mutationId: 0 }, { mutationId: 1.5 }, { mutationId: '2' }, { mutationId: Number.MAX_SAFE_INTEGER + 2 }]) {
      const response = await setAside(adminA, clientid, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/sync/set-aside', headers: { 'x-client-id': clientid }, payload: { mutationId: 2 } });
    expect(anonymous.statusCode).toBe(401);
    expect(await lastMutationId(db(), clientid)).toBe(1);
  });

  it('is no write a batch may carry, nor a write of the log itself (an X-Mutation-Id on it takes no id)', async () => {
    const clientid = uuidv7();
    const batch = await send(t, adminA, 'POST', '/api/sync/batch', { mutations: [{ mutationId: 1, method: 'POST', path: '/api/sync/set-aside', body: { mutationId: 1 } }] }, { 'x-client-id': clientid });
    expect(batch.statusCode).toBe(400);
    expect(syncBatchResponseSchema.safeParse(batch.json()).success).toBe(false);

    const withId = await send(t, adminA, 'POST', '/api/sync/set-aside', { mutationId: 1 }, mutationHeaders(clientid, 1));
    expect(withId.json()).toEqual({ mutationId: 1, outcome: 'set-aside' });
    expect((await serverLog(db(), clientid)).map((row) => [row.mid, row.status, row.hash])).toEqual([[1, 422, 'set-aside']]);
  });
});
