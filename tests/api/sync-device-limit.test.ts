import { eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateSiteInput } from '../../src/shared/api/sites';
import { sites, syncClients } from '../../src/server/db/schema';
import type { TestTenant } from '../factories/tenant';
import { rowCount } from './support/db-queries';
import { userWithFlags } from './support/requests';
import { mutationHeaders, send } from './support/structure';
import { createOneTenantApp, type TestApp } from './support/test-app';

// A user registers at most NEW_DEVICES_PER_DAY new devices (X-Client-Id) in 24 hours. Every write with a random
// client id used to store a device row that is never removed (an attacker's probe filled the table from one
// account); a device known already is never refused, and a refused write is a 429 the device retries.

const LIMIT = 3;

function siteInput(legalentitynodeid: string): CreateSiteInput {
  return { nodeid: uuidv7(), lang: 'de', name: 'Werk Nord', street: 'Industriestraße 5', zipcode: '70565', city: 'Stuttgart', country: 'DE', legalentitynodeid };
}

describe('sync: new devices per user and day', () => {
  let t: TestApp;
  let a: TestTenant;
  let adminA: string;

  beforeAll(async () => {
    ({ t, a, adminA } = await createOneTenantApp({ NEW_DEVICES_PER_DAY: String(LIMIT) }));
  });
  afterAll(() => t?.close());

  const devicesOf = (usernodeid: string) => rowCount(t.database.db, syncClients, eq(syncClients.usernodeid, usernodeid));
  const siteExists = (nodeid: string) => rowCount(t.database.db, sites, eq(sites.nodeid, nodeid));
  const write = (authorization: string, clientid: string, mutationId: number) => {
    const input = siteInput(a.legalEntity.nodeid);
    return send(t, authorization, 'POST', '/api/sites', input, mutationHeaders(clientid, mutationId)).then((response) => ({ response, nodeid: input.nodeid! }));
  };

  it('refuses a new device past the limit with 429 and writes nothing; known devices and other users go on; a day later it is accepted', async () => {
    const known = Array.from({ length: LIMIT }, () => uuidv7());
    for (const clientid of known) expect((await write(adminA, clientid, 1)).response.statusCode).toBe(201);
    expect(await devicesOf(a.admin.nodeid)).toBe(LIMIT);

    const extra = uuidv7();
    const refused = await write(adminA, extra, 1);
    expect(refused.response.statusCode, refused.response.body).toBe(429);
    expect(refused.response.headers['retry-after']).toBe('3600');
    expect(refused.response.json()).toMatchObject({ details: [{ field: 'X-Client-Id' }] });
    expect(await siteExists(refused.nodeid)).toBe(0);
    expect(await devicesOf(a.admin.nodeid)).toBe(LIMIT);

    // The same through a sync batch: the batch's own request is refused as a whole, nothing of it runs.
    const batchInput = siteInput(a.legalEntity.nodeid);
    const batch = await send(t, adminA, 'POST', '/api/sync/batch', { mutations: [{ mutationId: 1, method: 'POST', path: '/api/sites', body: batchInput }] }, { 'x-client-id': uuidv7() });
    expect(batch.statusCode).toBe(429);
    expect(await siteExists(batchInput.nodeid!)).toBe(0);

    // A device known already writes on; another user of the organisation registers their own.
    expect((await write(adminA, known[0]!, 2)).response.statusCode).toBe(201);
    const colleague = await userWithFlags(t, a.legalEntity.nodeid, 'site', [true, true, true, true]);
    expect((await write(colleague.authorization, uuidv7(), 1)).response.statusCode).toBe(201);

    // 24 hours later the day's registrations have aged out: the device that waited is taken, its write applied.
    await t.database.db.update(syncClients).set({ createdAt: sql`now() - interval '25 hours'` }).where(eq(syncClients.usernodeid, a.admin.nodeid));
    const retried = await write(adminA, extra, 1);
    expect(retried.response.statusCode).toBe(201);
    expect(await devicesOf(a.admin.nodeid)).toBe(LIMIT + 1);
  });
});
