// Backup and restore of one installation: the database (PGlite's data directory, or a PostgreSQL database) and
// the stored files (DATA_DIR/files; with S3 storage the bucket is backed up with the provider's tools and the
// backup records its name), plus the generated JWT secret if there is one. `npm run backup` and
// `npm run restore` (cli.ts) call these functions; docs/operations.md is the operator's procedure.
import { PGlite } from '@electric-sql/pglite';
import { spawn } from 'node:child_process';
import { access, cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { join, relative, sep } from 'node:path';
import pg from 'pg';
import { APP_VERSION } from '../app';
import { JWT_SECRET_FILE, type Config } from '../config';
import { createFileStorage, type FileStorage } from '../storage/file-storage';

/** What a backup directory holds; `format` changes only when a restore of an older one needs other steps. */
export interface BackupManifest {
  format: 1;
  createdAt: string;
  appVersion: string;
  database: 'pglite' | 'postgres';
  /** The database file inside the backup directory. */
  databaseFile: string;
  files: number;
  jwtSecret: boolean;
  /**
   * Where the files were: `local` (copied into the backup's `files/`) or `s3` (not copied: the bucket is backed
   * up with the provider's tools, after the database; see docs/operations.md). Missing in older backups: local.
   */
  fileStore?: 'local' | 's3';
  /** The S3 bucket the database's file rows refer to (fileStore `s3`). */
  bucket?: string;
}

export const MANIFEST_FILE = 'manifest.json';
const PGLITE_ARCHIVE = 'database.tar.gz';
const PG_DUMP_FILE = 'database.pgdump';
const FILES_DIR = 'files';

export class BackupError extends Error {}

/** Where the embedded database lives (main.ts opens the same directory). */
export const pgliteDir = (config: Pick<Config, 'dataDir'>) => join(config.dataDir, 'db');
const filesDir = (config: Pick<Config, 'dataDir'>) => join(config.dataDir, FILES_DIR);

/**
 * PGlite writes postmaster.pid into its directory while a process has it open and removes it on a clean close.
 * PGlite does not refuse a second process, and two processes writing one data directory destroy it, so the
 * backup and the restore refuse while the file exists.
 */
async function assertPgliteClosed(dir: string): Promise<void> {
  const open = await access(join(dir, 'postmaster.pid')).then(
    () => true,
    () => false,
  );
  if (open) {
    throw new BackupError(
      `The embedded database in ${dir} is open (postmaster.pid): stop the server first. If it is not running, it did not shut down cleanly: start it once and stop it with Ctrl+C or SIGTERM.`,
    );
  }
}

async function isEmptyDir(dir: string): Promise<boolean> {
  const entries = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return entries.length === 0;
}

async function countFiles(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).length;
}

/**
 * Runs pg_dump/pg_restore with the connection in the environment, not on the command line, so the password
 * never shows in the process list.
 */
function runPgTool(tool: 'pg_dump' | 'pg_restore', args: string[], databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const environment: NodeJS.ProcessEnv = {
    ...process.env,
    PGHOST: decodeURIComponent(url.hostname),
    PGPORT: url.port || '5432',
    PGUSER: decodeURIComponent(url.username),
    PGDATABASE: decodeURIComponent(url.pathname.slice(1)),
  };
  if (url.password) environment.PGPASSWORD = decodeURIComponent(url.password);
  const sslmode = url.searchParams.get('sslmode');
  if (sslmode) environment.PGSSLMODE = sslmode;
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env: environment, stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => reject(new BackupError(`${tool} could not be started (${error.message}): install the PostgreSQL client tools, at least the server's version`)));
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new BackupError(`${tool} failed (exit ${code}): ${stderr.trim()}`))));
  });
}

/**
 * Writes a backup of the installation `config` describes into `target` (a new or empty directory).
 *
 * Order: the database first, then the files. An upload writes its bytes before its row is marked complete, so
 * every complete file in the database copy has its bytes on disk by the time the files are copied; bytes that
 * arrive after the database copy are only extra (no row refers to them, and a restored server never serves
 * them). The other order could restore a row whose bytes are missing.
 *
 * PostgreSQL: `pg_dump` takes a consistent snapshot while the servers keep running. PGlite: the server must be
 * stopped (see assertPgliteClosed); the copy is made through PGlite itself, which opens the directory as the
 * server would (finishing recovery if needed) and writes it out as one archive.
 */
export async function createBackup(config: Config, target: string): Promise<BackupManifest> {
  if (!(await isEmptyDir(target))) throw new BackupError(`${target} is not empty: back up into a new directory`);
  await mkdir(target, { recursive: true });
  let databaseFile: string;
  if (config.databaseUrl) {
    databaseFile = PG_DUMP_FILE;
    await runPgTool('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${join(target, databaseFile)}`], config.databaseUrl);
  } else {
    const dir = pgliteDir(config);
    if (await isEmptyDir(dir)) throw new BackupError(`No embedded database in ${dir}: is DATA_DIR right?`);
    await assertPgliteClosed(dir);
    databaseFile = PGLITE_ARCHIVE;
    const client = await PGlite.create(dir);
    try {
      const archive = await client.dumpDataDir('gzip');
      await writeFile(join(target, databaseFile), new Uint8Array(await archive.arrayBuffer()));
    } finally {
      await client.close();
    }
  }
  const to = join(target, FILES_DIR);
  await mkdir(to, { recursive: true });
  // why not copy the bucket: a bucket is often far larger than the database and its provider has the right
  // tools (versioning, replication, `aws s3 sync`, `mc mirror`); objects are written once under new keys, so a
  // bucket copy taken after this database copy holds every file the copy refers to.
  if (!config.s3) {
    // why no temporary files: local-storage.ts writes `<key>.<uuid>.tmp` and renames; a half-written one is no file.
    await cp(filesDir(config), to, { recursive: true, filter: (source) => !source.endsWith('.tmp') }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
  const secret = await readFile(join(config.dataDir, JWT_SECRET_FILE)).catch(() => undefined);
  if (secret) await writeFile(join(target, JWT_SECRET_FILE), secret, { mode: 0o600 });
  const manifest: BackupManifest = {
    format: 1,
    createdAt: new Date().toISOString(),
    appVersion: APP_VERSION,
    database: config.databaseUrl ? 'postgres' : 'pglite',
    databaseFile,
    files: await countFiles(to),
    jwtSecret: secret !== undefined,
    fileStore: config.s3 ? 's3' : 'local',
    ...(config.s3 ? { bucket: config.s3.bucket } : {}),
  };
  await writeFile(join(target, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Streams every file below `dir` into `storage`, keyed by its path below `dir`. */
async function uploadFiles(dir: string, storage: FileStorage): Promise<void> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries.filter((e) => e.isFile())) {
    const path = join(entry.parentPath, entry.name);
    const key = relative(dir, path).split(sep).join('/');
    const staged = await storage.stage(key, createReadStream(path), 'application/octet-stream');
    await staged.commit();
  }
}

async function readManifest(source: string): Promise<BackupManifest> {
  const text = await readFile(join(source, MANIFEST_FILE), 'utf8').catch(() => {
    throw new BackupError(`${source} holds no ${MANIFEST_FILE}: not a backup made by npm run backup`);
  });
  const manifest = JSON.parse(text) as BackupManifest;
  if (manifest.format !== 1) throw new BackupError(`Backup format ${String(manifest.format)} is not known to this version`);
  return manifest;
}

async function postgresIsEmpty(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>("select count(*) from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')");
    return Number(rows[0]?.count ?? 0) === 0;
  } finally {
    await client.end();
  }
}

/**
 * Restores `source` (a directory written by createBackup) into the installation `config` describes: an empty
 * database (a new PostgreSQL database, or a DATA_DIR without `db/`) and an empty files directory. It never
 * overwrites: the operator moves the damaged installation aside first, so a wrong restore can be undone.
 * A backup of one database kind restores only into that kind. Files: a backup of local files restores into
 * DATA_DIR/files, or into the bucket when S3 is configured (moving to S3); a backup taken with S3 holds no
 * files and restores only with S3 configured (the bucket, or a restored copy of it, holds them).
 */
export async function restoreBackup(config: Config, source: string): Promise<BackupManifest> {
  const manifest = await readManifest(source);
  const wanted = config.databaseUrl ? 'postgres' : 'pglite';
  if (manifest.database !== wanted) throw new BackupError(`This is a ${manifest.database} backup; the configured database is ${wanted}`);
  const fromS3 = manifest.fileStore === 's3';
  if (fromS3 && !config.s3) {
    throw new BackupError(
      `The files of this backup are in the S3 bucket ${manifest.bucket ?? '(unknown)'}, not in the backup: configure S3_* for that bucket (or a restored copy of it) before restoring`,
    );
  }
  if (!config.s3 && !(await isEmptyDir(filesDir(config)))) throw new BackupError(`${filesDir(config)} is not empty: move it aside first`);
  if (config.databaseUrl) {
    if (!(await postgresIsEmpty(config.databaseUrl))) throw new BackupError('The database in DATABASE_URL is not empty: restore into a new database (createdb)');
    await runPgTool('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${decodeURIComponent(new URL(config.databaseUrl).pathname.slice(1))}`, join(source, manifest.databaseFile)], config.databaseUrl);
  } else {
    const dir = pgliteDir(config);
    if (!(await isEmptyDir(dir))) throw new BackupError(`${dir} is not empty: move it aside first`);
    await mkdir(dir, { recursive: true });
    const archive = new Blob([new Uint8Array(await readFile(join(source, manifest.databaseFile)))]);
    const client = await PGlite.create(dir, { loadDataDir: archive });
    await client.close();
  }
  if (config.s3 && !fromS3) {
    // A backup of an installation on local disk, restored into one on S3 (the way to move to S3): the files go
    // into the bucket under their paths, which are their keys.
    const storage = createFileStorage(config);
    await uploadFiles(join(source, FILES_DIR), storage).finally(() => storage.close());
  } else if (!fromS3) {
    await mkdir(filesDir(config), { recursive: true });
    await cp(join(source, FILES_DIR), filesDir(config), { recursive: true });
  }
  if (manifest.jwtSecret && !config.jwtSecret) {
    await writeFile(join(config.dataDir, JWT_SECRET_FILE), await readFile(join(source, JWT_SECRET_FILE)), { mode: 0o600 });
  }
  return manifest;
}
