import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/** Both drivers share Drizzle's Postgres API; services only ever see this type. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** The handle a transaction callback receives. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DatabaseKind = 'pglite' | 'postgres';

export interface Database {
  db: Db;
  kind: DatabaseKind;
  migrate(): Promise<void>;
  /**
   * Runs start-up work (migrations, reference data, demo seed) so that several server instances starting at
   * once against one PostgreSQL do it one after another (advisory lock); PGlite has one process anyway.
   */
  runExclusive<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

export interface OpenDatabaseOptions {
  /** postgres://… selects a PostgreSQL server; otherwise PGlite is used. */
  databaseUrl?: string | undefined;
  /** PGlite data directory; `memory://` keeps it in memory (tests). */
  dataDir?: string | undefined;
  /** Max pooled connections for PostgreSQL. */
  poolSize?: number | undefined;
  /** An idle pooled connection failed (e.g. the server restarted); the pool replaces it. Log it, without the URL. */
  onPoolError?: ((error: Error) => void) | undefined;
}

/** pg_advisory_lock key for start-up work: any fixed bigint unique to this app ("anlagenb" in ASCII). */
const STARTUP_LOCK = 0x616e6c6167656e62n;

/**
 * Runs `work` while holding a session-level advisory lock on one dedicated connection, so several server
 * instances starting at once against one PostgreSQL migrate one after another instead of racing on the DDL.
 */
export async function withAdvisoryLock<T>(pool: pg.Pool, key: bigint, work: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [key.toString()]);
    try {
      return await work();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [key.toString()]);
    }
  } finally {
    client.release();
  }
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // why: an idle client's error (server restart) would otherwise crash the process; the pool replaces it.
    pool.on('error', (error) => options.onPoolError?.(error));
    const db = drizzlePg(pool, { schema });
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      migrate: () => migratePg(db, { migrationsFolder: MIGRATIONS_DIR }),
      runExclusive: (work) => withAdvisoryLock(pool, STARTUP_LOCK, work),
      close: () => pool.end(),
    };
  }
  const client = await PGlite.create(options.dataDir ?? 'memory://');
  const db = drizzlePglite(client, { schema });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_DIR }),
    runExclusive: (work) => work(),
    close: () => client.close(),
  };
}
