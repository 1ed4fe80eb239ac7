import { HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Storage, S3_PART_BYTES, type S3Storage } from '../../src/server/storage/s3-storage';
import { startS3Server, type TestS3Server } from './support/s3-server';

/** `total` bytes of a repeating pattern in chunks of `chunk` bytes, produced as they are read. */
function patternSource(total: number, chunk = 64 * 1024): { source: Readable; bytes: Buffer; read: () => number } {
  const bytes = Buffer.alloc(total);
  for (let i = 0; i < total; i += 1) bytes[i] = (i * 31 + (i >> 12)) & 0xff;
  let offset = 0;
  const source = new Readable({
    read() {
      if (offset >= total) return void this.push(null);
      this.push(bytes.subarray(offset, offset + chunk));
      offset += chunk;
    },
  });
  return { source, bytes, read: () => Math.min(offset, total) };
}

describe('S3 file storage against an S3 API server', () => {
  let s3: TestS3Server;
  let storage: S3Storage;

  const keysInBucket = async () => {
    const listed = await storage.client.send(new ListObjectsV2Command({ Bucket: s3.settings.bucket }));
    return (listed.Contents ?? []).map((object) => object.Key).sort();
  };

  /** The S3 operations the storage sent, in order, with how many source bytes had been read at each. */
  const sent: { command: string; read: number }[] = [];
  let bytesRead = () => 0;

  beforeAll(async () => {
    s3 = await startS3Server();
    storage = createS3Storage(s3.settings);
    storage.client.middlewareStack.add(
      (next, context) => async (args) => {
        sent.push({ command: String(context.commandName), read: bytesRead() });
        return next(args);
      },
      { step: 'initialize', name: 'recordCommands' },
    );
  });
  afterAll(async () => {
    storage.client.destroy();
    await s3.close();
  });

  it('records the bucket name as bucketid', () => {
    expect(storage.bucketid).toBe('anlagenbuch-test');
  });

  it('streams a file of several parts as a multipart upload, measured and hashed, visible only after commit', async () => {
    const total = 2 * S3_PART_BYTES + 123_457;
    const { source, bytes, read } = patternSource(total);
    bytesRead = read;
    sent.length = 0;
    const key = 'le/big/1.pdf';
    const staged = await storage.stage(key, source, 'application/pdf');
    // Parts go out while the source is read (one part in memory), not after it was read whole.
    expect(sent.map((entry) => entry.command)).toEqual(['CreateMultipartUploadCommand', 'UploadPartCommand', 'UploadPartCommand', 'UploadPartCommand']);
    expect(sent[1]!.read).toBeLessThan(S3_PART_BYTES + 64 * 1024 + 1);
    expect(sent[2]!.read).toBeLessThan(2 * S3_PART_BYTES + 64 * 1024 + 1);
    expect(staged.size).toBe(total);
    expect(staged.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(await storage.open(key)).toBeNull();
    expect(await keysInBucket()).not.toContain(key);

    await staged.commit();
    await staged.discard();
    expect(sent.at(-1)!.command).toBe('CompleteMultipartUploadCommand');
    const head = await storage.client.send(new HeadObjectCommand({ Bucket: s3.settings.bucket, Key: key }));
    expect(head.ContentType).toBe('application/pdf');
    const stored = await storage.open(key);
    expect(stored!.size).toBe(total);
    expect((await buffer(stored!.stream)).equals(bytes)).toBe(true);
  });

  it('sends a small file in one request at commit, and a new commit replaces the bytes', async () => {
    const key = 'le/small/1.png';
    const first = await storage.stage(key, Readable.from([Buffer.from('first'), Buffer.from(' bytes')]), 'image/png');
    expect(first.size).toBe(11);
    expect(await storage.get(key)).toBeNull();
    await first.commit();
    expect(Buffer.from((await storage.get(key))!).toString()).toBe('first bytes');
    const second = await storage.stage(key, Readable.from([Buffer.from('second')]), 'image/png');
    await second.commit();
    const stored = await storage.open(key);
    expect(stored!.size).toBe(6);
    expect((await buffer(stored!.stream)).toString()).toBe('second');
    await expect(second.commit()).rejects.toThrow(/already committed/);
  });

  it('leaves nothing when the source fails in the middle of a multipart upload or a staged upload is discarded', async () => {
    const before = await keysInBucket();
    const { bytes } = patternSource(S3_PART_BYTES + 1000);
    let sent = 0;
    const failing = new Readable({
      read() {
        if (sent >= bytes.length) return void this.destroy(new Error('client went away'));
        this.push(bytes.subarray(sent, sent + 256 * 1024));
        sent += 256 * 1024;
      },
    });
    await expect(storage.stage('le/failed/1.pdf', failing, 'application/pdf')).rejects.toThrow('client went away');
    expect(sent).toBeGreaterThan(S3_PART_BYTES);

    const discardedBig = await storage.stage('le/discarded/1.pdf', patternSource(S3_PART_BYTES + 10).source, 'application/pdf');
    await discardedBig.discard();
    const discardedSmall = await storage.stage('le/discarded/2.png', Readable.from([Buffer.from('x')]), 'image/png');
    await discardedSmall.discard();
    await discardedSmall.discard();

    expect(await keysInBucket()).toEqual(before);
    expect(await storage.open('le/failed/1.pdf')).toBeNull();
    expect(await storage.open('le/discarded/1.pdf')).toBeNull();
    expect(await storage.get('le/discarded/2.png')).toBeNull();
  });

  it('puts, gets and removes; a missing key opens as null and removes without error', async () => {
    const key = 'support/handbuch.pdf';
    await storage.put(key, new Uint8Array([1, 2, 3]), 'application/pdf');
    expect(await storage.get(key)).toEqual(new Uint8Array([1, 2, 3]));
    await storage.remove(key);
    expect(await storage.get(key)).toBeNull();
    expect(await storage.open(key)).toBeNull();
    await expect(storage.remove(key)).resolves.toBeUndefined();
    await expect(storage.remove('never/was/there')).resolves.toBeUndefined();
  });

  it.each(['../outside', '/etc/passwd', 'a//b', '', 'a/./b'])('refuses the key %j', async (key) => {
    await expect(storage.put(key, new Uint8Array([1]), 'text/plain')).rejects.toThrow(/invalid storage key/);
    await expect(storage.open(key)).rejects.toThrow(/invalid storage key/);
  });
});
