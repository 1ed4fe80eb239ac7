import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mutationGapSchema, pullResponseSchema } from '../../src/shared/api/sync';
import { sites, syncClients, syncMutations } from '../../src/server/db/schema';
import { nextVersion } from '../../src/server/services/change-feed';
import { FaultInjector } from '../../src/server/plugins/fault-injection';
import { buildSite } from '../factories/structure';
import { insertTenant, loginAs, type TestTenant } from '../factories/tenant';
import { createOneTenantApp, createTestApp, TEST_JWT_SECRET, type TestApp } from './support/test-app';

// Fault scenarios of docs/sync.md against the real server on a real port (the test-only fault plugin).

const onPostgres = Boolean(process.env.TEST_DATABASE_URL?.trim());

describe('sync: fault scenarios', () => {
  const faults = new FaultInjector();
  let t: TestApp;
  let a: TestTenant;
  let authorization: string;
  let base: string;

  const siteInput = () => ({ lang: 'de', name: 'Werk', street: 'Weg 1', zipcode: '12345', city: 'Ulm', country: 'DE', legalentitynodeid: a.legalEntity.nodeid, nodeid: uuidv7() });
  const sendTo = (url: string, auth: string, clientid: string, mid: number, body: unknown, method = 'POST', path = '/api/sites') =>
    fetch(`${url}${path}`, {
      method,
      headers: { authorization: auth, 'content-type': 'application/json', 'x-client-id': clientid, 'x-mutation-id': String(mid) },
      body: JSON.stringify(body),
    });
  const send = (clientid: string, mid: number, body: unknown) => sendTo(base, authorization, clientid, mid, body);
  const siteRows = async (nodeid: string) => (await t.database.db.select({ n: count() }).from(sites).where(eq(sites.nodeid, nodeid)))[0]!.n;
  const lastMid = async (clientid: string) => (await t.database.db.select({ last: syncClients.lastMutationId }).from(syncClients).where(eq(syncClients.clientid, clientid)))[0]?.last;

  beforeAll(async () => {
    ({ t, a, adminA: authorization } = await createOneTenantApp({}, { syncFaults: faults }));
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterEach(() => faults.clear());
  afterAll(() => t?.close());

  it('scenario 1/3: the answer is lost after commit; the resend gets the stored answer, no duplicate', async () => {
    const clientid = uuidv7();
    const input = siteInput();
    faults.inject({ kind: 'drop-after-commit', path: '/api/sites' });
    await expect(send(clientid, 1, input)).rejects.toThrow();
    expect(faults.fired).toHaveLength(1);
    expect(await siteRows(input.nodeid)).toBe(1);

    const resend = await send(clientid, 1, input);
    expect(resend.status).toBe(201);
    expect(resend.headers.get('idempotent-replayed')).toBe('true');
    expect((await resend.json()) as unknown).toMatchObject({ nodeid: input.nodeid });
    expect(await siteRows(input.nodeid)).toBe(1);
  });

  it('a body cut off by the network is not recorded: the resend with the whole body under the same id applies once', async () => {
    const clientid = uuidv7();
    const input = siteInput();
    const body = JSON.stringify(input);
    // Half the body, then the connection dies (a tablet leaving the Wi-Fi mid-request).
    await new Promise<void>((resolve) => {
      const url = new URL(`${base}/api/sites`);
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(
          `POST /api/sites HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: ${authorization}\r\nContent-Type: application/json\r\n` +
            `X-Client-Id: ${clientid}\r\nX-Mutation-Id: 1\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, body.length / 2)}`,
          () => setTimeout(() => socket.destroy(), 50),
        );
      });
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });
    // The server noticed the cut (give it a moment), stored nothing for mutation 1 and wrote nothing.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await t.database.db.select({ n: count() }).from(syncMutations).where(eq(syncMutations.clientid, clientid))).toEqual([{ n: 0 }]);
    expect(await siteRows(input.nodeid)).toBe(0);

    const resend = await send(clientid, 1, input);
    expect(resend.status, await resend.clone().text()).toBe(201);
    expect(await siteRows(input.nodeid)).toBe(1);
  });

  it('a 5xx after commit: the resend replays, applied once', async () => {
    const clientid = uuidv7();
    const input = siteInput();
    faults.inject({ kind: 'fail-after-commit' });
    expect((await send(clientid, 1, input)).status).toBe(500);
    const resend = await send(clientid, 1, input);
    expect(resend.status).toBe(201);
    expect(resend.headers.get('idempotent-replayed')).toBe('true');
    expect(await siteRows(input.nodeid)).toBe(1);
  });

  it('a 5xx before commit rolls back everything; the same mid then applies once', async () => {
    const clientid = uuidv7();
    const input = siteInput();
    faults.inject({ kind: 'fail-before-commit' });
    expect((await send(clientid, 1, input)).status).toBe(500);
    expect(await siteRows(input.nodeid)).toBe(0);
    expect(await lastMid(clientid)).toBe(0);
    const resend = await send(clientid, 1, input);
    expect(resend.status).toBe(201);
    expect(resend.headers.get('idempotent-replayed')).toBeNull();
    expect(await siteRows(input.nodeid)).toBe(1);
  });

  it('scenario 8: a resend while the first send is still committing (two tabs) is applied once', async () => {
    const clientid = uuidv7();
    const input = siteInput();
    faults.inject({ kind: 'delay-before-commit', delayMs: 300 });
    const [first, second] = await Promise.all([send(clientid, 1, input), new Promise((r) => setTimeout(r, 50)).then(() => send(clientid, 1, input))]);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect([first.headers.get('idempotent-replayed'), second.headers.get('idempotent-replayed')].filter(Boolean)).toEqual(['true']);
    expect(await siteRows(input.nodeid)).toBe(1);
  });

  it('scenario 4: mutation n lost, n+1 arrives: 409, then the resend in order applies both', async () => {
    const clientid = uuidv7();
    const first = siteInput();
    const second = siteInput();
    const gap = await send(clientid, 2, second);
    expect(gap.status).toBe(409);
    expect(mutationGapSchema.parse(await gap.json()).expectedMutationId).toBe(1);
    expect((await send(clientid, 1, first)).status).toBe(201);
    expect((await send(clientid, 2, second)).status).toBe(201);
    expect(await siteRows(first.nodeid)).toBe(1);
    expect(await siteRows(second.nodeid)).toBe(1);
  });

  it('scenario 15: server restored from a backup behind the client: 409 with a lower expected id, never a silent skip', async () => {
    const clientid = uuidv7();
    for (const mid of [1, 2, 3]) expect((await send(clientid, mid, siteInput())).status).toBe(201);
    // The restore: the server forgets mutations 2 and 3 (and their rows, not needed for the point here).
    await t.database.db.update(syncClients).set({ lastMutationId: 1 }).where(eq(syncClients.clientid, clientid));
    await t.database.db.delete(syncMutations).where(eq(syncMutations.clientid, clientid));
    const next = siteInput();
    const response = await send(clientid, 4, next);
    expect(response.status).toBe(409);
    expect(mutationGapSchema.parse(await response.json()).expectedMutationId).toBe(2);
    expect(await siteRows(next.nodeid)).toBe(0);
    // A replay of an id the server no longer has a record of is refused, not answered with a made-up success.
    expect((await send(clientid, 1, siteInput())).status).toBe(422);
  });

  it.skipIf(!onPostgres)('scenario 10: writers committing out of order while a client pulls; the pull never skips one', async () => {
    // why PostgreSQL only: PGlite has one connection, so two write transactions can never be open at once.
    const le = a.legalEntity.nodeid;
    const clientid = uuidv7();
    const pull = async (cursor: number) => {
      const response = await fetch(`${base}/api/sync/pull?cursor=${cursor}`, { headers: { authorization, 'x-client-id': clientid } });
      return pullResponseSchema.parse(await response.json());
    };
    const start = (await pull(0)).cursor;

    let releaseFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstHasVersion!: () => void;
    const firstTookVersion = new Promise<void>((resolve) => (firstHasVersion = resolve));
    const firstSite = buildSite({ legalentitynodeid: le });
    const secondSite = buildSite({ legalentitynodeid: le });
    let secondVersion: number | undefined;

    const first = t.database.db.transaction(async (tx) => {
      const version = await nextVersion(tx, le);
      await tx.insert(sites).values({ ...firstSite, version });
      firstHasVersion();
      await firstMayCommit;
      return version;
    });
    await firstTookVersion;
    // The second writer starts later and would commit first, but its version waits for the first's row lock.
    const second = t.database.db.transaction(async (tx) => {
      await tx.select({ n: count() }).from(sites);
      secondVersion = await nextVersion(tx, le);
      await tx.insert(sites).values({ ...secondSite, version: secondVersion });
      return secondVersion;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(secondVersion).toBeUndefined();
    const during = await pull(start);
    expect(during.changes).toEqual([]);
    expect(during.cursor).toBe(start);

    releaseFirst();
    const [v1, v2] = await Promise.all([first, second]);
    expect(v2).toBe(v1 + 1);
    const after = await pull(during.cursor);
    expect(after.changes.map((c) => c.nodeid)).toEqual([firstSite.nodeid, secondSite.nodeid]);
  });
});

describe.skipIf(!onPostgres)('sync: scenario 16, the same mutation at two server instances at once', () => {
  // why PostgreSQL only: two processes cannot share one embedded PGlite database; PostgreSQL is what production
  // runs several instances against.
  const processes: ChildProcess[] = [];
  let dataDir: string;
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    dataDir = await mkdtemp(join(tmpdir(), 'anlagenbuch-two-'));
  }, 60_000);
  afterAll(async () => {
    for (const child of processes) if (child.pid && child.exitCode === null) child.kill('SIGTERM');
    await Promise.all(processes.map((child) => (child.exitCode === null ? new Promise((r) => child.once('exit', r)) : undefined)));
    await t?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function startInstance(port: number): Promise<string> {
    const dbUrl = databaseUrlOf(t);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: { ...process.env, DATABASE_URL: dbUrl, PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: 'false', JWT_SECRET: TEST_JWT_SECRET, DATA_DIR: join(dataDir, String(port)), CLIENT_DIST: join(dataDir, 'none'), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    processes.push(child);
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 200; i++) {
      if (child.exitCode !== null) throw new Error(`instance on ${port} exited with ${child.exitCode}`);
      try {
        if ((await fetch(`${url}/api/health`)).ok) return url;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error(`instance on ${port} did not start`);
  }

  it('applies it exactly once', async () => {
    const [one, two] = await Promise.all([startInstance(39_000 + Math.floor(Math.random() * 500)), startInstance(39_600 + Math.floor(Math.random() * 500))]);
    const a = await insertTenant(t.database.db, { name: 'Tenant A' });
    const { authorization } = await loginAs(t.app, a.admin);
    const clientid = uuidv7();
    const input = { lang: 'de', name: 'Werk', street: 'Weg 1', zipcode: '12345', city: 'Ulm', country: 'DE', legalentitynodeid: a.legalEntity.nodeid, nodeid: uuidv7() };
    const fire = (url: string) =>
      fetch(`${url}/api/sites`, { method: 'POST', headers: { authorization, 'content-type': 'application/json', 'x-client-id': clientid, 'x-mutation-id': '1' }, body: JSON.stringify(input) });
    const answers = await Promise.all([fire(one), fire(two), fire(one), fire(two)]);
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(answers.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    const [row] = await t.database.db.select({ n: count() }).from(sites).where(eq(sites.nodeid, input.nodeid));
    expect(row!.n).toBe(1);
  }, 60_000);
});

/** The URL of the test app's own database on the TEST_DATABASE_URL server (support/test-database.ts). */
function databaseUrlOf(t: TestApp): string {
  const pool = (t.database.db as unknown as { $client: { options: { connectionString: string } } }).$client;
  return pool.options.connectionString;
}
