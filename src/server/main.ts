// The server process: `tsx src/server/main.ts` (scripts/start.mjs imports it after building the client).
// Reads the configuration, opens and migrates the database, loads the demo plant into an empty database,
// listens, and shuts down gracefully on SIGTERM/SIGINT.
import { mkdir } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import { normalizeEmail } from '../shared/validation';
import { join } from 'node:path';
import { APP_VERSION, buildApp, type App } from './app';
import { ConfigError, loadConfig, prettyLogs, type Config } from './config';
import { openDatabase, type Database } from './db/client';
import { DEMO_LOGINS } from './db/seed/demo-users';
import { seedReferenceData } from './db/seed/reference-data';
import { isDatabaseEmpty, seedDemo } from './db/seed/seed-demo';
import { scheduleMutationLogPrune } from './jobs/prune-mutation-log';
import { scheduleSessionCleanup } from './jobs/session-cleanup';
import { scheduleTombstonePurge } from './jobs/purge-tombstones';
import { mailDir } from './mail/transport';
import { bannerText } from './start-banner';
import { createFileStorage, fileStorageLocation } from './storage/file-storage';
import { activeAccountEmails } from './services/user-service';

/** After a first signal, in-flight requests get this long before the process exits anyway. */
const SHUTDOWN_TIMEOUT_MS = 15_000;

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const dbDir = join(config.dataDir, 'db');
  if (!config.databaseUrl) await mkdir(dbDir, { recursive: true });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: dbDir,
    poolSize: config.databasePoolSize,
    onPoolError: (error) => console.error(`PostgreSQL connection lost (the pool reconnects): ${error.message}`),
  });
  let app: App | undefined;
  try {
    const storage = createFileStorage(config);
    const seeded = await database.runExclusive(async () => {
      await database.migrate();
      // Units, attachment categories, plans and help content every installation needs, demo or not.
      await seedReferenceData(database.db, { storage });
      if (!config.seedDemo || !(await isDatabaseEmpty(database.db))) return false;
      console.log('Leere Datenbank: die Demo-Anlage wird geladen …');
      await seedDemo(database.db, { storage });
      return true;
    });
    storage.close();

    app = await buildApp({ config, database, prettyLogs: prettyLogs(config.logFormat, process.stdout.isTTY === true) });
    scheduleTombstonePurge(app);
    scheduleMutationLogPrune(app);
    scheduleSessionCleanup(app);
    handleShutdownSignals(app, database);
    await app.listen({ port: config.port, host: config.host });
    await printBanner(app, config, database, seeded);
  } catch (error) {
    console.error('Could not start the server:', error);
    await app?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    process.exit(1);
  }
}

/**
 * First SIGTERM/SIGINT: stop accepting connections, let in-flight requests finish (fastify.close), then close
 * the database, exit 0. A second signal, or the timeout, exits at once with 1.
 */
function handleShutdownSignals(app: App, database: Database): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) {
      app.log.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    setTimeout(() => {
      app.log.error('shutdown took too long: exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    app
      .close()
      .then(() => database.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'error during shutdown');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

async function printBanner(app: App, config: Config, database: Database, seeded: boolean): Promise<void> {
  const active = await activeAccountEmails(app.serviceContext, DEMO_LOGINS.map((login) => login.email));
  console.log(
    bannerText({
      version: APP_VERSION,
      publicUrl: config.publicUrl,
      host: config.host,
      port: config.port,
      database: database.kind === 'postgres' ? { kind: 'postgres' } : { kind: 'pglite', dir: join(config.dataDir, 'db') },
      files: fileStorageLocation(config),
      mail: config.smtpUrl ? { kind: 'smtp', host: new URL(config.smtpUrl).host } : { kind: 'files', dir: mailDir(config) },
      seeded,
      demoLogins: DEMO_LOGINS.filter((login) => active.has(normalizeEmail(login.email))),
      interfaces: networkInterfaces(),
    }),
  );
}

void main();
