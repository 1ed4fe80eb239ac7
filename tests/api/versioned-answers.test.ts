import { eq, sql } from 'drizzle-orm';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { structureTreeSchema, type StructureTree } from '../../src/shared/api/structure';
import { ANSWER_COMPRESSION } from '../../src/server/app';
import { equipmentPools, tenantVersions } from '../../src/server/db/schema';
import { createTwoTenantApp, type TestApp } from './support/test-app';
import { call, onlyFlag, userWithFlags } from './support/requests';
import { countStatements } from './support/statement-counter';
import type { TestTenant } from '../factories/tenant';

/**
 * The dashboard's read answers kept per tenant change state (routes/versioned-answer.ts): served again without
 * their queries until the tenant writes, never across tenants, users or languages, and always after the
 * caller's own permission check.
 */
describe('read answers kept per tenant change state', () => {
  let t: TestApp;
  let a: TestTenant;
  let adminA: string;
  let adminB: string;

  beforeAll(async () => {
    ({ t, a, adminA, adminB } = await createTwoTenantApp());
  });
  afterAll(() => t?.close());

  const tree = async (authorization: string, url = '/api/allsitesareasequipments'): Promise<StructureTree> => {
    const response = await call(t, authorization, 'GET', url);
    expect(response.statusCode, response.body).toBe(200);
    return structureTreeSchema.parse(response.json());
  };
  const poolNames = (answer: StructureTree) => answer.equipmentpools.map((pool) => pool.name);
  /** The statements a request sent that read the tree's pools (the auth query reads no pool). */
  const poolReads = async (run: () => Promise<unknown>): Promise<number> => {
    const counter = countStatements(t.database);
    counter.start();
    await run();
    return counter.stop().filter((statement) => statement.includes('"equipment_pools"')).length;
  };
  const createPool = async (authorization: string, name: string): Promise<string> => {
    const response = await call(t, authorization, 'POST', '/api/equipmentpools', { lang: 'de', name });
    expect(response.statusCode, response.body).toBe(201);
    return (response.json() as { nodeid: string }).nodeid;
  };

  it('answers again without its queries, and shows a write at once', async () => {
    const pool = await createPool(adminA, 'Prüfstände');
    expect(poolNames(await tree(adminA))).toContain('Prüfstände');
    expect(await poolReads(() => tree(adminA))).toBe(0);

    const renamed = await call(t, adminA, 'PUT', `/api/equipmentpools/${pool}`, { lang: 'de', name: 'Prüffeld' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    let answer: StructureTree | undefined;
    expect(await poolReads(async () => (answer = await tree(adminA)))).toBe(1);
    expect(poolNames(answer!)).toContain('Prüffeld');
    expect(poolNames(answer!)).not.toContain('Prüfstände');
  });

  it('keeps tenants apart: another tenant’s write changes nothing here, its answer holds only its own rows', async () => {
    await createPool(adminA, 'Nur bei A');
    await tree(adminA);
    await createPool(adminB, 'Nur bei B');
    expect(await poolReads(() => tree(adminA))).toBe(0);
    expect(poolNames(await tree(adminA))).not.toContain('Nur bei B');
    const ofB = poolNames(await tree(adminB));
    expect(ofB).toContain('Nur bei B');
    expect(ofB).not.toContain('Nur bei A');
  });

  it('keeps the subscribed tree per user and the pool names per language', async () => {
    const followed = await createPool(adminA, 'Gefolgt');
    const followedBy = await call(t, adminA, 'POST', '/api/subscriptions', { usernodeid: a.admin.nodeid, equipmentpoolnodeid: followed });
    expect(followedBy.statusCode, followedBy.body).toBe(200);
    const reader = await userWithFlags(t, a.legalEntity.nodeid, 'equipment', onlyFlag('read'));

    expect(poolNames(await tree(adminA, '/api/sitesareasequipments'))).toEqual(['Gefolgt']);
    expect(poolNames(await tree(reader.authorization, '/api/sitesareasequipments'))).toEqual([]);
    expect(poolNames(await tree(adminA, '/api/sitesareasequipments'))).toEqual(['Gefolgt']);

    const english = await call(t, adminA, 'PUT', `/api/equipmentpools/${followed}`, { lang: 'en', name: 'Followed' });
    expect(english.statusCode, english.body).toBe(200);
    expect(poolNames(await tree(adminA, '/api/allsitesareasequipments?lang=en'))).toContain('Followed');
    expect(poolNames(await tree(adminA, '/api/allsitesareasequipments?lang=de'))).toContain('Gefolgt');
    expect(poolNames(await tree(adminA, '/api/allsitesareasequipments?lang=en'))).toContain('Followed');
  });

  it('checks the caller’s permission on every request, also when the answer is kept', async () => {
    await tree(adminA);
    const noEquipment = await userWithFlags(t, a.legalEntity.nodeid, 'equipment', [false, false, false, false]);
    expect((await call(t, noEquipment.authorization, 'GET', '/api/allsitesareasequipments')).statusCode).toBe(403);
    const noSites = await userWithFlags(t, a.legalEntity.nodeid, 'site', [false, false, false, false]);
    await call(t, adminA, 'GET', '/api/sites');
    expect((await call(t, noSites.authorization, 'GET', '/api/sites')).statusCode).toBe(403);
  });

  it('sends the same answer plain, gzip and brotli', async () => {
    // Enough pools for an answer above the compression threshold.
    for (let n = 1; n <= 15; n++) await createPool(adminA, `Komprimiert ${n}: Vorrichtungen und Prüfmittel der Montagelinie`);
    const ask = (encoding: string) => t.app.inject({ method: 'GET', url: '/api/allsitesareasequipments', headers: { authorization: adminA, 'accept-encoding': encoding } });
    const plain = await ask('identity');
    const gzip = await ask('gzip');
    const brotli = await ask('br');
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    expect(plain.body.length).toBeGreaterThan(ANSWER_COMPRESSION.threshold);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(plain.body);
    expect(poolNames(structureTreeSchema.parse(JSON.parse(plain.body)))).toContain('Komprimiert 15: Vorrichtungen und Prüfmittel der Montagelinie');
    // A small answer stays plain, as any other: tenant B's list of plants.
    const small = await t.app.inject({ method: 'GET', url: '/api/sites', headers: { authorization: adminB, 'accept-encoding': 'br' } });
    expect(small.body.length).toBeLessThan(ANSWER_COMPRESSION.threshold);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual([]);
  });

  it('builds an answer once for the requests that miss it together', async () => {
    await createPool(adminA, 'Gleichzeitig');
    const answers: StructureTree[] = [];
    const reads = await poolReads(async () => answers.push(...(await Promise.all(Array.from({ length: 8 }, () => tree(adminA))))));
    expect(reads).toBe(1);
    for (const answer of answers) expect(poolNames(answer)).toContain('Gleichzeitig');
  });

  it('reads again when the version row was written outside the change feed (a restore), even at the same version', async () => {
    const pool = await createPool(adminA, 'Vor der Sicherung');
    await tree(adminA);
    const le = a.legalEntity.nodeid;
    // A restore or `db:seed --reset` while the server runs: the rows change and the version row is written again,
    // with a version that may equal one this server has seen.
    await t.database.db.transaction(async (tx) => {
      await tx.update(equipmentPools).set({ name: { de: 'Aus der Sicherung' } }).where(eq(equipmentPools.nodeid, pool));
      await tx.update(tenantVersions).set({ version: sql`${tenantVersions.version}` }).where(eq(tenantVersions.legalentitynodeid, le));
    });
    expect(poolNames(await tree(adminA))).toContain('Aus der Sicherung');
  });
});
