import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyDeadlineMs } from '../../src/server/plugins/body-timeout';
import { createOneTenantApp, type TestApp } from './support/test-app';

/**
 * Found by an attacker's probe: a login whose body dripped in a byte every 15 s held its connection open for as
 * long as the sender liked (no body deadline, no request timeout), before any login was checked.
 */
describe('a request body that does not arrive in time', () => {
  let t: TestApp;
  let adminA: string;
  let port: number;

  beforeAll(async () => {
    ({ t, adminA } = await createOneTenantApp({ REQUEST_BODY_TIMEOUT_MS: '500' }));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t?.close());

  /** Sends the headers and `first` of a body of `length`, then a byte every 100 ms; resolves with what came back. */
  function drip(path: string, length: number, first: string, authorization?: string): Promise<{ answer: string; closed: boolean }> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      const ticker = setInterval(() => socket.writable && socket.write(' '), 100);
      const done = (closed: boolean) => {
        clearInterval(ticker);
        clearTimeout(giveUp);
        socket.destroy();
        resolve({ answer, closed });
      };
      // The test's own bound: far beyond the server's half second.
      const giveUp = setTimeout(() => done(false), 10_000);
      socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
      socket.on('close', () => done(true));
      socket.on('error', reject);
      const auth = authorization ? `Authorization: ${authorization}\r\n` : '';
      socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n${first}`);
    });
  }

  it('is answered 408 and its connection closed, before any login', async () => {
    const { answer, closed } = await drip('/api/auth/login', 1000, '{');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('Request body not received within 500 ms');
    expect(closed).toBe(true);
  });

  // Found in review: the deadline grew with the declared length for anyone, so a login declaring a megabyte could
  // be dripped in for 15 minutes. Before a login the declared length buys no time, and a login body is small.
  it('before a login a declared length buys no time, and a body bigger than a login is refused at its headers', async () => {
    const long = await drip('/api/auth/login', 15_000, '{');
    expect(long.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(long.answer).toContain('Request body not received within 500 ms');
    expect(long.closed).toBe(true);
    const huge = await drip('/api/auth/login', 1024 * 1024, '{');
    expect(huge.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(huge.closed).toBe(true);
  });

  it("a signed-in caller's long body is given the time its length needs on a slow link", async () => {
    const { answer, closed } = await drip('/api/sync/batch', 2000, '{', adminA);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain(`Request body not received within ${bodyDeadlineMs(500, 2000)} ms`);
    expect(closed).toBe(true);
  });

  // Found in review: a body answered without being read (no Content-Type: 415; no token: 401) kept dripping in.
  it('a body nobody reads is cut off at the deadline too', async () => {
    for (const path of ['/api/sites', '/api/health']) {
      const { answer, closed } = await drip(path, 1000, '{');
      expect(answer, path).toMatch(/^HTTP\/1\.1 (401|404|408) /);
      expect(closed, path).toBe(true);
    }
  });

  it('a long body is given time for a slow link: the deadline grows with its declared length', () => {
    expect(bodyDeadlineMs(60_000, undefined)).toBe(60_000);
    expect(bodyDeadlineMs(60_000, 256 * 1024)).toBe(60_000 + 256_000);
    expect(bodyDeadlineMs(60_000, 100 * 1024 * 1024)).toBe(15 * 60_000);
  });

  it('a body that arrives in time is read as usual', async () => {
    const body = JSON.stringify({ email: 'nobody@example.test', password: 'wrong-password' });
    const response = await fetch(`http://127.0.0.1:${port}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(response.status).toBe(401);
  });
});
