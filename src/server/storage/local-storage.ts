import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

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
  /**
   * Streams `source` to a temporary object next to `key` with constant memory, counting and hashing on the
   * way. Nothing is visible under `key` until commit(); discard() (or an error of `source`) leaves nothing.
   */
  stage(key: string, source: Readable, mimetype: string): Promise<StagedObject>;
  /** A stream of the stored bytes and their size, or null when nothing is stored under the key. */
  open(key: string): Promise<StoredObject | null>;
  /** Removing a missing key is not an error: cleanup jobs may run twice. */
  remove(key: string): Promise<void>;
}

/** An upload written but not yet visible under its key (see LocalStorage.stage). */
export interface StagedObject {
  readonly size: number;
  /** Hex SHA-256 of the bytes. */
  readonly sha256: string;
  /** Makes the bytes visible under the key, replacing what was there. */
  commit(): Promise<void>;
  /** Drops the bytes; safe to call after commit (then it does nothing) or twice. */
  discard(): Promise<void>;
}

export interface StoredObject {
  stream: Readable;
  size: number;
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
    async stage(key, source, _mimetype) {
      const path = pathFor(key);
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.${randomUUID()}.tmp`;
      const hash = createHash('sha256');
      let size = 0;
      const measure = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          hash.update(chunk);
          callback(null, chunk);
        },
      });
      // why open first: a write stream opens its file asynchronously, so a source that fails at once (a refused
      // type) could reject the pipeline, remove nothing, and then see the file created — a temp file left behind.
      const sink = (await open(temporary, 'wx')).createWriteStream();
      try {
        await pipeline(source, measure, sink);
      } catch (error) {
        // The stream closes its handle when destroyed; only then is nothing of it still writing.
        if (!sink.closed) await new Promise<void>((resolve) => sink.once('close', () => resolve()));
        await rm(temporary, { force: true });
        throw error;
      }
      let settled = false;
      return {
        size,
        sha256: hash.digest('hex'),
        async commit() {
          if (settled) throw new Error('staged object already committed or discarded');
          settled = true;
          await rename(temporary, path);
        },
        async discard() {
          if (settled) return;
          settled = true;
          await rm(temporary, { force: true });
        },
      };
    },
    async open(key) {
      let handle;
      try {
        handle = await open(pathFor(key), 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      // why through the handle: size and stream belong to the same file even if a new version is renamed in.
      const { size } = await handle.stat();
      return { stream: handle.createReadStream(), size };
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
