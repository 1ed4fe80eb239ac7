import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { StagedObject, StoredObject } from './local-storage';

/** Where an S3-compatible object store is and how to sign in to it (S3_* variables, src/server/config.ts). */
export interface S3Settings {
  /** Undefined: AWS's own endpoint for the region. */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Path-style URLs (`https://host/bucket/key`), which MinIO and most self-hosted stores need. */
  forcePathStyle: boolean;
}

/**
 * Size of one part of a multipart upload, and the most bytes one upload holds in memory. S3 wants at least
 * 5 MiB for every part but the last; at most 10 000 parts, so 5 MiB parts carry up to 48 GiB (FILE_MAX_BYTES
 * stops at 5 GiB).
 */
export const S3_PART_BYTES = 5 * 1024 * 1024;

/** Connections to the S3 endpoint per instance (uploads and downloads in flight at once). */
export const S3_MAX_SOCKETS = 256;

export interface S3Storage {
  readonly bucketid: string;
  readonly client: S3Client;
  put(key: string, bytes: Uint8Array, mimetype: string): Promise<void>;
  get(key: string): Promise<Uint8Array | null>;
  stage(key: string, source: Readable, mimetype: string): Promise<StagedObject>;
  open(key: string): Promise<StoredObject | null>;
  remove(key: string): Promise<void>;
}

const KEY_PATTERN = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

function checkedKey(key: string): string {
  // why the same rule as on disk: keys come from stored rows; one rule keeps a key valid in either store.
  if (!KEY_PATTERN.test(key) || key.split('/').some((part) => part === '.' || part === '..')) {
    throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
  }
  return key;
}

function isNotFound(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 404 || error.name === 'NoSuchKey');
}

export function createS3Client(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // why: the SDK's default adds CRC32 trailers (aws-chunked bodies) that many S3-compatible stores (MinIO
    // before 2024, Ceph, s3rver) reject; the upload's SHA-256 is checked by the app itself.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // why more sockets than the SDK's 50: a download holds its socket until the tablet has read the whole file,
    // and slow readers must not make every other upload and download of the instance wait for a socket.
    requestHandler: { httpAgent: { keepAlive: true, maxSockets: S3_MAX_SOCKETS }, httpsAgent: { keepAlive: true, maxSockets: S3_MAX_SOCKETS } },
  });
}

/**
 * File bytes in an S3 bucket (AWS S3, MinIO, Ceph, …): the same contract as the local disk (local-storage.ts).
 *
 * An upload (stage) reads the source part by part — at most one part (S3_PART_BYTES) in memory, and reading
 * pauses while a part is sent — counting and hashing on the way. A source that ends within the first part is
 * kept in memory and written with one PutObject at commit(); a longer one becomes a multipart upload whose
 * parts are sent while reading and which is completed at commit(). Either way nothing is visible under the key
 * before commit(); discard() or an error of the source aborts the multipart upload. An upload cut off by a
 * crash stays an incomplete multipart upload, invisible and not listed; a bucket lifecycle rule
 * (AbortIncompleteMultipartUpload) removes it (docs/configuration.md).
 */
export function createS3Storage(settings: S3Settings, options: { client?: S3Client; partBytes?: number } = {}): S3Storage {
  const client = options.client ?? createS3Client(settings);
  const Bucket = settings.bucket;
  const partBytes = Math.max(options.partBytes ?? S3_PART_BYTES, 1);

  const abort = async (Key: string, UploadId: string) => {
    // why ignore a failed abort: the upload is invisible either way, and the lifecycle rule ends it; the
    // caller's error (the source's) is the one to report.
    await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => undefined);
  };

  return {
    bucketid: Bucket,
    client,
    async put(key, bytes, mimetype) {
      await client.send(new PutObjectCommand({ Bucket, Key: checkedKey(key), Body: bytes, ContentType: mimetype, ContentLength: bytes.byteLength }));
    },
    async get(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: checkedKey(key) }));
        return answer.Body ? await answer.Body.transformToByteArray() : new Uint8Array();
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async stage(key, source, mimetype) {
      const Key = checkedKey(key);
      const hash = createHash('sha256');
      let size = 0;
      let buffered: Buffer[] = [];
      let bufferedBytes = 0;
      let uploadId: string | undefined;
      const parts: CompletedPart[] = [];

      const sendPart = async (body: Buffer) => {
        if (uploadId === undefined) {
          const created = await client.send(new CreateMultipartUploadCommand({ Bucket, Key, ContentType: mimetype }));
          if (!created.UploadId) throw new Error('S3 answered CreateMultipartUpload without an UploadId');
          uploadId = created.UploadId;
        }
        const PartNumber = parts.length + 1;
        const answer = await client.send(new UploadPartCommand({ Bucket, Key, UploadId: uploadId, PartNumber, Body: body, ContentLength: body.length }));
        parts.push({ PartNumber, ETag: answer.ETag });
      };

      try {
        // why for-await: it reads the next chunk only after the previous one is handled, so while a part is
        // being sent the source is paused (backpressure) and memory stays at one part.
        for await (const chunk of source as AsyncIterable<Buffer | string>) {
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          size += bytes.length;
          hash.update(bytes);
          buffered.push(bytes);
          bufferedBytes += bytes.length;
          while (bufferedBytes >= partBytes) {
            const whole = Buffer.concat(buffered);
            await sendPart(whole.subarray(0, partBytes));
            const rest = whole.subarray(partBytes);
            buffered = rest.length > 0 ? [Buffer.from(rest)] : [];
            bufferedBytes = rest.length;
          }
        }
        // The rest goes up now as the last part (any size is allowed for it), so commit() only completes.
        if (uploadId !== undefined && bufferedBytes > 0) {
          await sendPart(Buffer.concat(buffered));
          buffered = [];
          bufferedBytes = 0;
        }
      } catch (error) {
        if (uploadId !== undefined) await abort(Key, uploadId);
        throw error;
      }

      const small = uploadId === undefined ? Buffer.concat(buffered) : undefined;
      buffered = [];
      let settled = false;
      return {
        size,
        sha256: hash.digest('hex'),
        async commit() {
          if (settled) throw new Error('staged object already committed or discarded');
          settled = true;
          if (small !== undefined) {
            await client.send(new PutObjectCommand({ Bucket, Key, Body: small, ContentType: mimetype, ContentLength: small.length }));
          } else {
            await client.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
          }
        },
        async discard() {
          if (settled) return;
          settled = true;
          if (uploadId !== undefined) await abort(Key, uploadId);
        },
      };
    },
    async open(key) {
      let answer;
      try {
        answer = await client.send(new GetObjectCommand({ Bucket, Key: checkedKey(key) }));
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
      // why one GetObject: size and stream belong to the same object even if a new version is written meanwhile.
      return { stream: answer.Body as Readable, size: answer.ContentLength ?? 0 };
    },
    async remove(key) {
      // Removing a missing key is not an error in S3 either (204), so a cleanup may run twice.
      await client.send(new DeleteObjectCommand({ Bucket, Key: checkedKey(key) }));
    },
  };
}
