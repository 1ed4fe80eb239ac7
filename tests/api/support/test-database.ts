import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../../../src/server/db/client';

export interface TestDatabase {
  database: Database;
  /** The PostgreSQL database's URL (to open more connections to it, as a second instance would); undefined on PGlite. */
  url?: string | undefined;
  /** Closes the connections and, on PostgreSQL, drops the database. Safe to call twice. */
  drop(): Promise<void>;
}

/**
 * A migrated, empty database of its own for one test file: PGlite in memory by default, or — when
 * TEST_DATABASE_URL is set — a fresh database `anl_t_<random>` created on that PostgreSQL server, so files
 * running in parallel never see each other's rows.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL?.trim();
  if (!serverUrl) {
    const database = await openDatabase({ dataDir: 'memory://' });
    await database.migrate();
    return { database, drop: once(() => database.close()) };
  }

  const name = `anl_t_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 4 });
  const drop = once(async () => {
    await database.close();
    // why FORCE: a test that failed mid-query may leave a connection behind; the database must go regardless.
    await onServer(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
  try {
    await database.migrate();
  } catch (error) {
    await drop();
    throw error;
  }
  return { database, url: url.toString(), drop };
}

/**
 * Runs one statement on the server behind `serverUrl`. CREATE/DROP DATABASE work from any database; if the
 * one named in the URL does not exist, the `postgres` maintenance database is used instead.
 */
export async function onServer(serverUrl: string, statement: string): Promise<void> {
  const attempt = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  try {
    await attempt(serverUrl);
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000') throw error;
    const fallback = new URL(serverUrl);
    fallback.pathname = '/postgres';
    await attempt(fallback.toString());
  }
}

function once(action: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= action());
}
