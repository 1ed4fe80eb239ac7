/**
 * Old code against new code under W7's mix, on a loaded machine: `npx tsx bench/ab-server.ts --old <worktree>
 * --pg URL [--rounds N] [--seconds N] [--connections N]`. Both servers run at the same time (each on its own fresh
 * PostgreSQL database with the demo plant); short load runs alternate between them, so whatever else loads the
 * machine hits both alike. Prints per run and as medians: req/s, p50, p99 and the server process's CPU per request
 * (user + system from /proc, which the machine's other load disturbs far less than throughput or latency).
 * `--mix uptodate --connections 1`: up-to-date pulls only, the time of W7's head check per request.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createPostgresDatabase, startAppServer, type AppServerOptions, type ServerProcess } from './lib/app-server';
import { runLoad, type LoadPlan, type PlannedRequest } from './lib/load';
import { DEMO_LOGINS } from '../src/server/db/seed/demo-users';
import { SYNC_HEADERS, type PullResponse } from '../src/shared/api/sync';

const { values } = parseArgs({
  options: {
    old: { type: 'string' },
    pg: { type: 'string' },
    rounds: { type: 'string', default: '4' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    // `uptodate`: only up-to-date pulls (W7's head check), e.g. with --connections 1 for the time per request.
    mix: { type: 'string', default: 'w7' },
  },
});
if (!values.old || !values.pg) throw new Error('--old <worktree of the old code> and --pg <postgres URL> are needed');

async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** W7's mix (bench/workloads/w7-api-load.ts, mixedPlan): 48 reads, 9 incremental pulls, 3 counter writes in 60 (to the demo's counters in turn). */
async function planFor(server: ServerProcess, connections: number, seconds: number): Promise<LoadPlan> {
  const admin = DEMO_LOGINS.find((entry) => entry.role === 'admin')!;
  const login = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: admin.email, password: admin.password }) });
  const authorization = `Bearer ${((await login.json()) as { accesstoken: string }).accesstoken}`;
  const clientid = crypto.randomUUID();
  const page = (await (await fetch(`${server.url}/api/sync/pull?cursor=0&limit=5000`, { headers: { authorization, [SYNC_HEADERS.clientId]: clientid } })).json()) as PullResponse;
  const counternodeids = page.changes.filter((change) => change.kind === 'counters' && !change.deleted).map((change) => change.nodeid);
  const read = (path: string): PlannedRequest => ({ kind: 'read', method: 'GET', path });
  const pull: PlannedRequest = { kind: 'pull', method: 'GET', path: '/api/sync/pull?cursor={{cursor}}', headers: { [SYNC_HEADERS.clientId]: clientid } };
  const write: PlannedRequest = {
    kind: 'write',
    method: 'PUT',
    path: '/api/counters/update/{{cycle}}',
    cycle: counternodeids,
    body: JSON.stringify({ lang: 'de', values: [{ nodeid: '{{nodeid}}', reading: 1234, timestamp: '{{now}}' }] }).replace('"{{now}}"', '{{now}}'),
    sync: true,
  };
  if (values.mix === 'uptodate') {
    let head = page.cursor;
    for (;;) {
      const next = (await (await fetch(`${server.url}/api/sync/pull?cursor=${head}&limit=5000`, { headers: { authorization, [SYNC_HEADERS.clientId]: clientid } })).json()) as PullResponse;
      if (next.changes.length === 0) break;
      head = next.cursor;
    }
    const upToDate: PlannedRequest = { kind: 'pull', method: 'GET', path: `/api/sync/pull?cursor=${head}`, headers: { [SYNC_HEADERS.clientId]: clientid } };
    return { url: server.url, connections, seconds, headers: { 'accept-encoding': 'gzip, deflate, br', authorization }, requests: [upToDate] };
  }
  const requests: PlannedRequest[] = [];
  for (let block = 0; block < 3; block++) {
    for (let i = 0; i < 8; i++) requests.push(read('/api/sites'), read('/api/allsitesareasequipments'));
    requests.splice(block * 20 + 5, 0, pull);
    requests.splice(block * 20 + 10, 0, pull);
    requests.splice(block * 20 + 15, 0, pull);
    requests.push(write);
  }
  return { url: server.url, connections, seconds, headers: { 'accept-encoding': 'gzip, deflate, br', authorization }, requests, startCursor: page.cursor };
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

async function main(): Promise<void> {
  const oldRoot = resolve(values.old!);
  const oldServerModule = (await import(join(oldRoot, 'bench/lib/app-server.ts'))) as { startAppServer(options: AppServerOptions): Promise<ServerProcess> };
  const scratch = join(tmpdir(), `ab-${randomBytes(3).toString('hex')}`);
  const jwtSecret = randomBytes(32).toString('hex');
  const databases = await Promise.all([createPostgresDatabase(values.pg!, 'ab_old'), createPostgresDatabase(values.pg!, 'ab_new')]);
  const servers: Record<'old' | 'new', ServerProcess> = {
    old: await oldServerModule.startAppServer({ name: 'old', dataDir: join(scratch, 'old'), databaseUrl: databases[0].url, seedDemo: true, jwtSecret, logDir: scratch }),
    new: await startAppServer({ name: 'new', dataDir: join(scratch, 'new'), databaseUrl: databases[1].url, seedDemo: true, jwtSecret, logDir: scratch }),
  };
  try {
    const connections = Number(values.connections);
    const seconds = Number(values.seconds);
    const plans = { old: await planFor(servers.old, connections, seconds), new: await planFor(servers.new, connections, seconds) };
    const figures = { old: { rps: [] as number[], p50: [] as number[], p99: [] as number[], cpu: [] as number[] }, new: { rps: [] as number[], p50: [] as number[], p99: [] as number[], cpu: [] as number[] } };
    for (const which of ['old', 'new'] as const) await runLoad({ ...plans[which], seconds: 2 });
    for (let round = 0; round < Number(values.rounds); round++) {
      const order = round % 2 === 0 ? (['old', 'new'] as const) : (['new', 'old'] as const);
      for (const which of order) {
        const before = await cpuMs(servers[which].pid);
        const result = await runLoad(plans[which]);
        const cpu = ((await cpuMs(servers[which].pid)) - before) / result.requests;
        const failed = result.non2xx + result.errors + result.timeouts;
        figures[which].rps.push(result.throughput);
        figures[which].p50.push(result.latency.p50);
        figures[which].p99.push(result.latency.p99);
        figures[which].cpu.push(cpu);
        const kinds = Object.entries(result.byKind).map(([kind, k]) => `${kind} p50 ${k.p50.toFixed(0)} p99 ${k.p99.toFixed(0)}`).join(', ');
        console.log(`round ${round + 1} ${which}: ${result.throughput.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${cpu.toFixed(2)} ms CPU/request, failed ${failed} (${kinds})`);
      }
    }
    for (const which of ['old', 'new'] as const) {
      const f = figures[which];
      console.log(`median ${which}: ${median(f.rps).toFixed(0)} req/s, p50 ${median(f.p50)} ms, p99 ${median(f.p99)} ms, ${median(f.cpu).toFixed(2)} ms CPU/request`);
    }
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
    await Promise.all(databases.map((database) => database.drop()));
  }
}

await main();
