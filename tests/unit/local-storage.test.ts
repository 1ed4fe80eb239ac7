import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
