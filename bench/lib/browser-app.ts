/**
 * The real app for the browser workloads: `node scripts/start.mjs` (which builds the client when it is stale, then
 * runs the server exactly as `npm start` does) in its own process on a free port, with its own data directory. An
 * empty data directory gets the demo plant on first start; a directory prepared by `npm run bench:data` (or a
 * DATABASE_URL) is served as it is.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningApp {
  url: string;
  pid: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface StartAppOptions {
  dataDir: string;
  databaseUrl?: string;
  env?: Record<string, string>;
  /** How long the first start may take (build + migrations + seed). */
  timeoutMs?: number;
}

export async function startApp(options: StartAppOptions): Promise<RunningApp> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      LOG_LEVEL: 'warn',
      // Every run logs in again; the production limits would answer 429.
      LOGIN_RATE_LIMIT: '10000/10000',
      NEW_DEVICES_PER_DAY: '1000000',
      ...options.env,
    },
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 300_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the app exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the app did not answer within ${options.timeoutMs ?? 300_000} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    pid: child.pid ?? 0,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

export interface StaticServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * A built static app (e.g. bench/bare-react) served the way the app's server serves its client: @fastify/static
 * with the precompressed .br/.gz files, hashed assets cached for a year, index.html for every other path.
 */
export async function serveStatic(root: string): Promise<StaticServer> {
  const { default: Fastify } = await import('fastify');
  const { default: fastifyStatic } = await import('@fastify/static');
  const app = Fastify({ logger: false });
  await app.register(fastifyStatic, {
    root,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (res, path) => {
      res.setHeader('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      res.setHeader('vary', 'accept-encoding');
    },
  });
  app.setNotFoundHandler((_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
  const port = await freePort();
  await app.listen({ port, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${port}`, stop: () => app.close() };
}

/** Builds bench/bare-react into `outDir` with its own Vite config (the app's Vite and React plugin). */
export async function buildBareReact(outDir: string): Promise<void> {
  const { build } = await import('vite');
  process.env.BARE_REACT_OUT = outDir;
  try {
    await build({ configFile: join(root, 'bench', 'bare-react', 'vite.config.ts'), logLevel: 'warn' });
  } finally {
    delete process.env.BARE_REACT_OUT;
  }
}
