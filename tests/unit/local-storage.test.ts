import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalStorage, fileStorageKey, type LocalStorage } from '../../src/server/storage/local-storage';

describe('local file storage', () => {
  let dir: string;
  let storage: LocalStorage;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'anl-storage-'));
    storage = createLocalStorage(dir);
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('stages a stream, measures and hashes it, and shows it under the key only after commit', async () => {
    const key = 'le/file/1.pdf';
    const parts = [Buffer.from('%PDF-1.4\n'), Buffer.alloc(100_000, 7), Buffer.from('%%EOF\n')];
    const staged = await storage.stage(key, Readable.from(parts), 'application/pdf');
    expect(staged.size).toBe(Buffer.concat(parts).length);
    expect(staged.sha256).toBe(createHash('sha256').update(Buffer.concat(parts)).digest('hex'));
    expect(await storage.open(key)).toBeNull();
    await staged.commit();
    await staged.discard();
    const stored = await storage.open(key);
    expect(stored!.size).toBe(staged.size);
    expect((await buffer(stored!.stream)).equals(Buffer.concat(parts))).toBe(true);
    expect(await readdir(join(dir, 'le', 'file'))).toEqual(['1.pdf']);
  });

  it('leaves nothing behind when a staged upload is discarded or its source fails', async () => {
    const discarded = await storage.stage('le/file/1.png', Readable.from([Buffer.from('bytes')]), 'image/png');
    await discarded.discard();
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1000));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(storage.stage('le/file/2.png', failing, 'image/png')).rejects.toThrow('client went away');
    expect(await readdir(join(dir, 'le', 'file'))).toEqual([]);
    expect(await storage.open('le/file/1.png')).toBeNull();
  });

  it('stores, reads, overwrites and removes bytes under nested keys', async () => {
    const key = 'tenant/file/1.pdf';
    await storage.put(key, new Uint8Array([1, 2, 3]), 'application/pdf');
    expect(await storage.get(key)).toEqual(new Uint8Array([1, 2, 3]));
    await storage.put(key, new Uint8Array([4]), 'application/pdf');
    expect(await storage.get(key)).toEqual(new Uint8Array([4]));
    expect(await readdir(join(dir, 'tenant', 'file'))).toEqual(['1.pdf']);
    await storage.remove(key);
    expect(await storage.get(key)).toBeNull();
    await expect(storage.remove(key)).resolves.toBeUndefined();
  });

  it.each(['../outside', '/etc/passwd', 'a/../../b', 'a//b', '', 'a/./b', 'a\\b'])('refuses the key %j', async (key) => {
    await expect(storage.put(key, new Uint8Array([1]), 'text/plain')).rejects.toThrow(/invalid storage key/);
    await expect(storage.get(key)).rejects.toThrow(/invalid storage key/);
  });

  it('derives one key per tenant, file and version', () => {
    expect(fileStorageKey({ legalentitynodeid: 'le', fileid: 'f', fileversion: 2, extension: '.PDF' })).toBe('le/f/2.pdf');
    expect(fileStorageKey({ legalentitynodeid: 'le', fileid: 'f', fileversion: 1 })).toBe('le/f/1');
  });
});
