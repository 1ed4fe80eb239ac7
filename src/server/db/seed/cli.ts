// `npm run db:seed [-- --reset]`: loads the demo plant into the database the server would use (DATABASE_URL,
// or the embedded database in DATA_DIR/db), after running the migrations. Without --reset an existing
// database is left alone; with --reset every table is emptied first.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../config';
import { createFileStorage, fileStorageLocation } from '../../storage/file-storage';
import { openDatabase } from '../client';
import { DEMO_LOGINS } from './demo-users';
import { isDatabaseEmpty, resetDatabase, seedDemo } from './seed-demo';

async function main(args: string[]): Promise<number> {
  const unknown = args.filter((arg) => arg !== '--reset');
  if (unknown.length > 0) {
    console.error(`Unknown argument ${unknown.join(' ')}. Usage: npm run db:seed [-- --reset]`);
    return 2;
  }
  const reset = args.includes('--reset');

  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }

  const dbDir = join(config.dataDir, 'db');
  if (!config.databaseUrl) await mkdir(dbDir, { recursive: true });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: dbDir, poolSize: 2 });
  try {
    const where = database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `embedded database in ${dbDir}`;
    console.log(`Database: ${where}`);
    await database.migrate();

    if (reset) {
      await resetDatabase(database.db);
      console.log('Emptied every table.');
    } else if (!(await isDatabaseEmpty(database.db))) {
      console.log('The database already holds data; nothing loaded. Use `npm run db:seed -- --reset` to replace it with the demo plant.');
      return 0;
    }

    const started = Date.now();
    const storage = createFileStorage(config);
    const location = fileStorageLocation(config);
    const summary = await seedDemo(database.db, { storage }).finally(() => storage.close());
    console.log(`Loaded the demo plant in ${((Date.now() - started) / 1000).toFixed(1)} s:`);
    for (const [table, count] of Object.entries(summary.counts)) {
      if (count > 0) console.log(`  ${table.padEnd(28)} ${String(count).padStart(5)}`);
    }
    console.log(`  ${'stored files'.padEnd(28)} ${String(summary.storedFiles).padStart(5)}  (in ${location.kind === 's3' ? `S3 bucket ${location.bucket}` : location.dir})`);
    console.log('\nDemo logins:');
    for (const login of DEMO_LOGINS) console.log(`  ${login.role.padEnd(11)} ${login.email.padEnd(30)} ${login.password}`);
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
