import { createHmac, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { createLocalStorage } from './local-storage';

/**
 * Where file bytes live. Local disk today (bucket `local`, under DATA_DIR/files); an S3 implementation of the
 * same interface replaces it when S3_* is configured. The database row (`files`) is the record of type, size
 * and status; the store holds only bytes.
 */
export interface FileStorage {
  readonly bucketid: string;
  put(key: string, bytes: Uint8Array, mimetype: string): Promise<void>;
  get(key: string): Promise<Uint8Array | null>;
  remove(key: string): Promise<void>;
}

export function createFileStorage(dataDir: string): FileStorage {
  const local = createLocalStorage(join(dataDir, 'files'));
  return { bucketid: 'local', put: local.put, get: local.get, remove: local.remove };
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
      const expected = mac(file, method, exp);
      const given = Buffer.from(signature, 'base64url');
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

/** Path of a file version's content; the signature and expiry go in the query. */
export function fileContentPath(file: { fileid: string; fileversion: number }): string {
  return `/api/files/${file.fileid}/${file.fileversion}/content`;
}
