import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../../../src/server/storage/s3-storage';

export interface TestS3Server {
  /** Settings for createS3Storage, pointing at one bucket of this server. */
  settings: S3Settings;
  /** The S3_* variables that configure the app for this bucket (for createTestApp / testConfig). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A real S3 API server (s3rver: the S3 REST protocol over a temporary directory) on a free port of 127.0.0.1,
 * with one empty bucket. Not a mock: the app's S3 client signs and sends real requests to it.
 */
export async function startS3Server(bucket = 'anlagenbuch-test'): Promise<TestS3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'anlagenbuch-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver accepts any signature made with its fixed development key pair.
  const settings: S3Settings = { endpoint, bucket, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true };
  return {
    settings,
    env: { S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
