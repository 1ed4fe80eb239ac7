import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../src/shared/api/errors';
import { buildApp, type App } from '../../src/server/app';
import { openDatabase, type Database } from '../../src/server/db/client';
import { signAccessTokenAt } from '../../src/server/auth/tokens';
import { TEST_JWT_SECRET, testConfig } from './support/test-app';

// A PostgreSQL that cannot be reached (a restart, a network cut) is an outage, not a bug: 503, which a device
// retries and which never offers to set its write aside (a 500 after a few attempts does). A real closed port on
// this machine, no stand-in for the driver.

/** A port on 127.0.0.1 that was free a moment ago: nothing listens there. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the database cannot be reached', () => {
  let app: App;
  let database: Database;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'anlagenbuch-unreachable-'));
    database = await openDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${await closedPort()}/postgres`, poolSize: 2 });
    app = await buildApp({ config: testConfig(dataDir), database });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers 503 with the API error body to a login, a read and an outbox write; the health check says so too', async () => {
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'techniker@anlagenbuch.demo', password: 'Demo!2026' } });
    expect(login.statusCode, login.body).toBe(503);
    expect(apiErrorSchema.parse(login.json())).toMatchObject({ statusCode: 503, message: 'Temporarily unavailable, please retry' });

    const now = Math.floor(Date.now() / 1000);
    const token = await signAccessTokenAt(TEST_JWT_SECRET, { usernodeid: uuidv7(), legalentitynodeid: uuidv7(), sid: uuidv7() }, now, now + 600);
    const headers = { authorization: `Bearer ${token}` };
    expect((await app.inject({ method: 'GET', url: '/api/sites', headers })).statusCode).toBe(503);
    const write = await app.inject({ method: 'POST', url: '/api/sites', headers: { ...headers, 'x-client-id': uuidv7(), 'x-mutation-id': '1' }, payload: { lang: 'de', name: 'Werk' } });
    expect(write.statusCode, write.body).toBe(503);

    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(503);
  });
});
