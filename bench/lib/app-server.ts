/**
 * Real server processes for the server workloads: `src/server/main.ts` through tsx in a process of its own (as
 * the soak starts its instances), on a free port with its own data directory and PGlite or a PostgreSQL URL; and
 * the comparison's bare Fastify "hello world" in a process of its own. Each answer carries url, pid, the RSS
 * sampler and stop().
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onServer } from '../../tests/api/support/test-database';

const root = fileURLToPath(new URL('../..', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ServerProcess {
  name: string;
  url: string;
  pid: number;
  /** The process's resident set now, in MB (from /proc). */
  rssMb(): Promise<number>;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const match = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

async function watch(name: string, child: ChildProcess, url: string, healthPath: string, logFile: string): Promise<ServerProcess> {
  let exited: string | undefined;
  child.on('exit', (code, signal) => (exited = `exit ${code ?? signal}`));
  const until = Date.now() + 180_000;
  for (;;) {
    if (exited) throw new Error(`${name} stopped while starting (${exited}); log: ${logFile}`);
    if (await fetch(`${url}${healthPath}`).then((r) => r.ok, () => false)) break;
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not answer in 180 s; log: ${logFile}`);
    }
    await sleep(200);
  }
  const pid = child.pid!;
  return {
    name,
    url,
    pid,
    rssMb: () => rssOf(pid),
    async stop() {
      if (exited) return;
      const done = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([done, sleep(15_000)]);
      if (!exited) child.kill('SIGKILL');
    },
  };
}

export interface AppServerOptions {
  name: string;
  /** Data directory (files, generated secrets; the PGlite database when no databaseUrl). */
  dataDir: string;
  /** postgres://… for PostgreSQL; PGlite in dataDir otherwise. */
  databaseUrl?: string | undefined;
  /** Load the demo plant into an empty database (the first instance only). */
  seedDemo: boolean;
  /** Shared by the instances of one installation, so a token of one is valid on the other. */
  jwtSecret: string;
  logDir: string;
  env?: Record<string, string>;
  /** Extra node options, e.g. ['--cpu-prof', '--cpu-prof-dir=…'] to profile the server. */
  nodeArgs?: string[];
}

/** The product's server, started as `npm start` runs it (without the client build: the API is what is measured). */
export async function startAppServer(options: AppServerOptions): Promise<ServerProcess> {
  const port = await freePort();
  await mkdir(options.logDir, { recursive: true });
  const logFile = join(options.logDir, `${options.name}.log`);
  // why node --import tsx and not the tsx binary: tsx's CLI runs the program in a child process, and the RSS
  // sampled must be the server's own.
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', join(root, 'src/server/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl, DATABASE_POOL_SIZE: '10' } : {}),
      JWT_SECRET: options.jwtSecret,
      LOG_LEVEL: 'warn',
      // why: every simulated client logs in from 127.0.0.1; in production they come from many addresses.
      LOGIN_RATE_LIMIT: '100000/100000',
      // why: every simulated client is a new device of a few demo users.
      NEW_DEVICES_PER_DAY: '1000000',
      SEED_DEMO: String(options.seedDemo),
      CLIENT_DIST: join(options.dataDir, 'no-client-build'),
      NODE_ENV: 'production',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(logFile);
  // why end false: two streams write into one log; the first to end must not close it for the other.
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  child.once('exit', () => log.end());
  return watch(options.name, child, `http://127.0.0.1:${port}`, '/api/health', logFile);
}

/** The ceiling: Fastify answering a constant small JSON, nothing else, in its own process. */
export async function startHelloServer(logDir: string): Promise<ServerProcess> {
  const port = await freePort();
  await mkdir(logDir, { recursive: true });
  const logFile = join(logDir, 'hello.log');
  const program = `
    const app = require('fastify')({ logger: false });
    app.get('/hello', async () => ({ hello: 'world' }));
    app.listen({ port: ${port}, host: '127.0.0.1' });`;
  const child = spawn(process.execPath, ['-e', program], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = createWriteStream(logFile);
  // why end false: two streams write into one log; the first to end must not close it for the other.
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  child.once('exit', () => log.end());
  return watch('hello', child, `http://127.0.0.1:${port}`, '/hello', logFile);
}

/** A fresh database on the PostgreSQL server behind `serverUrl`, and how to drop it again. */
export async function createPostgresDatabase(serverUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await onServer(serverUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
