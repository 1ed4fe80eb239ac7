/**
 * What the sync workloads (W1, W2) share: the big plant prepared in a data directory, the app's change feed read
 * from Node, and the PouchDB comparison — pouchdb-server in memory loaded with the same rows as documents, and
 * pouchdb-browser bundled once for the page (the package ships no browser build, so esbuild makes an IIFE that
 * sets `window.PouchDB`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { build } from 'esbuild';
import { openDatabase } from '../../src/server/db/client';
import { DEMO_PASSWORD, DEMO_USERS, type DemoRole } from '../../src/server/db/seed/demo-users';
import { PULL_LIMIT_INITIAL, type SyncChange } from '../../src/shared/api/sync';
import { seedBigPlant, type BigPlantOptions, type BigPlantSummary } from '../data/big-plant';
import { freePort } from '../lib/browser-app';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The plant sizes of the issue; --quick takes a tenth. */
export function plantSize(quick: boolean): Pick<BigPlantOptions, 'machines' | 'notifications' | 'readings'> {
  return quick ? { machines: 500, notifications: 10_000, readings: 5_000 } : { machines: 5_000, notifications: 100_000, readings: 50_000 };
}

/** Writes the big plant into `<dataDir>/db` (the embedded database the app opens with DATA_DIR=dataDir). */
export async function prepareBigPlant(dataDir: string, size: Pick<BigPlantOptions, 'machines' | 'notifications' | 'readings'>): Promise<BigPlantSummary> {
  const dbDir = join(dataDir, 'db');
  await mkdir(dbDir, { recursive: true });
  const database = await openDatabase({ dataDir: dbDir, poolSize: 1 });
  try {
    await database.migrate();
    return await seedBigPlant(database.db, { ...size, seed: 1, now: new Date('2026-11-01T10:00:00Z') });
  } finally {
    await database.close();
  }
}

export async function apiLogin(baseUrl: string, role: DemoRole = 'technician'): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: DEMO_USERS[role].email, password: DEMO_PASSWORD }) });
  if (!response.ok) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { accesstoken: string }).accesstoken;
}

/** Every change a user's pull from `cursor` brings, page by page, and the cursor after it. */
export async function pullAll(baseUrl: string, token: string, cursor = 0, limit = PULL_LIMIT_INITIAL): Promise<{ changes: SyncChange[]; cursor: number; pages: number }> {
  const clientId = randomUUID();
  const changes: SyncChange[] = [];
  let pages = 0;
  for (;;) {
    const response = await fetch(`${baseUrl}/api/sync/pull?cursor=${cursor}&limit=${limit}`, { headers: { authorization: `Bearer ${token}`, 'x-client-id': clientId } });
    if (!response.ok) throw new Error(`pull failed: ${response.status}`);
    const page = (await response.json()) as { changes: SyncChange[]; cursor: number; hasMore: boolean };
    changes.push(...page.changes);
    cursor = page.cursor;
    pages += 1;
    if (!page.hasMore) return { changes, cursor, pages };
  }
}

/** A change as a PouchDB document: the same row, `_id` kind:nodeid. */
export function changeAsDoc(change: SyncChange): Record<string, unknown> {
  return { ...(change.data ?? {}), _id: `${change.kind}:${change.nodeid}`, kind: change.kind, version: change.version };
}

export interface PouchServer {
  url: string;
  child: ChildProcess;
  /** Creates the database and loads the documents with _bulk_docs in chunks. */
  load(db: string, docs: Record<string, unknown>[]): Promise<void>;
  stop(): Promise<void>;
}

export async function startPouchServer(workDir: string): Promise<PouchServer> {
  const port = await freePort();
  const dir = join(workDir, `pouch-${port}`);
  await mkdir(dir, { recursive: true });
  const child = spawn(join(root, 'node_modules', '.bin', 'pouchdb-server'), ['--in-memory', '--port', String(port), '--host', '127.0.0.1', '--no-stdout-logs'], { cwd: dir, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('pouchdb-server did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    child,
    async load(db, docs) {
      await fetch(`${url}/${db}`, { method: 'PUT' });
      for (let index = 0; index < docs.length; index += 2000) {
        const response = await fetch(`${url}/${db}/_bulk_docs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ docs: docs.slice(index, index + 2000) }) });
        if (!response.ok) throw new Error(`_bulk_docs failed: ${response.status}`);
      }
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

let bundled: string | undefined;

/** pouchdb-browser as one script that sets `window.PouchDB`. */
export async function pouchBrowserScript(): Promise<string> {
  if (bundled) return bundled;
  const result = await build({
    stdin: { contents: "import PouchDB from 'pouchdb-browser'; window.PouchDB = PouchDB;", resolveDir: root },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    minify: true,
    write: false,
    define: { global: 'window' },
    logLevel: 'silent',
  });
  bundled = result.outputFiles[0]!.text;
  return bundled;
}
