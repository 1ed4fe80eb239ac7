import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pullResponseSchema, type PullResponse } from '../../src/shared/api/sync';
import { countStatements, type StatementCounter } from './support/statement-counter';
import { mutationHeaders, send } from './support/structure';
import { createTwoTenantApp, type TestApp } from './support/test-app';
import type { TestTenant } from '../factories/tenant';

// The pull's head check (docs/sync.md § The head check): an up-to-date device costs one statement besides
// authentication, and every guarantee of the full pull still holds around it.

describe('sync: pull head check', () => {
  let t: TestApp;
  let a: TestTenant;
  let adminA: string;
  let adminB: string;
  let counter: StatementCounter;
  const clientid = uuidv7();

  const siteInput = () => ({
    lang: 'de', name: 'Werk', street: 'Weg 1', zipcode: '12345', city: 'Ulm', country: 'DE', legalentitynodeid: a.legalEntity.nodeid, nodeid: uuidv7(),
  });

  const pull = async (authorization: string, client: string, cursor: number): Promise<PullResponse> => {
    const response = await send(t, authorization, 'GET', `/api/sync/pull?cursor=${cursor}`, undefined, { 'x-client-id': client });
    expect(response.statusCode, response.body).toBe(200);
    return pullResponseSchema.parse(response.json());
  };

  /** The statements of one request, without the authentication's own (measured on a request that stops after it). */
  const statementsOf = async (request: () => Promise<unknown>): Promise<string[]> => {
    counter.start();
    await request();
    return counter.stop();
  };

  beforeAll(async () => {
    ({ t, a, adminA, adminB } = await createTwoTenantApp());
    counter = countStatements(t.database);
  });
  afterAll(() => t?.close());

  it('answers an up-to-date pull with one statement besides authentication, and a pull after a write still brings it', async () => {
    const first = await send(t, adminA, 'POST', '/api/sites', siteInput(), mutationHeaders(clientid, 1));
    expect(first.statusCode, first.body).toBe(201);
    const full = await pull(adminA, clientid, 0);
    expect(full.hasMore).toBe(false);

    // Authentication alone: a pull refused after it (400, cursor invalid) runs what the auth hook runs.
    const auth = await statementsOf(() => send(t, adminA, 'GET', '/api/sync/pull?cursor=-1', undefined, { 'x-client-id': clientid }));
    let upToDate: PullResponse | undefined;
    const statements = await statementsOf(async () => (upToDate = await pull(adminA, clientid, full.cursor)));
    expect(auth.length).toBeGreaterThan(0);
    expect(statements.length - auth.length, statements.join('\n')).toBe(1);
    expect(statements.at(-1)).toMatch(/tenant_versions/);
    expect(upToDate).toEqual({ ...full, changes: [] });

    // A write moves the head: the next pull runs the full path and brings it, with the new lastMutationId.
    const site = siteInput();
    expect((await send(t, adminA, 'POST', '/api/sites', site, mutationHeaders(clientid, 2))).statusCode).toBe(201);
    const behind = await statementsOf(async () => (upToDate = await pull(adminA, clientid, full.cursor)));
    expect(behind.length - auth.length).toBeGreaterThan(1);
    expect(upToDate!.changes).toEqual([expect.objectContaining({ kind: 'sites', nodeid: site.nodeid })]);
    expect(upToDate!.cursor).toBeGreaterThan(full.cursor);
    expect(upToDate!.lastMutationId).toBe(2);
    expect((await pull(adminA, clientid, upToDate!.cursor)).changes).toEqual([]);
  });

  it('keeps the guarantees around the head check: reset when ahead, another user refused, a new client registered', async () => {
    const { cursor } = await pull(adminA, clientid, 0);
    // A cursor ahead of the server (restored from a backup) still resets.
    expect(await pull(adminA, clientid, cursor + 5)).toMatchObject({ reset: true, cursor: 0, changes: [] });
    // The client id is bound to A's admin: B's admin presenting it is refused even when the cursor would be up to date.
    const other = await send(t, adminB, 'GET', `/api/sync/pull?cursor=${cursor}`, undefined, { 'x-client-id': clientid });
    expect(other.statusCode).toBe(403);
    // A client id never seen is registered by its first pull, up to date or not, and then binds to its user.
    const fresh = uuidv7();
    expect((await pull(adminA, fresh, cursor)).changes).toEqual([]);
    expect((await send(t, adminB, 'GET', `/api/sync/pull?cursor=${cursor}`, undefined, { 'x-client-id': fresh })).statusCode).toBe(403);
    // Without a client id the pull is still refused.
    expect((await send(t, adminA, 'GET', `/api/sync/pull?cursor=${cursor}`)).statusCode).toBe(400);
  });

  it('reads where a page ends in one statement over every kind, and then only the kinds with a change', async () => {
    const device = uuidv7();
    const { cursor } = await pull(adminA, device, 0);
    const site = siteInput();
    expect((await send(t, adminA, 'POST', '/api/sites', site, mutationHeaders(device, 1))).statusCode).toBe(201);
    let behind: PullResponse | undefined;
    const statements = await statementsOf(async () => (behind = await pull(adminA, device, cursor)));
    expect(behind!.changes).toContainEqual(expect.objectContaining({ kind: 'sites', nodeid: site.nodeid }));

    const versionScans = statements.filter((text) => /union all/i.test(text));
    expect(versionScans, statements.join('\n')).toHaveLength(1);
    expect(versionScans[0]).toMatch(/"areas"/);
    expect(versionScans[0]).toMatch(/"tombstones"/);
    // The rows: the written kind's only; no other kind's table and no tombstones are read for this page.
    const rest = statements.filter((text) => !/union all/i.test(text));
    expect(rest.filter((text) => /from "sites"/.test(text)), statements.join('\n')).toHaveLength(1);
    expect(rest.filter((text) => /from "(areas|equipment|tombstones|counters)"/.test(text)), statements.join('\n')).toEqual([]);
    // Inside the snapshot the head (version, purge mark, the device's last mutation id) is one statement, as the
    // route's head check before it: the device's row and the version row are read twice, with the caller's once.
    expect(rest.filter((text) => /sync_clients/.test(text)), statements.join('\n')).toHaveLength(2);
    expect(rest.filter((text) => /tenant_versions/.test(text)), statements.join('\n')).toHaveLength(3);
  });
});
