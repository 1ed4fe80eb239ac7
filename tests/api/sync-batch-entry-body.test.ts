import { v7 as uuidv7 } from 'uuid';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { syncBatchResponseSchema } from '../../src/shared/api/sync';
import { createOneTenantApp, type TestApp } from './support/test-app';

// A batch entry runs as a request of its own through app.inject (routes/sync/index.ts), which has no network socket.
// An entry answered before its body was read — its body, as the batch re-serialises it, over the route's body limit:
// JSON.stringify writes the number 1e20 as 100000000000000000000, so a batch under 1 MiB can carry an entry of
// several megabytes — left the body deadline's timer of plugins/body-timeout.ts running; when it fired it called
// destroy() on a socket that has none. In a timer that is an uncaught exception: the server process ends, for every
// tenant, a quarter of an hour after one signed-in user's batch (found by a security review).

const NUMBERS = 200_000;

describe('a batch entry answered before its body was read', () => {
  let t: TestApp;
  let adminA: string;

  beforeAll(async () => {
    ({ t, adminA } = await createOneTenantApp());
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(() => t?.close());

  it('is a 413 for that entry, and no timer of it fires later on a socket it does not have', async () => {
    // why fake timers: the body deadline of such an entry is 15 minutes; only setTimeout is faked, and the clock
    // still moves with real time, so the database and the request run as usual.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    const entryBody = `{"pad":[${Array.from({ length: NUMBERS }, () => '1e20').join(',')}]}`;
    const payload = `{"mutations":[{"mutationId":1,"method":"POST","path":"/api/notifications","body":${entryBody}}]}`;
    expect(Buffer.byteLength(payload)).toBeLessThan(1024 * 1024);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/sync/batch',
      headers: { authorization: adminA, 'x-client-id': uuidv7(), 'content-type': 'application/json' },
      payload,
    });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    const [result] = syncBatchResponseSchema.parse(response.json()).results;
    expect(result).toMatchObject({ mutationId: 1, status: 413 });

    // Everything the entry left behind runs now: nothing may throw (in the server a throw here ends the process).
    expect(() => vi.advanceTimersByTime(16 * 60_000)).not.toThrow();
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
  });
});
