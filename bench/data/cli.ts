// `npm run bench:data -- --machines 5000 --notifications 100000 --readings 50000 [--attachments N] [--seed S]
// [--now ISO] --out <dataDir> | --database-url URL`: writes the big plant (big-plant.ts) into a new data directory
// (the embedded database under <dataDir>/db, as the server opens it with DATA_DIR=<dataDir>) or into an empty
// PostgreSQL database, migrated, with the demo logins. The server then serves it as it is.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { openDatabase } from '../../src/server/db/client';
import { DEMO_LOGINS } from '../../src/server/db/seed/demo-users';
import { isDatabaseEmpty } from '../../src/server/db/seed/seed-demo';
import { seedBigPlant } from './big-plant';

function argument(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

function count(args: string[], name: string, fallback: number): number {
  const value = Number(argument(args, name) ?? fallback);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number ≥ 0`);
  return value;
}

async function main(args: string[]): Promise<number> {
  const out = argument(args, '--out');
  const databaseUrl = argument(args, '--database-url');
  if (!out && !databaseUrl) {
    console.error('Usage: npm run bench:data -- --machines 5000 --notifications 100000 --readings 50000 [--attachments N] [--seed S] --out <dataDir> | --database-url URL');
    return 2;
  }
  const dbDir = out ? join(out, 'db') : '';
  if (!databaseUrl) await mkdir(dbDir, { recursive: true });
  const database = await openDatabase({ databaseUrl, dataDir: dbDir, poolSize: 2 });
  try {
    await database.migrate();
    if (!(await isDatabaseEmpty(database.db))) {
      console.error('The database already holds data; the big plant needs an empty one.');
      return 1;
    }
    const started = Date.now();
    const attachments = argument(args, '--attachments');
    const now = argument(args, '--now');
    const summary = await seedBigPlant(database.db, {
      machines: count(args, '--machines', 5000),
      notifications: count(args, '--notifications', 100_000),
      readings: count(args, '--readings', 50_000),
      ...(attachments === undefined ? {} : { attachments: count(args, '--attachments', 0) }),
      seed: count(args, '--seed', 1),
      ...(now ? { now: new Date(now) } : {}),
      log: (line) => console.log(`  ${line}`),
    });
    console.log(`Big plant loaded in ${((Date.now() - started) / 1000).toFixed(1)} s into ${databaseUrl ? 'PostgreSQL' : dbDir} (change version ${summary.version}).`);
    console.log(`Logins: ${DEMO_LOGINS.map((login) => `${login.email} / ${login.password}`).join(', ')}`);
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
