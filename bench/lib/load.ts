/**
 * HTTP load for the server workloads: autocannon in a process of its own (never the server's, never the bench
 * runner's event loop), driven by a plan of requests dealt in order over all connections. Writes get the
 * outbox's sync headers (X-Client-Id, X-Mutation-Id) from a pool of client ids, each used by one request at a
 * time, so mutation ids count 1, 2, 3 … per client without gaps, as a real outbox sends them.
 *
 * `runLoad(plan)` in the bench process; this same file, run as a program, is the generator.
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { SYNC_HEADERS } from '../../src/shared/api/sync';

export interface PlannedRequest {
  /** For the per-kind counts: read, pull, write, … */
  kind: string;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  headers?: Record<string, string>;
  /** A JSON body; for a write, `{{nodeid}}` and `{{now}}` in it are replaced by a fresh id and the time. */
  body?: string;
  /** Add X-Client-Id and the next X-Mutation-Id of a client id from the pool. */
  sync?: boolean;
  /** `{{cycle}}` in the path: these values in turn, one per request over all connections (the records written). */
  cycle?: readonly string[];
}

export interface LoadPlan {
  url: string;
  connections: number;
  seconds: number;
  /** Sent by every request (authorization, accept-encoding). */
  headers: Record<string, string>;
  /** Dealt in order over all connections, over and over: the n-th request any connection sends is `requests[n % length]`. */
  requests: PlannedRequest[];
  /**
   * `{{cursor}}` in a path: the latest cursor any complete pull of this generator answered, starting here. So
   * incremental pulls follow the feed as devices do, bringing what the writes of the run added since.
   */
  startCursor?: number;
}

export interface LoadResult {
  requests: number;
  /** Requests per second over the run. */
  throughput: number;
  latency: { p50: number; p90: number; p99: number; mean: number; max: number };
  /**
   * Per kind of the plan (read, pull, write, …): answers and their latency from the generator's hand-over of the
   * request to its answer, in ms — which kind makes the tail.
   */
  byKind: Record<string, { count: number; p50: number; p99: number; max: number }>;
  /** Answers other than 2xx, and socket errors/timeouts. */
  non2xx: number;
  errors: number;
  timeouts: number;
}

const self = fileURLToPath(import.meta.url);

/** Runs the plan in a generator process of its own and answers its figures. */
export function runLoad(plan: LoadPlan): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(self, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: LoadResult | undefined;
    child.on('message', (message) => (result = message as LoadResult));
    child.on('error', reject);
    child.on('exit', (code) => (result ? resolve(result) : reject(new Error(`load generator exited with ${code}`))));
    child.send(plan);
  });
}

interface Client {
  id: string;
  mid: number;
}

async function generate(plan: LoadPlan): Promise<LoadResult> {
  // why require: autocannon ships no type declarations; the one call below states what it uses of it.
  const autocannon = createRequire(import.meta.url)('autocannon') as (options: Record<string, unknown>) => Promise<unknown>;
  const free: Client[] = [];
  let cursor = plan.startCursor ?? 0;
  let cycled = 0;
  const latencies = new Map<string, number[]>();
  type Hooks = {
    kind: string;
    times: number[];
    setup: (req: Record<string, unknown>, context: Record<string, unknown>) => Record<string, unknown>;
    answered?: (status: number, body: string, context: Record<string, unknown>) => void;
  };
  const hooks = plan.requests.map((planned): Hooks => {
    const headers: Record<string, string> = { ...plan.headers, ...planned.headers };
    if (planned.body !== undefined) headers['content-type'] = 'application/json';
    const times = latencies.get(planned.kind) ?? [];
    latencies.set(planned.kind, times);
    const base = { method: planned.method, path: planned.path, headers, body: Buffer.alloc(0) };
    if (planned.path.includes('{{cursor}}')) {
      // why identity: the answer is read here for its cursor; incremental pages are small anyway.
      headers['accept-encoding'] = 'identity';
      return {
        kind: planned.kind,
        times,
        setup: (req) => ({ ...req, ...base, path: planned.path.replace('{{cursor}}', String(cursor)) }),
        answered: (status, body) => {
          if (status !== 200) return;
          const page = JSON.parse(body) as { cursor: number; hasMore: boolean };
          if (!page.hasMore) cursor = Math.max(cursor, page.cursor);
        },
      };
    }
    if (planned.body === undefined && !planned.sync) return { kind: planned.kind, times, setup: (req) => ({ ...req, ...base }) };
    return {
      kind: planned.kind,
      times,
      setup: (req, context) => {
        const sent = { ...headers };
        if (planned.sync) {
          const client = free.pop() ?? { id: randomUUID(), mid: 0 };
          client.mid += 1;
          context.client = client;
          sent[SYNC_HEADERS.clientId] = client.id;
          sent[SYNC_HEADERS.mutationId] = String(client.mid);
        }
        const body = planned.body?.replaceAll('{{nodeid}}', randomUUID()).replaceAll('{{now}}', String(Date.now()));
        const path = planned.cycle ? planned.path.replace('{{cycle}}', planned.cycle[cycled++ % planned.cycle.length]!) : planned.path;
        return { ...req, ...base, path, headers: sent, ...(body === undefined ? {} : { body }) };
      },
      answered: (status, _body, context) => {
        const client = context.client as Client | undefined;
        if (!client) return;
        // A mutation id the server did not take (5xx, refused) is sent again by the next write of this client.
        if (status >= 300) client.mid -= 1;
        free.push(client);
        context.client = undefined;
      },
    };
  });
  // One slot that every connection sends, each time the next request of the plan over all connections: the run's
  // mix is the plan's at any connection count. why not autocannon's list of requests: it starts each connection at
  // the list's beginning, so 200 connections sending ~12 requests each never reached the cycle's writes.
  let dealt = 0;
  const slot = {
    setupRequest: (req: Record<string, unknown>, context: Record<string, unknown>) => {
      const planned = hooks[dealt++ % hooks.length]!;
      context.planned = planned;
      context.started = performance.now();
      return planned.setup(req, context);
    },
    // why timed here: autocannon times all requests together; the kind of the slow ones is the question.
    onResponse: (status: number, body: string, context: Record<string, unknown>) => {
      const planned = context.planned as Hooks;
      planned.times.push(performance.now() - (context.started as number));
      planned.answered?.(status, body, context);
    },
  };
  const requests = [slot];
  const result = await autocannon({ url: plan.url, connections: plan.connections, duration: plan.seconds, requests, timeout: 30 });
  const r = result as unknown as {
    requests: { total: number; average: number };
    latency: { p50: number; p90: number; p99: number; mean: number; max: number };
    non2xx: number;
    errors: number;
    timeouts: number;
    duration: number;
  };
  const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
  const byKind = Object.fromEntries(
    [...latencies].map(([kind, times]) => {
      const sorted = times.sort((a, b) => a - b);
      return [kind, { count: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? 0 }];
    }),
  );
  return {
    requests: r.requests.total,
    byKind,
    throughput: r.requests.total / r.duration,
    latency: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, mean: r.latency.mean, max: r.latency.max },
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  };
}

if (process.argv[1] === self && process.send) {
  process.once('message', (plan) => {
    generate(plan as LoadPlan).then(
      (result) => process.send!(result, () => process.exit(0)),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
