/**
 * Profile the server under W7's read mix: `npx tsx bench/profile-server.ts [--pg URL] [--seconds N] [--connections N]
 * [--paths a,b] [--out DIR] [--no-prof]`. Starts src/server/main.ts with `--cpu-prof` on a fresh database (PostgreSQL
 * when a URL is given, else PGlite), logs in as the demo admin, drives the paths with autocannon in a process of its own,
 * stops the server (SIGTERM, so the profile is written), and prints the self time per package and the top functions.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createPostgresDatabase, startAppServer } from './lib/app-server';
import { runLoad } from './lib/load';
import { DEMO_LOGINS } from '../src/server/db/seed/demo-users';

const { values } = parseArgs({
  options: {
    pg: { type: 'string' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    paths: { type: 'string', default: '/api/sites,/api/allsitesareasequipments' },
    out: { type: 'string' },
    'no-prof': { type: 'boolean', default: false },
    top: { type: 'string', default: '40' },
  },
});

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function packageOf(url: string): string {
  if (!url) return '(native/vm)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return url;
  const src = url.indexOf('/src/');
  if (src >= 0) return url.slice(src + 1).split('/').slice(0, 3).join('/');
  return url;
}

/** Self time per package and function over the profile's last `windowMs` (the load, not the start-up and seed). */
export function summarise(profile: Profile, top: number, windowMs: number, requests: number): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  const end = profile.timeDeltas.reduce((a, b) => a + b, 0);
  let at = 0;
  profile.samples.forEach((id, index) => {
    at += profile.timeDeltas[index] ?? 0;
    if (at >= end - windowMs * 1000) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const perPackage = new Map<string, number>();
  const perFunction = new Map<string, number>();
  for (const [id, micros] of self) {
    const frame = byId.get(id)!.callFrame;
    const pkg = frame.functionName === '(garbage collector)' ? '(gc)' : frame.functionName === '(idle)' ? '(idle)' : frame.functionName === '(program)' ? '(program)' : packageOf(frame.url);
    perPackage.set(pkg, (perPackage.get(pkg) ?? 0) + micros);
    const key = `${frame.functionName || '(anonymous)'} ${packageOf(frame.url)}:${frame.lineNumber + 1}`;
    perFunction.set(key, (perFunction.get(key) ?? 0) + micros);
  }
  const idle = perPackage.get('(idle)') ?? 0;
  const busy = total - idle;
  const lines = [`window ${(total / 1e3).toFixed(0)} ms, busy ${(busy / 1e3).toFixed(0)} ms (${((100 * busy) / total).toFixed(0)} %), ${requests} requests: ${(busy / 1e3 / requests).toFixed(2)} ms of server CPU per request`, '', 'self time per package (% of busy):'];
  for (const [pkg, micros] of [...perPackage].filter(([p]) => p !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${((100 * micros) / busy).toFixed(1).padStart(5)} %  ${pkg}`);
  lines.push('', 'self time per function (% of busy):');
  for (const [fn, micros] of [...perFunction].filter(([f]) => !f.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${((100 * micros) / busy).toFixed(1).padStart(5)} %  ${fn}`);
  return lines.join('\n');
}

/** User + system CPU of a process so far, in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function main(): Promise<void> {
  const out = values.out ?? (await mkdtemp(join(tmpdir(), 'server-prof-')));
  const database = values.pg ? await createPostgresDatabase(values.pg, 'prof') : undefined;
  const server = await startAppServer({
    name: 'prof',
    dataDir: join(out, 'data'),
    databaseUrl: database?.url,
    seedDemo: true,
    jwtSecret: randomBytes(32).toString('hex'),
    logDir: out,
    nodeArgs: values['no-prof'] ? [] : ['--cpu-prof', `--cpu-prof-dir=${out}`],
  });
  let requests = 0;
  try {
    const admin = DEMO_LOGINS.find((entry) => entry.role === 'admin')!;
    const response = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: admin.email, password: admin.password }) });
    const { accesstoken } = (await response.json()) as { accesstoken: string };
    const plan = {
      url: server.url,
      connections: Number(values.connections),
      seconds: Number(values.seconds),
      headers: { 'accept-encoding': 'gzip, deflate, br', authorization: `Bearer ${accesstoken}` },
      requests: values.paths.split(',').map((path) => ({ kind: 'read', method: 'GET' as const, path })),
    };
    await runLoad({ ...plan, seconds: 2 });
    const before = await cpuMs(server.pid);
    const result = await runLoad(plan);
    const used = (await cpuMs(server.pid)) - before;
    console.log(`server process CPU (user+system, /proc): ${used.toFixed(0)} ms for ${result.requests} requests: ${(used / result.requests).toFixed(3)} ms per request`);
    requests = result.requests;
    console.log(`${result.throughput.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, failed ${result.non2xx + result.errors + result.timeouts}`);
  } finally {
    await server.stop();
    await database?.drop();
  }
  if (values['no-prof']) return;
  const file = (await readdir(out)).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile in ${out}`);
  console.log(`profile: ${join(out, file)}`);
  console.log(summarise(JSON.parse(await readFile(join(out, file), 'utf8')) as Profile, Number(values.top), Number(values.seconds) * 1000 + 300, requests));
}

// why the check: other scripts import `summarise`; only running this file profiles.
if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
