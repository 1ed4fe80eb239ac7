import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

/**
 * Object storage on local disk (the default when no S3 is configured). Keys are '/'-separated paths below
 * the root, like S3 object keys. The files table is the record of a file's type and size; the disk holds only
 * the bytes, so `mimetype` is accepted for parity with S3 (Content-Type) and not stored here.
 */
export interface LocalStorage {
  readonly rootDir: string;
  put(key: string, bytes: Uint8Array, mimetype: string): Promise<void>;
  /** The stored bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Uint8Array | null>;
  /** Removing a missing key is not an error: cleanup jobs may run twice. */
  remove(key: string): Promise<void>;
}

const KEY_PATTERN = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

export function createLocalStorage(rootDir: string): LocalStorage {
  const root = resolve(rootDir);

  const pathFor = (key: string): string => {
    // why: keys reach here from stored rows and URLs; '..' or an absolute path must never leave the root.
    if (!KEY_PATTERN.test(key) || key.split('/').some((part) => part === '.' || part === '..')) {
      throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
    }
    const path = join(root, ...key.split('/'));
    if (!path.startsWith(root + sep)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
    return path;
  };

  return {
    rootDir: root,
    async put(key, bytes, _mimetype) {
      const path = pathFor(key);
      await mkdir(dirname(path), { recursive: true });
      // why write-then-rename: a reader (or a crash) never sees a half-written file under the final key.
      const temporary = `${path}.${randomUUID()}.tmp`;
      await writeFile(temporary, bytes);
      await rename(temporary, path);
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(pathFor(key)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async remove(key) {
      await rm(pathFor(key), { force: true });
    },
  };
}

/**
 * Where a file version's bytes live: one folder per tenant and file, one object per version. Upload and seed
 * both use this, so a stored key can always be traced back to its row.
 */
export function fileStorageKey(file: { legalentitynodeid: string; fileid: string; fileversion: number; extension?: string | null }): string {
  const suffix = file.extension ? `.${file.extension.toLowerCase().replace(/[^a-z0-9]/g, '')}` : '';
  return `${file.legalentitynodeid}/${file.fileid}/${file.fileversion}${suffix}`;
}
