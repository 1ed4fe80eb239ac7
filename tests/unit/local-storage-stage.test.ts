import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalStorage } from '../../src/server/storage/local-storage';

describe('local storage: a refused upload leaves nothing behind', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'anl-stage-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const failingSource = (chunks: number) =>
    new Readable({
      read() {
        if (chunks-- > 0) this.push(Buffer.from('Zeile\n'));
        else this.destroy(new Error('Ungültiger Dateityp!'));
      },
    });

  // The leftover this guards against came from a race between the write stream opening its file on the thread
  // pool and the cleanup: it showed only on a loaded machine (the API tier's refused-type uploads, twice in CI), so
  // this checks the invariant over many concurrent rounds but cannot force the old interleaving every time.
  it.each([0, 1, 3])('a source failing after %i chunks: stage rejects and no temp file is left', async (chunks) => {
    const storage = createLocalStorage(root);
    await Promise.all(
      Array.from({ length: 100 }, async (_, round) => {
        await expect(storage.stage(`tenant/file-${round}/1.txt`, failingSource(chunks), 'text/plain')).rejects.toThrow('Ungültiger Dateityp!');
      }),
    );
    const left: string[] = [];
    for (const dir of await readdir(join(root, 'tenant'))) left.push(...(await readdir(join(root, 'tenant', dir))));
    expect(left).toEqual([]);
  });

  it('a staged upload is invisible until commit and then has its size and hash', async () => {
    const storage = createLocalStorage(root);
    const staged = await storage.stage('tenant/file/1.txt', Readable.from([Buffer.from('abc')]), 'text/plain');
    expect(staged).toMatchObject({ size: 3, sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' });
    expect(await storage.get('tenant/file/1.txt')).toBeNull();
    await staged.commit();
    expect(Buffer.from((await storage.get('tenant/file/1.txt'))!).toString()).toBe('abc');
  });
});
