import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_CLIENT_ID } from '../../src/server/db/seed/demo-users';

const serverUrl = process.env.TEST_DATABASE_URL?.trim();

// why only on PostgreSQL: several instances share one database only there; PGlite belongs to one process.
describe.skipIf(!serverUrl)('several server instances starting at once against one PostgreSQL', () => {
  const name = `anl_t_${randomBytes(6).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'anlagenbuch-startup-'));
  const children: ChildProcess[] = [];
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      return await client.query(statement);
    } finally {
      await client.end();
    }
  };

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrate and seed the empty database exactly once, and all of them come up', async () => {
    await admin(`CREATE DATABASE "${name}"`);
    const url = new URL(serverUrl!);
    url.pathname = `/${name}`;
    const ports = [3461, 3462];
    const output: string[] = [];
    const exits = ports.map((port) => {
      // why node --import tsx and not the tsx binary: killing the binary would orphan the server it spawns.
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
        env: { ...process.env, DATABASE_URL: url.toString(), PORT: String(port), HOST: '127.0.0.1', DATA_DIR: join(dataDir, String(port)), JWT_SECRET: 'x'.repeat(40), CLIENT_DIST: join(dataDir, 'no-client'), LOG_LEVEL: 'warn' },
        stdio: 'pipe',
      });
      children.push(child);
      child.stderr?.on('data', (chunk: Buffer) => output.push(`[${port}] ${chunk.toString()}`));
      child.stdout?.on('data', (chunk: Buffer) => output.push(`[${port}] ${chunk.toString()}`));
      return new Promise<number | null>((resolve) => child.on('exit', resolve));
    });
    const healthy = (port: number) => fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
    const deadline = Date.now() + 60_000;
    while (!(await Promise.all(ports.map(healthy))).every(Boolean)) {
      const exited = await Promise.race([...exits, new Promise((resolve) => setTimeout(() => resolve('running'), 500))]);
      expect(exited, `a server exited during start-up:\n${output.join('')}`).toBe('running');
      expect(Date.now()).toBeLessThan(deadline);
    }
    const entities = await new pg.Client({ connectionString: url.toString() });
    await entities.connect();
    try {
      const { rows } = await entities.query('select count(*)::int as n from legal_entities where clientid = $1', [DEMO_CLIENT_ID]);
      expect(rows[0].n).toBe(1);
    } finally {
      await entities.end();
    }
  }, 90_000);
});
