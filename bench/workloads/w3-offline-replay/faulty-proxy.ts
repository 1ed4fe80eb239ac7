/**
 * The network between the tablet and the servers for W3: an HTTP proxy that adds round-trip time and injects the
 * faults of docs/sync.md's fault scenarios — the connection dropped before the request arrives, a 503 from a
 * gateway, and the answer lost AFTER the server committed (the server has the write, the device does not know).
 * `/couch/…` goes to the PouchDB server (prefix removed), `/__bench/…` serves the workload's page scripts, the
 * rest goes to the app. Both sides of the comparison therefore cross the same network.
 */
import { createServer, request as httpRequest, Agent, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export type FaultKind = 'drop' | 'unavailable' | 'lost-answer';

export interface ProxyMode {
  /** Added round-trip time: half before the request is forwarded, half before the answer is returned. */
  rttMs: number;
  /** Share of requests (0…1) that get one of the three faults, in turn. */
  faultRate: number;
}

export interface FaultyProxy {
  url: string;
  setMode(mode: ProxyMode): void;
  /** Requests and injected faults since the last reset, per side (app, couch). */
  counts(): Record<'app' | 'couch', { requests: number } & Record<FaultKind, number>>;
  resetCounts(): void;
  close(): Promise<void>;
}

export interface ProxyTargets {
  app: string;
  couch: string;
  /** Files served under /__bench/<name> (same origin, so the app's CSP allows them as scripts). */
  assets: Map<string, { type: string; body: Buffer | string }>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startFaultyProxy(targets: ProxyTargets, random: () => number = Math.random): Promise<FaultyProxy> {
  let mode: ProxyMode = { rttMs: 0, faultRate: 0 };
  const empty = () => ({ requests: 0, drop: 0, unavailable: 0, 'lost-answer': 0 });
  let counts = { app: empty(), couch: empty() };
  const faults: FaultKind[] = ['drop', 'unavailable', 'lost-answer'];
  let nextFault = 0;
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });

  const forward = (side: 'app' | 'couch', req: IncomingMessage, res: ServerResponse, fault: FaultKind | null) => {
    const base = new URL(side === 'app' ? targets.app : targets.couch);
    const path = side === 'couch' ? req.url!.replace(/^\/couch/, '') || '/' : req.url!;
    const upstream = httpRequest(
      { host: base.hostname, port: base.port, method: req.method, path, headers: { ...req.headers, host: base.host }, agent },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          void (async () => {
            await sleep(mode.rttMs / 2);
            if (fault === 'lost-answer') {
              // The server has committed and answered; the device never hears it.
              req.socket.destroy();
              return;
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(chunks));
          })();
        });
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
    });
    req.pipe(upstream);
  };

  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/__bench/')) {
      const asset = targets.assets.get(url.slice('/__bench/'.length).split('?')[0]!);
      if (!asset) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': asset.type, 'cache-control': 'no-store' });
      return void res.end(asset.body);
    }
    const side = url.startsWith('/couch/') || url === '/couch' ? 'couch' : 'app';
    const networked = side === 'couch' || url.startsWith('/api/');
    counts[side].requests += 1;
    const fault = networked && mode.faultRate > 0 && random() < mode.faultRate ? faults[nextFault++ % faults.length]! : null;
    if (fault) counts[side][fault] += 1;
    void (async () => {
      await sleep(mode.rttMs / 2);
      if (fault === 'drop') {
        req.socket.destroy();
        return;
      }
      if (fault === 'unavailable') {
        req.resume();
        await sleep(mode.rttMs / 2);
        res.writeHead(503, { 'content-type': 'text/plain', connection: 'close' }).end('Service Unavailable');
        return;
      }
      forward(side, req, res, fault);
    })();
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    setMode: (next) => (mode = next),
    counts: () => counts,
    resetCounts: () => (counts = { app: empty(), couch: empty() }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
