import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type App, type BuildAppOptions } from '../../../src/server/app';
import { loadConfig, type Config } from '../../../src/server/config';
import type { Database } from '../../../src/server/db/client';
import type { FaultInjector } from '../../../src/server/plugins/fault-injection';
import { insertTenant, loginAs, type TestTenant } from '../../factories/tenant';
import { createTestDatabase } from './test-database';

/** A fixed secret so tests can sign their own tokens (expired ones, forged ones). */
export const TEST_JWT_SECRET = 'test-secret-test-secret-test-secret-0123456789';

export interface TestApp {
  app: App;
  database: Database;
  config: Config;
  /**
   * Fault injection: set `beforeCommit` to throw, and every write transaction fails after all its statements
   * ran, just before commit. Reset to undefined after the test.
   */
  faults: { beforeCommit?: ((operation: string) => void) | undefined };
  close(): Promise<void>;
}

/** The tests' configuration of an installation in `dataDir`: silent, no demo, no client build, limits lifted. */
export function testConfig(dataDir: string, overrides: Record<string, string> = {}): Config {
  return loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'silent',
    LOGIN_RATE_LIMIT: '1000/1000',
    // why: a test file's admin writes from a new device in nearly every test.
    NEW_DEVICES_PER_DAY: '1000000',
    SEED_DEMO: 'false',
    CLIENT_DIST: join(dataDir, 'no-client-build'),
    ...overrides,
  });
}

/** A built client as the static plugin serves it (index.html, a hashed asset, the service worker), in a new temporary folder. */
export async function fakeClientBuild(): Promise<string> {
  const dist = await mkdtemp(join(tmpdir(), 'anlagenbuch-dist-'));
  await mkdir(join(dist, 'assets'));
  await writeFile(join(dist, 'index.html'), '<!doctype html><title>Anlagenbuch</title><div id="root"></div>');
  await writeFile(join(dist, 'assets', 'index-BdX3k9aQ.js'), 'console.log(1)');
  await writeFile(join(dist, 'sw.js'), 'self.addEventListener("install", () => {});');
  return dist;
}

/**
 * The real app (buildApp) over a fresh database of its own (PGlite in memory, or a new database on the
 * TEST_DATABASE_URL server), driven through `app.inject`. Login rate limits are lifted unless overridden;
 * CLIENT_DIST points at an empty directory unless overridden.
 */
export interface TestAppOptions {
  syncFaults?: FaultInjector;
  /** Lower budgets for one sync batch (BuildAppOptions.syncBatchBudget). */
  syncBatchBudget?: BuildAppOptions['syncBatchBudget'];
}

export async function createTestApp(configOverrides: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(join(tmpdir(), 'anlagenbuch-api-'));
  const config = testConfig(dataDir, configOverrides);
  const { database, drop } = await createTestDatabase();
  const faults: TestApp['faults'] = {};
  const app = await buildApp({
    config,
    database,
    beforeCommit: (operation) => faults.beforeCommit?.(operation),
    ...(options.syncFaults ? { faults: options.syncFaults } : {}),
    ...(options.syncBatchBudget ? { syncBatchBudget: options.syncBatchBudget } : {}),
  });
  await app.ready();
  return {
    app,
    database,
    config,
    faults,
    async close() {
      await app.close();
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface OneTenantApp {
  t: TestApp;
  a: TestTenant;
  /** Bearer header of tenant A's admin. */
  adminA: string;
}

/** The app with one tenant, A, and its admin logged in. */
export async function createOneTenantApp(configOverrides: Record<string, string> = {}, options: TestAppOptions = {}): Promise<OneTenantApp> {
  const t = await createTestApp(configOverrides, options);
  const a = await insertTenant(t.database.db, { name: 'Tenant A' });
  const adminA = (await loginAs(t.app, a.admin)).authorization;
  return { t, a, adminA };
}

export interface TwoTenantApp extends OneTenantApp {
  b: TestTenant;
  /** Bearer header of tenant B's admin. */
  adminB: string;
}

/** The app with two tenants, A and B, and each one's admin logged in: the start of every tenant-isolation suite. */
export async function createTwoTenantApp(configOverrides: Record<string, string> = {}): Promise<TwoTenantApp> {
  const { t, a, adminA } = await createOneTenantApp(configOverrides);
  const b = await insertTenant(t.database.db, { name: 'Tenant B' });
  const adminB = (await loginAs(t.app, b.admin)).authorization;
  return { t, a, b, adminA, adminB };
}
