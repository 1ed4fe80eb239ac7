import { asc, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateSiteInput } from '../../src/shared/api/sites';
import { syncBatchResponseSchema, type SyncBatchEntry } from '../../src/shared/api/sync';
import type { Db } from '../../src/server/db/client';
import { sites, syncMutations } from '../../src/server/db/schema';
import { lastMutationId, rowCount } from './support/db-queries';
import { countStatements } from './support/statement-counter';
import { send } from './support/structure';
import { createTwoTenantApp, type TestApp } from './support/test-app';
import type { TestTenant } from '../factories/tenant';

// POST /api/sync/batch (docs/sync.md § Batch): the outbox's entries in one request, each run as if it had come
// alone with X-Mutation-Id — the mutation log's rules hold per entry.

function siteInput(legalentitynodeid: string, name: string, nodeid: string = uuidv7()): CreateSiteInput {
  return { nodeid, lang: 'de', name, street: 'Industriestraße 5', zipcode: '70565', city: 'Stuttgart', country: 'DE', legalentitynodeid };
}

const createSite = (mutationId: number, input: CreateSiteInput): SyncBatchEntry => ({ mutationId, method: 'POST', path: '/api/sites', body: input });

async function serverLog(db: Db, clientid: string) {
  return db.select({ mid: syncMutations.mutationId, path: syncMutations.path, status: syncMutations.status }).from(syncMutations).where(eq(syncMutations.clientid, clientid)).orderBy(asc(syncMutations.mutationId));
}

describe('sync: POST /api/sync/batch', () => {
  let t: TestApp;
  let a: TestTenant;
  let adminA: string;
  let adminB: string;
  let b: TestTenant;

  const db = () => t.database.db;
  const batch = (authorization: string, clientid: string, mutations: unknown[]) => send(t, authorization, 'POST', '/api/sync/batch', { mutations }, { 'x-client-id': clientid });
  const results = (response: { statusCode: number; body: string; json(): unknown }) => {
    expect(response.statusCode, response.body).toBe(200);
    return syncBatchResponseSchema.parse(response.json()).results;
  };
  const siteRows = (nodeids: string[]) => Promise.all(nodeids.map((nodeid) => rowCount(db(), sites, eq(sites.nodeid, nodeid))));

  beforeAll(async () => {
    ({ t, a, adminA, b, adminB } = await createTwoTenantApp());
  });
  afterAll(() => t?.close());

  it('runs N writes in order: N rows, N log entries, the counter at N; a resend of the same batch replays all, nothing twice', async () => {
    const clientid = uuidv7();
    const inputs = [1, 2, 3].map((n) => siteInput(a.legalEntity.nodeid, `Werk ${n}`));
    const mutations = inputs.map((input, index) => createSite(index + 1, input));

    const first = results(await batch(adminA, clientid, mutations));
    expect(first.map((r) => [r.mutationId, r.status, r.replayed])).toEqual([
      [1, 201, false],
      [2, 201, false],
      [3, 201, false],
    ]);
    expect(first.map((r) => (r.body as { name: string }).name)).toEqual(['Werk 1', 'Werk 2', 'Werk 3']);
    expect(await siteRows(inputs.map((i) => i.nodeid!))).toEqual([1, 1, 1]);
    expect(await lastMutationId(db(), clientid)).toBe(3);

    const again = results(await batch(adminA, clientid, mutations));
    expect(again.map((r) => [r.mutationId, r.status, r.replayed])).toEqual([
      [1, 201, true],
      [2, 201, true],
      [3, 201, true],
    ]);
    expect(again.map((r) => r.body)).toEqual(first.map((r) => r.body));
    expect(await siteRows(inputs.map((i) => i.nodeid!))).toEqual([1, 1, 1]);
    expect((await serverLog(db(), clientid)).map((r) => [r.mid, r.status])).toEqual([
      [1, 201],
      [2, 201],
      [3, 201],
    ]);
  });

  it('stores a business 4xx in the middle and runs the rest', async () => {
    const clientid = uuidv7();
    const good = [siteInput(a.legalEntity.nodeid, 'Vorher'), siteInput(a.legalEntity.nodeid, 'Nachher')];
    const invalid = { ...siteInput(a.legalEntity.nodeid, ''), name: '' };
    const answered = results(await batch(adminA, clientid, [createSite(1, good[0]!), createSite(2, invalid), createSite(3, good[1]!)]));
    expect(answered.map((r) => [r.mutationId, r.status])).toEqual([
      [1, 201],
      [2, 400],
      [3, 201],
    ]);
    expect(await siteRows([good[0]!.nodeid!, invalid.nodeid!, good[1]!.nodeid!])).toEqual([1, 0, 1]);
    expect((await serverLog(db(), clientid)).map((r) => [r.mid, r.status])).toEqual([
      [1, 201],
      [2, 400],
      [3, 201],
    ]);
  });

  it('stops at a gap: the 409 with the expected id is the last result, nothing after it runs', async () => {
    const clientid = uuidv7();
    const inputs = [siteInput(a.legalEntity.nodeid, 'Lücke 1'), siteInput(a.legalEntity.nodeid, 'Lücke 2')];
    const answered = results(await batch(adminA, clientid, [createSite(2, inputs[0]!), createSite(3, inputs[1]!)]));
    expect(answered).toHaveLength(1);
    expect(answered[0]).toMatchObject({ mutationId: 2, status: 409, body: { expectedMutationId: 1 }, replayed: false });
    expect(await siteRows(inputs.map((i) => i.nodeid!))).toEqual([0, 0]);
    expect(await lastMutationId(db(), clientid)).toBe(0);
  });

  it("answers 404 inside for another tenant's record, stored; the next entry runs", async () => {
    const clientid = uuidv7();
    const theirs = siteInput(b.legalEntity.nodeid, 'Fremdes Werk');
    expect((await send(t, adminB, 'POST', '/api/sites', theirs)).statusCode).toBe(201);
    const mine = siteInput(a.legalEntity.nodeid, 'Eigenes Werk');
    const answered = results(
      await batch(adminA, clientid, [
        { mutationId: 1, method: 'PUT', path: `/api/sites/${theirs.nodeid}`, body: { lang: 'de', sitenodeid: theirs.nodeid, name: 'Übernommen' } },
        createSite(2, mine),
      ]),
    );
    expect(answered.map((r) => [r.mutationId, r.status])).toEqual([
      [1, 404],
      [2, 201],
    ]);
    const [row] = await db().select({ name: sites.name }).from(sites).where(eq(sites.nodeid, theirs.nodeid!));
    expect(row?.name).toBe('Fremdes Werk');
    expect(await lastMutationId(db(), clientid)).toBe(2);
  });

  it('its entries take over the batch caller and device: the token checked and the device registered once per batch; the caller loaded again for each entry (a logout applies from the next one on)', async () => {
    const counter = countStatements(t.database);
    const clientid = uuidv7();
    counter.start();
    const answered = results(await batch(adminA, clientid, [1, 2, 3].map((n) => createSite(n, siteInput(a.legalEntity.nodeid, `Einmal ${n}`)))));
    const statements = counter.stop();
    expect(answered.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(statements.filter((text) => /from "users"/.test(text)), statements.join('\n')).toHaveLength(1 + 3);
    expect(statements.filter((text) => /insert into "sync_clients"/.test(text)), statements.join('\n')).toHaveLength(1);
    expect(await lastMutationId(db(), clientid)).toBe(3);
  });

  it.each([
    ['login', { method: 'POST', path: '/api/auth/login', body: { email: 'x@example.com', password: 'secret' } }],
    ['the batch itself', { method: 'POST', path: '/api/sync/batch', body: { mutations: [] } }],
    ['a read', { method: 'GET', path: '/api/sites' }],
    ['a path outside /api', { method: 'POST', path: '/sites', body: {} }],
    ['a public upload', { method: 'PUT', path: `/api/files/${uuidv7()}/content`, body: {} }],
    // Paths not in normal form: the allow-list would read them as one route and app.inject dispatch another.
    ['a percent-encoded .. segment', { method: 'PUT', path: '/api/sites/%2e%2e', body: {} }],
    ['a percent-encoded .. segment in capitals', { method: 'DELETE', path: '/api/sites/%2E%2E', body: {} }],
    ['a half-encoded .. segment', { method: 'PUT', path: '/api/sites/.%2e', body: {} }],
    ['a plain .. segment', { method: 'PUT', path: '/api/sites/..', body: {} }],
    ['a . segment', { method: 'PUT', path: '/api/sites/.', body: {} }],
    ['an encoded . segment before a query', { method: 'PUT', path: '/api/sites/%2e?lang=de', body: {} }],
    ['an encoded slash', { method: 'PUT', path: '/api/sites/x%2F..', body: {} }],
    ['an encoded backslash', { method: 'PUT', path: '/api/sites/x%5c..', body: {} }],
    ['a backslash', { method: 'PUT', path: '/api/sites/x\\..', body: {} }],
    ['an empty segment', { method: 'PUT', path: `/api//sites/${uuidv7()}`, body: {} }],
    ['a trailing slash', { method: 'PUT', path: `/api/sites/${uuidv7()}/`, body: {} }],
    ['a fragment', { method: 'PUT', path: `/api/sites/${uuidv7()}#x`, body: {} }],
    ['a character URL parsing would encode', { method: 'PUT', path: '/api/sites/a b', body: {} }],
  ])('refuses a batch with %s as a whole: 400, nothing written, no id used', async (_name, forbidden) => {
    const clientid = uuidv7();
    const before = siteInput(a.legalEntity.nodeid, 'Davor');
    const response = await batch(adminA, clientid, [createSite(1, before), { mutationId: 2, ...forbidden }]);
    expect(response.statusCode, response.body).toBe(400);
    expect(await siteRows([before.nodeid!])).toEqual([0]);
    expect(await serverLog(db(), clientid)).toEqual([]);
  });

  it('answers 401 without a token and 400 without X-Client-Id; nothing written', async () => {
    const input = siteInput(a.legalEntity.nodeid, 'Ohne');
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/sync/batch', headers: { 'x-client-id': uuidv7() }, payload: { mutations: [createSite(1, input)] } });
    expect(anonymous.statusCode).toBe(401);
    const withoutClient = await send(t, adminA, 'POST', '/api/sync/batch', { mutations: [createSite(1, input)] });
    expect(withoutClient.statusCode).toBe(400);
    expect(await siteRows([input.nodeid!])).toEqual([0]);
  });
});
