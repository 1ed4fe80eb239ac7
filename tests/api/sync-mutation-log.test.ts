import { count, eq } from 'drizzle-orm';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_DENIED_MESSAGE } from '../../src/shared/api/errors';
import type { CreateSiteInput } from '../../src/shared/api/sites';
import { siteRowSchema } from '../../src/shared/rows/structure';
import { mutationGapSchema } from '../../src/shared/api/sync';
import type { Db } from '../../src/server/db/client';
import { sites, syncClients, syncMutations } from '../../src/server/db/schema';
import { registerSyncClient } from '../../src/server/services/mutation-log-service';
import { loginAs, type TestTenant } from '../factories/tenant';
import { userWithFlags } from './support/requests';
import { mutationHeaders, send } from './support/structure';
import { createOneTenantApp, type TestApp } from './support/test-app';
import { lastMutationId, rowCount } from './support/db-queries';

// The mutation log (docs/sync.md § Writes) with the site routes as the vehicle: any write route gets it.

function siteInput(legalentitynodeid: string, overrides: Partial<CreateSiteInput> = {}): CreateSiteInput {
  return { lang: 'de', name: 'Werk Nord', street: 'Industriestraße 5', zipcode: '70565', city: 'Stuttgart', country: 'DE', legalentitynodeid, ...overrides };
}

const siteCount = (db: Db, nodeid: string) => rowCount(db, sites, eq(sites.nodeid, nodeid));

describe('sync: device registration and mutation log', () => {
  let t: TestApp;
  let a: TestTenant;
  let adminA: string;

  beforeAll(async () => {
    ({ t, a, adminA } = await createOneTenantApp());
  });
  afterAll(() => t?.close());

  describe('device registration', () => {
    it('binds a new client id to the user on first use', async () => {
      const clientid = uuidv4();
      const response = await send(t, adminA, 'GET', '/api/sync/pull', undefined, { 'x-client-id': clientid });
      expect(response.statusCode, response.body).toBe(200);
      const [row] = await t.database.db.select().from(syncClients).where(eq(syncClients.clientid, clientid));
      expect(row).toMatchObject({ usernodeid: a.admin.nodeid, legalentitynodeid: a.legalEntity.nodeid, lastMutationId: 0 });
    });

    it("refuses another user's client id with 403, on pulls and on writes", async () => {
      const clientid = uuidv7();
      expect((await send(t, adminA, 'GET', '/api/sync/pull', undefined, { 'x-client-id': clientid })).statusCode).toBe(200);
      const other = await userWithFlags(t, a.legalEntity.nodeid, 'site', [true, true, true, true]);
      const pull = await send(t, other.authorization, 'GET', '/api/sync/pull', undefined, { 'x-client-id': clientid });
      expect(pull.statusCode).toBe(403);
      expect(pull.json()).toMatchObject({ message: ACCESS_DENIED_MESSAGE });
      const nodeid = uuidv7();
      const write = await send(t, other.authorization, 'POST', '/api/sites', siteInput(a.legalEntity.nodeid, { nodeid }), mutationHeaders(clientid, 1));
      expect(write.statusCode).toBe(403);
      expect(await siteCount(t.database.db, nodeid)).toBe(0);
      expect(await lastMutationId(t.database.db, clientid)).toBe(0);
    });

    it('binds a client id used for the first time by two users at once to exactly one of them', async () => {
      const other = await userWithFlags(t, a.legalEntity.nodeid, 'site', [true, true, true, true]);
      const callers = [a.admin.nodeid, other.usernodeid].map((usernodeid) => ({ usernodeid, legalentitynodeid: a.legalEntity.nodeid }));
      for (let round = 0; round < 5; round++) {
        const clientid = uuidv7();
        const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => registerSyncClient(t.database.db, callers[i % 2]!, clientid).then((outcome) => ({ outcome, caller: callers[i % 2]! }))));
        const [row] = await t.database.db.select().from(syncClients).where(eq(syncClients.clientid, clientid));
        expect(outcomes.filter((o) => o.outcome === 'ok').map((o) => o.caller.usernodeid)).toEqual([row!.usernodeid, row!.usernodeid, row!.usernodeid, row!.usernodeid]);
        // Known now: the owner's next use and the other's agree with the row.
        expect(await registerSyncClient(t.database.db, callers.find((c) => c.usernodeid === row!.usernodeid)!, clientid)).toBe('ok');
        expect(await registerSyncClient(t.database.db, callers.find((c) => c.usernodeid !== row!.usernodeid)!, clientid)).toBe('other-user');
      }
    });

    it.each(['not-a-uuid', '12345678-1234-1234-1234-12345678901', ''])('answers 400 for a malformed client id (%j)', async (clientid) => {
      const response = await send(t, adminA, 'GET', '/api/sync/pull', undefined, { 'x-client-id': clientid });
      expect(response.statusCode).toBe(400);
      const write = await send(t, adminA, 'POST', '/api/sites', siteInput(a.legalEntity.nodeid), mutationHeaders(clientid, 1));
      expect(write.statusCode).toBe(400);
    });

    it('requires the client id on pulls and with a mutation id', async () => {
      expect((await send(t, adminA, 'GET', '/api/sync/pull', undefined)).statusCode).toBe(400);
      const write = await send(t, adminA, 'POST', '/api/sites', siteInput(a.legalEntity.nodeid), { 'x-mutation-id': '1' });
      expect(write.statusCode).toBe(400);
    });

    it.each(['0', '-1', '1.5', 'abc'])('answers 400 for a malformed mutation id (%j)', async (mid) => {
      const write = await send(t, adminA, 'POST', '/api/sites', siteInput(a.legalEntity.nodeid), mutationHeaders(uuidv7(), mid));
      expect(write.statusCode).toBe(400);
    });
  });

  describe('exactly once, in order', () => {
    it('applies a mutation once and replays its stored answer on a resend', async () => {
      const clientid = uuidv7();
      const input = siteInput(a.legalEntity.nodeid, { nodeid: uuidv7() });
      const first = await send(t, adminA, 'POST', '/api/sites', input, mutationHeaders(clientid, 1));
      expect(first.statusCode, first.body).toBe(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const created = siteRowSchema.parse(first.json());

      const replay = await send(t, adminA, 'POST', '/api/sites', input, mutationHeaders(clientid, 1));
      expect(replay.statusCode).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json()).toEqual(created);
      expect(await siteCount(t.database.db, input.nodeid!)).toBe(1);
      expect(await lastMutationId(t.database.db, clientid)).toBe(1);

      const [stored] = await t.database.db.select().from(syncMutations).where(eq(syncMutations.clientid, clientid));
      expect(stored).toMatchObject({ mutationId: 1, method: 'POST', path: '/api/sites', status: 201 });
    });

    it('hashes the body canonically: the same fields in another order are the same request', async () => {
      const clientid = uuidv7();
      const input = siteInput(a.legalEntity.nodeid, { nodeid: uuidv7() });
      expect((await send(t, adminA, 'POST', '/api/sites', input, mutationHeaders(clientid, 1))).statusCode).toBe(201);
      const reordered = Object.fromEntries(Object.entries(input).reverse());
      const replay = await send(t, adminA, 'POST', '/api/sites', reordered, mutationHeaders(clientid, 1));
      expect(replay.statusCode).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
    });

    it('answers 422 for a different request under an applied id, and changes nothing', async () => {
      const clientid = uuidv7();
      const input = siteInput(a.legalEntity.nodeid, { nodeid: uuidv7() });
      expect((await send(t, adminA, 'POST', '/api/sites', input, mutationHeaders(clientid, 1))).statusCode).toBe(201);
      const other = siteInput(a.legalEntity.nodeid, { nodeid: uuidv7(), name: 'Werk Süd' });
      const response = await send(t, adminA, 'POST', '/api/sites', other, mutationHeaders(clientid, 1));
      expect(response.statusCode).toBe(422);
      expect(await siteCount(t.database.db, other.nodeid!)).toBe(0);
      // Another path under the same id is a different request too.
      const put = await send(t, adminA, 'PUT', `/api/sites/${input.nodeid}`, { sitenodeid: input.nodeid, city: 'Ulm' }, mutationHeaders(clientid, 1));
      expect(put.statusCode).toBe(422);
      expect(await lastMutationId(t.database.db, clientid)).toBe(1);
    });

    it('answers 409 with the expected id for a gap, and applies nothing', async () => {
      const clientid = uuidv7();
      const skipped = siteInput(a.legalEntity.nodeid, { nodeid: uuidv7() });
      const gap = await send(t, adminA, 'POST', '/api/sites', skipped, mutationHeaders(clientid, 3));
      expect(gap.statusCode).toBe(409);
      expect(mutationGapSchema.parse(gap.json()).expectedMutationId).toBe(1);
      expect(await siteCount(t.database.db, skipped.nodeid!)).toBe(0);

      expect((await send(t, adminA, 'POST', '/api/sites', siteInput(a.legalEntity.nodeid, { nodeid: uuidv7() }), mutationHeaders(clientid, 1))).statusCode).toBe(201);
      const stillGap = await send(t, adminA, 'POST', '/api/sites', skipped, mutationHeaders(clientid, 3));
      expect(mutationGapSchema.parse(stillGap.json()).expectedMutationId).toBe(2);
    });

    it('keeps the order of a client: 1, 2, 3 apply in sequence; counters are per client', async () => {
      const one = uuidv7();
      const two = uuidv7();
      for (const mid of [1, 2, 3]) {
        expect((await send(t, adminA, 'POST', '/api/sites', siteInput(a.legalEntity.nodeid, { nodeid: uuidv7() }), mutationHeaders(one, mid))).statusCode).toBe(201);
      }
      expect((await send(t, adminA, 'POST', '/api/sites', siteInput(a.legalEntity.nodeid, { nodeid: uuidv7() }), mutationHeaders(two, 1))).statusCode).toBe(201);
      expect(await lastMutationId(t.database.db, one)).toBe(3);
      expect(await lastMutationId(t.database.db, two)).toBe(1);
    });

    it('leaves requests without the headers as ordinary REST calls', async () => {
      const input = siteInput(a.legalEntity.nodeid, { nodeid: uuidv7() });
      const created = await send(t, adminA, 'POST', '/api/sites', input);
      expect(created.statusCode).toBe(201);
      expect(created.headers['idempotent-replayed']).toBeUndefined();
      expect((await send(t, adminA, 'POST', '/api/sites', { ...input, name: 'Anderes Werk' })).statusCode).toBe(409);
      // A client id alone registers the device but logs nothing.
      const clientid = uuidv7();
      const plain = await send(t, adminA, 'PUT', `/api/sites/${input.nodeid}`, { sitenodeid: input.nodeid, city: 'Ulm' }, { 'x-client-id': clientid });
      expect(plain.statusCode).toBe(200);
      expect(await lastMutationId(t.database.db, clientid)).toBe(0);
    });
  });

  describe('business errors are stored and still bump the counter', () => {
    it('stores a validation 400 and replays it; the next id applies', async () => {
      const clientid = uuidv7();
      const invalid = { ...siteInput(a.legalEntity.nodeid), name: '' };
      const first = await send(t, adminA, 'POST', '/api/sites', invalid, mutationHeaders(clientid, 1));
      expect(first.statusCode).toBe(400);
      expect(await lastMutationId(t.database.db, clientid)).toBe(1);
      const replay = await send(t, adminA, 'POST', '/api/sites', invalid, mutationHeaders(clientid, 1));
      expect(replay.statusCode).toBe(400);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json()).toEqual(first.json());

      const next = await send(t, adminA, 'POST', '/api/sites', siteInput(a.legalEntity.nodeid, { nodeid: uuidv7() }), mutationHeaders(clientid, 2));
      expect(next.statusCode).toBe(201);
      expect(await lastMutationId(t.database.db, clientid)).toBe(2);
    });

    it('stores a permission 403 and replays it even once the permission is granted', async () => {
      const reader = await userWithFlags(t, a.legalEntity.nodeid, 'site', [false, true, false, false]);
      const clientid = uuidv7();
      const input = siteInput(a.legalEntity.nodeid, { nodeid: uuidv7() });
      const denied = await send(t, reader.authorization, 'POST', '/api/sites', input, mutationHeaders(clientid, 1));
      expect(denied.statusCode).toBe(403);
      expect(await lastMutationId(t.database.db, clientid)).toBe(1);
      const replay = await send(t, reader.authorization, 'POST', '/api/sites', input, mutationHeaders(clientid, 1));
      expect(replay.statusCode).toBe(403);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(await siteCount(t.database.db, input.nodeid!)).toBe(0);
    });

    it('replays a stored success even when the permission was withdrawn since', async () => {
      const clientid = uuidv7();
      const writer = await userWithFlags(t, a.legalEntity.nodeid, 'site', [true, true, true, true]);
      const input = siteInput(a.legalEntity.nodeid, { nodeid: uuidv7() });
      expect((await send(t, writer.authorization, 'POST', '/api/sites', input, mutationHeaders(clientid, 1))).statusCode).toBe(201);
      const { profiles, users } = await import('../../src/server/db/schema');
      const [user] = await t.database.db.select({ profileid: users.profileid }).from(users).where(eq(users.nodeid, writer.usernodeid));
      await t.database.db.update(profiles).set({ features: {} }).where(eq(profiles.profileid, user!.profileid));
      const replay = await send(t, writer.authorization, 'POST', '/api/sites', input, mutationHeaders(clientid, 1));
      expect(replay.statusCode).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      // The next id is checked against the permission as it is now, and the 403 is stored.
      const next = await send(t, writer.authorization, 'POST', '/api/sites', siteInput(a.legalEntity.nodeid, { nodeid: uuidv7() }), mutationHeaders(clientid, 2));
      expect(next.statusCode).toBe(403);
      expect(await lastMutationId(t.database.db, clientid)).toBe(2);
    });

    it('rolls back the work of a 404 from the service, stores it, and the next id applies', async () => {
      const clientid = uuidv7();
      const missing = uuidv7();
      const notFound = await send(t, adminA, 'PUT', `/api/sites/${missing}`, { sitenodeid: missing, city: 'Ulm' }, mutationHeaders(clientid, 1));
      expect(notFound.statusCode).toBe(404);
      expect(await lastMutationId(t.database.db, clientid)).toBe(1);
      const replay = await send(t, adminA, 'PUT', `/api/sites/${missing}`, { sitenodeid: missing, city: 'Ulm' }, mutationHeaders(clientid, 1));
      expect(replay.statusCode).toBe(404);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect((await send(t, adminA, 'POST', '/api/sites', siteInput(a.legalEntity.nodeid, { nodeid: uuidv7() }), mutationHeaders(clientid, 2))).statusCode).toBe(201);
    });

    it('rolls back a 409 (id taken by other content) inside the savepoint and stores it', async () => {
      const clientid = uuidv7();
      const input = siteInput(a.legalEntity.nodeid, { nodeid: uuidv7() });
      expect((await send(t, adminA, 'POST', '/api/sites', input)).statusCode).toBe(201);
      const duplicate = await send(t, adminA, 'POST', '/api/sites', { ...input, name: 'Anderes Werk' }, mutationHeaders(clientid, 1));
      expect(duplicate.statusCode).toBe(409);
      expect(await lastMutationId(t.database.db, clientid)).toBe(1);
      expect((await send(t, adminA, 'POST', '/api/sites', siteInput(a.legalEntity.nodeid, { nodeid: uuidv7() }), mutationHeaders(clientid, 2))).statusCode).toBe(201);
    });

    it('stores nothing for a 401: the client refreshes and resends the same id', async () => {
      const clientid = uuidv7();
      expect((await send(t, adminA, 'GET', '/api/sync/pull', undefined, { 'x-client-id': clientid })).statusCode).toBe(200);
      const input = siteInput(a.legalEntity.nodeid, { nodeid: uuidv7() });
      const expired = await send(t, 'Bearer not-a-token', 'POST', '/api/sites', input, mutationHeaders(clientid, 1));
      expect(expired.statusCode).toBe(401);
      expect(await lastMutationId(t.database.db, clientid)).toBe(0);
      expect((await send(t, adminA, 'POST', '/api/sites', input, mutationHeaders(clientid, 1))).statusCode).toBe(201);
    });
  });

  describe('infrastructure errors are retryable', () => {
    it('rolls back everything on a 5xx before commit; the same id then applies once', async () => {
      const clientid = uuidv7();
      const input = siteInput(a.legalEntity.nodeid, { nodeid: uuidv7() });
      t.faults.beforeCommit = () => {
        throw new Error('disk full');
      };
      try {
        const failed = await send(t, adminA, 'POST', '/api/sites', input, mutationHeaders(clientid, 1));
        expect(failed.statusCode).toBe(500);
      } finally {
        t.faults.beforeCommit = undefined;
      }
      expect(await siteCount(t.database.db, input.nodeid!)).toBe(0);
      expect(await lastMutationId(t.database.db, clientid)).toBe(0);
      const [stored] = await t.database.db.select({ n: count() }).from(syncMutations).where(eq(syncMutations.clientid, clientid));
      expect(stored!.n).toBe(0);

      const retried = await send(t, adminA, 'POST', '/api/sites', input, mutationHeaders(clientid, 1));
      expect(retried.statusCode).toBe(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      expect(await siteCount(t.database.db, input.nodeid!)).toBe(1);
      expect(await lastMutationId(t.database.db, clientid)).toBe(1);
    });
  });

  it('logs every authenticated write route except the session ones', async () => {
    const routes = t.app.printRoutes({ commonPrefix: false });
    expect(routes).toContain('sync/pull');
    // Logout takes no mutation id: a resend with the same headers is an ordinary logout.
    const session = await loginAs(t.app, a.admin);
    const logout = await send(t, session.authorization, 'POST', '/api/auth/logout', { token: session.refreshtoken }, mutationHeaders(uuidv7(), 5));
    expect(logout.statusCode).not.toBe(409);
  });
});
