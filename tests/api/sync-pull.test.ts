import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../src/shared/api/errors';
import { pullResponseSchema, type PullResponse, type SyncChange } from '../../src/shared/api/sync';
import type { Db, Tx } from '../../src/server/db/client';
import { sites, tombstones, units } from '../../src/server/db/schema';
import { purgeTombstones } from '../../src/server/jobs/purge-tombstones';
import { nextVersion, recordTombstones } from '../../src/server/services/change-feed';
import { buildArea, buildEquipment, buildSite, insertEquipmentType, insertManufacturer } from '../factories/structure';
import { insertUser, type TestTenant } from '../factories/tenant';
import { call } from './support/requests';
import { mutationHeaders, send } from './support/structure';
import { createTwoTenantApp, type TestApp } from './support/test-app';

// The pull side of the change feed (docs/sync.md § Pull), on factory data shaped like the demo plant.

/** Runs `work` as one change-feed write: one transaction, one version for every row it writes. */
async function inOneVersion(db: Db, legalentitynodeid: string, work: (tx: Tx, version: number) => Promise<void>): Promise<number> {
  return db.transaction(async (tx) => {
    const version = await nextVersion(tx, legalentitynodeid);
    await work(tx, version);
    return version;
  });
}

/** A plant in one version, like the seed: sites, areas, a type chain and machines. */
async function plantInOneVersion(db: Db, le: string, size: { sites: number; areasPerSite: number; machinesPerArea: number }): Promise<number> {
  const type = await insertEquipmentType(db, { legalentitynodeid: le });
  return inOneVersion(db, le, async (tx, version) => {
    for (let s = 0; s < size.sites; s++) {
      const [site] = await tx.insert(sites).values(buildSite({ legalentitynodeid: le, version })).returning();
      const { areas, equipment } = await import('../../src/server/db/schema');
      for (let a = 0; a < size.areasPerSite; a++) {
        const [area] = await tx.insert(areas).values(buildArea({ legalentitynodeid: le, sitenodeid: site!.nodeid, version })).returning();
        const machines = Array.from({ length: size.machinesPerArea }, () =>
          buildEquipment({ legalentitynodeid: le, equipmenttypenodeid: type.nodeid, areanodeid: area!.nodeid, version }),
        );
        await tx.insert(equipment).values(machines);
      }
    }
  });
}

describe('sync: pull', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let adminA: string;
  let adminB: string;
  const clientA = uuidv7();
  const clientB = uuidv7();

  const pull = async (authorization: string, clientid: string, cursor: number, limit?: number): Promise<PullResponse> => {
    const url = `/api/sync/pull?cursor=${cursor}${limit === undefined ? '' : `&limit=${limit}`}`;
    const response = await send(t, authorization, 'GET', url, undefined, { 'x-client-id': clientid });
    expect(response.statusCode, response.body).toBe(200);
    return pullResponseSchema.parse(response.json());
  };

  /** Pages until hasMore is false; checks the paging rules on the way. */
  const pullAll = async (authorization: string, clientid: string, cursor: number, limit: number) => {
    const pages: PullResponse[] = [];
    let current = cursor;
    for (let guard = 0; guard < 1000; guard++) {
      const page = await pull(authorization, clientid, current, limit);
      pages.push(page);
      for (const change of page.changes) {
        if (change.version > 0) expect(change.version).toBeGreaterThan(current);
        expect(change.version).toBeLessThanOrEqual(page.cursor);
      }
      expect(page.cursor).toBeGreaterThanOrEqual(current);
      current = page.cursor;
      if (!page.hasMore) break;
    }
    return { pages, changes: pages.flatMap((p) => p.changes), cursor: current };
  };

  const siteInput = (overrides: Record<string, unknown> = {}) => ({
    lang: 'de', name: 'Werk', street: 'Weg 1', zipcode: '12345', city: 'Ulm', country: 'DE', legalentitynodeid: a.legalEntity.nodeid, nodeid: uuidv7(), ...overrides,
  });
  const post = (authorization: string, url: string, payload: Record<string, unknown>) => call(t, authorization, 'POST', url, payload);

  beforeAll(async () => {
    ({ t, a, b, adminA, adminB } = await createTwoTenantApp());

    const le = a.legalEntity.nodeid;
    // Global reference data (seeded at every start in production).
    await t.database.db.insert(units).values({ nodeid: uuidv7(), unitid: 'HUR', namespace: 'unece', symbol: 'h', displayName: { plural: { de: 'Stunden', en: 'hours' } } });
    await insertManufacturer(t.database.db, { legalentitynodeid: le });
    // The seed's shape: one big version, then single writes.
    await plantInOneVersion(t.database.db, le, { sites: 3, areasPerSite: 3, machinesPerArea: 4 });
    for (let i = 0; i < 12; i++) expect((await post(adminA, '/api/sites', siteInput({ name: `Werk ${i}` }))).statusCode).toBe(201);
    await plantInOneVersion(t.database.db, le, { sites: 1, areasPerSite: 2, machinesPerArea: 5 });
    // Another tenant's data, which A must never see.
    await plantInOneVersion(t.database.db, b.legalEntity.nodeid, { sites: 2, areasPerSite: 1, machinesPerArea: 2 });
    expect((await post(adminB, '/api/sites', { ...siteInput(), legalentitynodeid: b.legalEntity.nodeid })).statusCode).toBe(201);
  });
  afterAll(() => t?.close());

  it('pages through everything in version order, never splitting a version', async () => {
    const whole = await pullAll(adminA, clientA, 0, 5000);
    expect(whole.pages).toHaveLength(1);
    const paged = await pullAll(adminA, clientA, 0, 5);
    expect(paged.pages.length).toBeGreaterThan(3);

    const key = (c: SyncChange) => `${c.kind}:${c.nodeid}:${c.version}`;
    expect(paged.changes.map(key).sort()).toEqual(whole.changes.map(key).sort());
    expect(paged.cursor).toBe(whole.cursor);

    const versions = paged.changes.map((c) => c.version);
    expect(versions).toEqual([...versions].sort((x, y) => x - y));
    // A version lives on exactly one page, even the big ones with more rows than the limit.
    const pageOf = new Map<number, number>();
    paged.pages.forEach((page, index) => {
      for (const change of page.changes) {
        expect(pageOf.get(change.version) ?? index).toBe(index);
        pageOf.set(change.version, index);
      }
    });
    const counts = new Map<number, number>();
    for (const v of versions) counts.set(v, (counts.get(v) ?? 0) + 1);
    expect(Math.max(...counts.values())).toBeGreaterThan(5);

    const kinds = new Set(whole.changes.map((c) => c.kind));
    for (const kind of ['units', 'manufacturers', 'users', 'sites', 'areas', 'equipment', 'brands', 'equipmenttypes'] as const) {
      expect(kinds, kind).toContain(kind);
    }
  });

  it('sends records in API shape with dates as epoch milliseconds', async () => {
    const { changes } = await pullAll(adminA, clientA, 0, 5000);
    const machine = changes.find((c) => c.kind === 'equipment')!;
    expect(typeof machine.data!.constructiondate).toBe('number');
    expect(machine.data).toMatchObject({ nodeid: machine.nodeid, legalentitynodeid: a.legalEntity.nodeid });
    expect(machine.data).not.toHaveProperty('createdAt');
  });

  it('never sends another tenant\'s rows', async () => {
    const { changes } = await pullAll(adminA, clientA, 0, 5000);
    for (const change of changes) {
      if (change.data && 'legalentitynodeid' in change.data) expect(change.data.legalentitynodeid).toBe(a.legalEntity.nodeid);
    }
    const fromB = await pullAll(adminB, clientB, 0, 5000);
    const idsOfA = new Set(changes.filter((c) => c.version > 0).map((c) => c.nodeid));
    expect(fromB.changes.filter((c) => idsOfA.has(c.nodeid))).toEqual([]);
  });

  it('sends users as display data only: never hashes, history or 2FA secrets', async () => {
    await insertUser(t.database.db, { legalentitynodeid: a.legalEntity.nodeid, profileid: a.adminProfile.profileid, twofaSecret: 'JBSWY3DPEHPK3PXP', version: 1 });
    const { changes } = await pullAll(adminA, clientA, 0, 5000);
    const people = changes.filter((c) => c.kind === 'users');
    expect(people.length).toBeGreaterThanOrEqual(2);
    for (const person of people) {
      expect(Object.keys(person.data!).sort()).toEqual(['active', 'email', 'givenname', 'image', 'nodeid', 'profileid', 'surname']);
    }
    const text = JSON.stringify(people);
    expect(text).not.toMatch(/argon2|JBSWY3DPEHPK3PXP|password|twofa/i);
  });

  it('pulls only what changed since the cursor, deletes as tombstones', async () => {
    const start = await pullAll(adminA, clientA, 0, 5000);
    const empty = await pull(adminA, clientA, start.cursor);
    expect(empty).toMatchObject({ changes: [], hasMore: false, cursor: start.cursor });

    const created = siteInput({ name: 'Werk Neu' });
    expect((await post(adminA, '/api/sites', created)).statusCode).toBe(201);
    const afterCreate = await pull(adminA, clientA, start.cursor);
    expect(afterCreate.changes).toEqual([expect.objectContaining({ kind: 'sites', nodeid: created.nodeid, data: expect.objectContaining({ name: 'Werk Neu' }) })]);

    const removed = await call(t, adminA, 'DELETE', `/api/sites/${created.nodeid}`, { sitenodeid: created.nodeid });
    expect(removed.statusCode).toBe(200);
    const afterDelete = await pull(adminA, clientA, afterCreate.cursor);
    expect(afterDelete.changes).toEqual([{ kind: 'sites', nodeid: created.nodeid, version: afterCreate.cursor + 1, deleted: true }]);
  });

  it('maps tombstones named by table to sync kinds, and leaves out tables no device mirrors', async () => {
    const le = a.legalEntity.nodeid;
    const start = await pullAll(adminA, clientA, 0, 5000);
    const [model, reading, subscription, token] = [uuidv7(), uuidv7(), uuidv7(), uuidv7()];
    const version = await inOneVersion(t.database.db, le, async (tx, v) => {
      await recordTombstones(tx, le, 'shift_models', [model], v);
      await recordTombstones(tx, le, 'counter_readings', [reading], v);
      await recordTombstones(tx, le, 'structure_subscriptions', [subscription], v);
      await recordTombstones(tx, le, 'refresh_tokens', [token], v);
    });
    const page = await pull(adminA, clientA, start.cursor);
    expect(page.changes).toEqual([
      { kind: 'shiftmodels', nodeid: model, version, deleted: true },
      { kind: 'subscriptions', nodeid: subscription, version, deleted: true },
      { kind: 'counterreadings', nodeid: reading, version, deleted: true },
    ]);
    expect(page.cursor).toBe(version);
  });

  it('takes cursor and limit as decimal digits only: any other form is a 400 naming the parameter, not a full pull', async () => {
    const get = (query: string) => send(t, adminA, 'GET', `/api/sync/pull?${query}`, undefined, { 'x-client-id': clientA });
    const cases: Array<[string, string]> = [
      ['cursor=0x10', 'cursor'], ['cursor=0b11', 'cursor'], ['cursor=0o7', 'cursor'], ['cursor=1e1', 'cursor'],
      ['cursor=%0A5%0A', 'cursor'], ['cursor=%205', 'cursor'], ['cursor=', 'cursor'], ['cursor=%20', 'cursor'],
      ['cursor=-1', 'cursor'], ['cursor=1.5', 'cursor'], ['cursor=+5', 'cursor'], ['cursor=1&cursor=2', 'cursor'],
      ['cursor=99999999999999999', 'cursor'], ['limit=0x2', 'limit'], ['limit=', 'limit'], ['limit=1e3', 'limit'], ['limit=0', 'limit'],
      ['limit=5001', 'limit'],
    ];
    for (const [query, field] of cases) {
      const response = await get(query);
      expect(response.statusCode, query).toBe(400);
      expect(apiErrorSchema.parse(response.json()).details?.map((d) => d.field), query).toEqual([field]);
    }
    // Absent parameters keep their defaults; plain digits (a leading zero too) are read as before.
    expect(pullResponseSchema.parse((await get('')).json()).changes.length).toBeGreaterThan(0);
    const two = await get('cursor=0&limit=02');
    expect(two.statusCode).toBe(200);
    expect(pullResponseSchema.parse(two.json()).hasMore).toBe(true);
  });

  it('answers reset to a cursor ahead of the server (restored from a backup, scenario 15)', async () => {
    const { cursor } = await pullAll(adminA, clientA, 0, 5000);
    expect((await pull(adminA, clientA, cursor + 10)).reset).toBe(true);
  });

  it('tells the client its last applied mutation id', async () => {
    const clientid = uuidv7();
    expect((await pull(adminA, clientid, 0, 1)).lastMutationId).toBe(0);
    const write = await send(t, adminA, 'POST', '/api/sites', siteInput(), mutationHeaders(clientid, 1));
    expect(write.statusCode).toBe(201);
    expect((await pull(adminA, clientid, 0, 1)).lastMutationId).toBe(1);
  });

  it('answers reset for a cursor older than tombstone retention (scenario 11)', async () => {
    const before = await pullAll(adminA, clientA, 0, 5000);
    const doomed = siteInput({ name: 'Werk Alt' });
    expect((await post(adminA, '/api/sites', doomed)).statusCode).toBe(201);
    await call(t, adminA, 'DELETE', `/api/sites/${doomed.nodeid}`, { sitenodeid: doomed.nodeid });
    const current = await pullAll(adminA, clientA, before.cursor, 5000);

    // The tombstone is 100 days old; retention is 90 days.
    await t.database.db.update(tombstones).set({ deletedAt: new Date(Date.now() - 100 * 86_400_000) }).where(eq(tombstones.nodeid, doomed.nodeid!));
    const result = await purgeTombstones(t.app.serviceContext, 90);
    expect(result.tombstones).toBeGreaterThanOrEqual(1);
    // Purging twice (a second instance) finds nothing more to do.
    expect((await purgeTombstones(t.app.serviceContext, 90)).tombstones).toBe(0);

    const stale = await pull(adminA, clientA, before.cursor);
    expect(stale).toMatchObject({ reset: true, cursor: 0, changes: [] });
    // A device that already has the delete goes on as before; a full resync no longer contains the site.
    expect((await pull(adminA, clientA, current.cursor)).reset).toBeUndefined();
    const full = await pullAll(adminA, clientA, 0, 5000);
    expect(full.changes.some((c) => c.nodeid === doomed.nodeid)).toBe(false);
  });
});
