import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// why a balancer of our own: production puts several instances behind a load balancer without sticky sessions;
// the soak must prove that any request may land on any instance. A tiny round-robin proxy on 127.0.0.1 does
// that and, being the one place every request passes, measures each request's latency and answer.

/** One request as the balancer saw it. */
export interface Exchange {
  /** Method and path with ids replaced: `PUT /api/notifications/:id`. */
  kind: string;
  status: number;
  ms: number;
  /** Which instance answered (index into the targets). */
  target: number;
}

export interface Balancer {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly exchanges: Exchange[];
  /** Requests an instance never answered (connection refused or reset): the balancer answered 502. */
  readonly upstreamErrors: { kind: string; target: number; message: string }[];
  close(): Promise<void>;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The request's kind for the latency table: ids and query strings left out, so equal routes group together. */
export function requestKind(method: string, url: string): string {
  const path = url.split('?')[0]!.replace(UUID, ':id').replace(/\/\d+(?=\/|$)/g, '/:n');
  return `${method} ${path}`;
}

export async function startBalancer(targets: readonly string[]): Promise<Balancer> {
  const upstreams = targets.map((target) => new URL(target));
  // why keep-alive: a real load balancer pools its connections to the instances; opening one per request would
  // measure TCP set-up on a busy 2-core machine instead of the server.
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const exchanges: Exchange[] = [];
  const upstreamErrors: Balancer['upstreamErrors'] = [];
  let next = 0;

  const server: Server = createServer((req: IncomingMessage, res) => {
    const started = performance.now();
    const target = next;
    next = (next + 1) % upstreams.length;
    const upstream = upstreams[target]!;
    const kind = requestKind(req.method ?? 'GET', req.url ?? '/');
    const outgoing = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host }, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('end', () => exchanges.push({ kind, status: answer.statusCode ?? 502, ms: performance.now() - started, target }));
      },
    );
    outgoing.on('error', (error) => {
      upstreamErrors.push({ kind, target, message: error.message });
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ statusCode: 502, error: 'Bad Gateway', message: 'instance did not answer' }));
    });
    req.pipe(outgoing);
  });
  // why no idle timeout: with one, the balancer may close an idle keep-alive connection at the moment a tablet
  // reuses it, and the tablet sees a network error. The tablets' fetch (undici) retires idle connections after
  // 4 s — but on the soak's busy event loop that timer fires late, and the 10-minute run lost a few requests to
  // this race between the harness's two ends, never reaching a server. Left to the client, the race is gone.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    upstreamErrors,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        agent.destroy();
      }),
  };
}

/** The balancer running in a worker thread, as the soak uses it. */
export interface BalancerThread {
  readonly url: string;
  /** Requests answered so far. */
  count(): Promise<number>;
  /** Everything recorded so far. */
  snapshot(): Promise<{ exchanges: Exchange[]; upstreamErrors: Balancer['upstreamErrors'] }>;
  close(): Promise<void>;
}

type Reply = { id: number; value: unknown };

/**
 * Starts the balancer in a worker thread. why a thread: the 200 tablets keep the soak's own event loop busy
 * (fake-indexeddb is plain JavaScript), and a balancer on that loop would add the tablets' waiting to every
 * latency it measures; on its own loop it measures what the instances take (plus a proxy hop).
 */
export async function startBalancerThread(targets: readonly string[]): Promise<BalancerThread> {
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(new URL('./balancer-thread.mjs', import.meta.url), { workerData: { targets } });
  const pending = new Map<number, (value: unknown) => void>();
  let nextId = 0;
  const url = await new Promise<string>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (message: { url: string }) => resolve(message.url));
  });
  worker.on('message', (message: Reply) => {
    pending.get(message.id)?.(message.value);
    pending.delete(message.id);
  });
  const ask = <T>(command: 'count' | 'snapshot' | 'close'): Promise<T> =>
    new Promise((resolve) => {
      const id = ++nextId;
      pending.set(id, resolve as (value: unknown) => void);
      worker.postMessage({ id, command });
    });
  return {
    url,
    count: () => ask<number>('count'),
    snapshot: () => ask('snapshot'),
    close: async () => {
      await ask('close');
      await worker.terminate();
    },
  };
}
