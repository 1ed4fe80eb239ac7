import { createHmac, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../config';
import { createLocalStorage, type StagedObject, type StoredObject } from './local-storage';
import { createS3Storage } from './s3-storage';

export type { StagedObject, StoredObject };

/**
 * Where file bytes live: the local disk (bucket `local`, under DATA_DIR/files), or an S3 bucket when S3_* is
 * configured (s3-storage.ts; bucketid = the bucket's name). The database row (`files`) is the record of type,
 * size, status and bucket; the store holds only bytes.
 */
export interface FileStorage {
  readonly bucketid: string;
  /** Small, already complete bytes (the seed's files); uploads use stage. */
  put(key: string, bytes: Uint8Array, mimetype: string): Promise<void>;
  get(key: string): Promise<Uint8Array | null>;
  /**
   * An upload: streams `source` with constant memory, measuring size and SHA-256; visible under `key` only
   * after commit() (S3: a multipart upload completed or aborted). An error of `source` rejects and leaves nothing.
   */
  stage(key: string, source: Readable, mimetype: string): Promise<StagedObject>;
  /** A download: the stored bytes as a stream with their size, or null. */
  open(key: string): Promise<StoredObject | null>;
  remove(key: string): Promise<void>;
  /** Ends the store's connections (S3's keep-alive sockets) when the app closes. */
  close(): void;
}

/** The configured store: S3 when S3_BUCKET (with its credentials) is set, else the local disk. */
export function createFileStorage(config: Pick<Config, 'dataDir' | 's3'>): FileStorage {
  if (config.s3) {
    const s3 = createS3Storage(config.s3);
    return { bucketid: s3.bucketid, put: s3.put, get: s3.get, stage: s3.stage, open: s3.open, remove: s3.remove, close: () => s3.client.destroy() };
  }
  const local = createLocalStorage(fileStorageDir(config));
  return { bucketid: 'local', put: local.put, get: local.get, stage: local.stage, open: local.open, remove: local.remove, close: () => undefined };
}

/** Where the local disk store keeps its bytes (only used without S3). */
export function fileStorageDir(config: Pick<Config, 'dataDir'>): string {
  return join(config.dataDir, 'files');
}

/** Where files go, in words for the start banner and the seed command. */
export function fileStorageLocation(config: Pick<Config, 'dataDir' | 's3'>): { kind: 's3'; bucket: string; endpoint: string | undefined } | { kind: 'local'; dir: string } {
  return config.s3 ? { kind: 's3', bucket: config.s3.bucket, endpoint: config.s3.endpoint } : { kind: 'local', dir: fileStorageDir(config) };
}

export type SignedMethod = 'PUT' | 'GET';

/**
 * HMAC-signed, expiring file URLs. The key is derived from the JWT secret (never the secret itself, so a URL
 * leaked to a log cannot help forge tokens), which every instance shares; any instance verifies any URL.
 * The signature covers file id, version, method and expiry, so an upload URL cannot be used to download.
 */
export interface FileUrlSigner {
  sign(file: { fileid: string; fileversion: number }, method: SignedMethod, expiresAtMs: number): string;
  verify(file: { fileid: string; fileversion: number }, method: SignedMethod, expiresAtMs: number, signature: string): boolean;
}

export function createFileUrlSigner(jwtSecret: string): FileUrlSigner {
  const key = createHmac('sha256', jwtSecret).update('anlagenbuch:file-urls:v1').digest();
  const mac = (file: { fileid: string; fileversion: number }, method: SignedMethod, exp: number) =>
    createHmac('sha256', key).update(`${method}\n${file.fileid}\n${file.fileversion}\n${exp}`).digest();
  return {
    sign: (file, method, exp) => mac(file, method, exp).toString('base64url'),
    verify: (file, method, exp, signature) => {
      // why compare the text, not the decoded bytes: base64url decoding skips characters it does not know and
      // ignores trailing ones, so many strings decode to the same MAC; only the canonical encoding verifies.
      const expected = Buffer.from(mac(file, method, exp).toString('base64url'));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

/** Path of a file version's content; the signature and expiry go in the query. */
export function fileContentPath(file: { fileid: string; fileversion: number }): string {
  return `/api/files/${file.fileid}/${file.fileversion}/content`;
}
