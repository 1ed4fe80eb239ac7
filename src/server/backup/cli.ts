// `npm run backup -- <directory>` and `npm run restore -- <directory>`: the operator's commands
// (docs/operations.md). They read the same environment as the server (DATA_DIR, DATABASE_URL, …).
import { resolve } from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { BackupError, createBackup, restoreBackup } from './backup';

const USAGE = 'usage: npm run backup -- <new directory>   |   npm run restore -- <backup directory>';

async function main(): Promise<number> {
  const [command, directory] = process.argv.slice(2);
  if ((command !== 'backup' && command !== 'restore') || !directory) {
    console.error(USAGE);
    return 2;
  }
  try {
    const config = loadConfig(process.env);
    const path = resolve(directory);
    if (command === 'backup') {
      const manifest = await createBackup(config, path);
      console.log(`Backup written to ${path}: ${manifest.database} database, ${manifest.files} files.`);
      if (manifest.fileStore === 's3') {
        console.log(`The files are in the S3 bucket ${manifest.bucket ?? ''} and not in this backup: back up the bucket now with the provider's tools (docs/operations.md).`);
      }
    } else {
      const manifest = await restoreBackup(config, path);
      const files = manifest.fileStore === 's3' ? `files in the S3 bucket ${manifest.bucket ?? ''}` : `${manifest.files} files`;
      console.log(`Restored the backup of ${manifest.createdAt} (${manifest.database}, ${files}). Start the server now.`);
    }
    return 0;
  } catch (error) {
    if (error instanceof ConfigError || error instanceof BackupError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

main().then((code) => process.exit(code));
