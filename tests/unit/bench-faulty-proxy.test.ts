// The W3 benchmark's network (bench/workloads/w3-offline-replay/faulty-proxy.ts): each injected fault does what
// docs/sync.md's fault scenarios describe, so the benchmark's "0 lost, 0 twice" is measured under real faults.
import { createServer, type Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFaultyProxy, type FaultyProxy } from '../../bench/workloads/w3-offline-replay/faulty-proxy';

let upstream: Server;
let upstreamUrl: string;
let received: string[];
let proxy: FaultyProxy;

beforeEach(async () => {
  received = [];
  upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push(`${req.method} ${req.url} ${body}`);
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const address = upstream.address();
  upstreamUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  proxy = await startFaultyProxy({ app: upstreamUrl, couch: upstreamUrl, assets: new Map([['page.js', { type: 'text/javascript', body: 'export {}' }]]) });
});

afterEach(async () => {
  await proxy.close();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
});

const post = (path: string) => fetch(`${proxy.url}${path}`, { method: 'POST', body: 'x', headers: { connection: 'close' } });

describe('faulty proxy', () => {
  it('forwards unharmed without faults, the couch side without its prefix', async () => {
    expect((await post('/api/things')).status).toBe(201);
    expect((await post('/couch/db/_bulk_docs')).status).toBe(201);
    expect(received).toEqual(['POST /api/things x', 'POST /db/_bulk_docs x']);
    expect(proxy.counts().app.requests).toBe(1);
    expect(proxy.counts().couch.requests).toBe(1);
  });

  it('injects the three faults in turn: dropped before the server, 503, answer lost after the server committed', async () => {
    proxy.setMode({ rttMs: 0, faultRate: 1 });
    await expect(post('/api/a')).rejects.toThrow();
    expect(received).toEqual([]);
    expect((await post('/api/b')).status).toBe(503);
    expect(received).toEqual([]);
    await expect(post('/api/c')).rejects.toThrow();
    expect(received).toEqual(['POST /api/c x']);
    expect(proxy.counts().app).toEqual({ requests: 3, drop: 1, unavailable: 1, 'lost-answer': 1 });
  });

  it('serves its own scripts without faults', async () => {
    proxy.setMode({ rttMs: 0, faultRate: 1 });
    const answer = await fetch(`${proxy.url}/__bench/page.js`);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('export {}');
  });
});
