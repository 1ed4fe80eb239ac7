import { describe, expect, it } from 'vitest';
import { fakeWorker as fakeWorkerOf } from './support/fake-worker';
import { LocalDatabase } from '../../src/client/db/local-db';
import { createApiClient } from '../../src/client/lib/api-client';
import { answerFilePut, createWorkerFilePut, type FilePut, type FilePutReply, type FilePutRequest } from '../../src/client/sync/file-put';
import { createNotification } from '../../src/client/sync/repositories/notifications';
import { createSender } from '../../src/client/sync/sender';
import { memoryTokens } from './support/memory-tokens';
import { MACHINE, USER, useSyncTestServer } from './support/sync-test-server';

// File uploads off the main thread (src/client/sync/file-put.ts): the worker reads the stored bytes from the device
// database itself and PUTs them; the page only posts the key and the signed URL.

const server = useSyncTestServer();

const fakeWorker = (options: { silent?: boolean } = {}) => fakeWorkerOf<FilePutRequest, FilePutReply>(answerFilePut, options);

const photo = (n: number) => ({ bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, n, n, n]).buffer, mimetype: 'image/jpeg', name: `foto-${n}.jpg` });

async function deviceWithPhotos(count: number) {
  const db = new LocalDatabase(`file-put-${Math.random()}`);
  await db.mirror('equipment').put({ nodeid: MACHINE, name: 'Hydraulikpresse HP-200' });
  for (let n = 1; n <= count; n++) await createNotification({ db, usernodeid: USER }, { type: 0, title: `Foto ${n}`, equipmentnodeid: MACHINE, photo: photo(n) });
  return db;
}

describe('file uploads in a worker', () => {
  it('the worker reads the bytes by key from the device database and PUTs them with their type; a key without bytes answers missing', async () => {
    const db = await deviceWithPhotos(1);
    const [stored] = await db.fileBytes.toArray();
    const replies: FilePutReply[] = [];
    await answerFilePut({ id: 1, database: db.name, key: stored!.fileid, url: `${server.origin}/upload/f-1?sig=ok`, timeoutMs: 5_000 }, (reply) => replies.push(reply));
    expect(replies).toEqual([{ id: 1, type: 'answer', status: 200, body: '{"ok":true}' }]);
    expect(server.uploads.get('f-1')).toEqual(Buffer.from(new Uint8Array(photo(1).bytes)));

    await answerFilePut({ id: 2, database: db.name, key: 'no-such-file', url: `${server.origin}/upload/f-2?sig=ok`, timeoutMs: 5_000 }, (reply) => replies.push(reply));
    expect(replies.at(-1)).toEqual({ id: 2, type: 'missing' });
    expect(server.uploads.has('f-2')).toBe(false);
  });

  it('a network failure is a failure (retried), not missing bytes', async () => {
    const db = await deviceWithPhotos(1);
    const [stored] = await db.fileBytes.toArray();
    const replies: FilePutReply[] = [];
    await answerFilePut({ id: 1, database: db.name, key: stored!.fileid, url: 'http://127.0.0.1:9/upload/x', timeoutMs: 5_000 }, (reply) => replies.push(reply));
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ id: 1, type: 'failed' });
  });

  it('a replay with photos sends every file through the worker, never on the page; the server gets each photo\'s bytes', async () => {
    const db = await deviceWithPhotos(3);
    const { worker, requests } = fakeWorker();
    let onThePage = 0;
    const tokens = memoryTokens();
    const sender = createSender({
      db,
      api: createApiClient({ baseUrl: server.baseUrl, tokens: tokens.source, timeout: 5_000 }),
      getUser: () => USER,
      origin: server.origin,
      random: () => 0.5,
      putFileVia: (onThisThread) =>
        createWorkerFilePut(worker, db.name, (...args) => {
          onThePage += 1;
          return onThisThread(...args);
        }),
    });
    expect(await sender.drain()).toMatchObject({ outcome: { type: 'idle' }, acknowledged: 9, deadLettered: 0 });
    expect(onThePage).toBe(0);
    expect(requests).toHaveLength(3);
    expect(requests.every((request) => request.database === db.name && request.url.startsWith(`${server.origin}/upload/`))).toBe(true);
    expect([...server.uploads.values()].map((bytes) => bytes.at(-1)).sort()).toEqual([1, 2, 3]);
    expect(server.applied.map((w) => w.path).filter((path) => path === '/api/attachments')).toHaveLength(3);
    expect(await db.fileBytes.count()).toBe(0);
  });

  it('a worker that fails hands what it was sending, and everything after, to the page', async () => {
    const db = await deviceWithPhotos(1);
    const [stored] = await db.fileBytes.toArray();
    const { worker, requests, fail } = fakeWorker({ silent: true });
    const onThePage: string[] = [];
    const fallback: FilePut = async (_url, key) => {
      onThePage.push(key);
      return new Response('{"ok":true}', { status: 200 });
    };
    const put = createWorkerFilePut(worker, db.name, fallback);
    const first = put(new URL(`${server.origin}/upload/a`), stored!.fileid, 5_000);
    expect(requests).toHaveLength(1);
    fail();
    expect(((await first) as Response).status).toBe(200);
    expect(((await put(new URL(`${server.origin}/upload/b`), stored!.fileid, 5_000)) as Response).status).toBe(200);
    expect(requests).toHaveLength(1);
    expect(onThePage).toEqual([stored!.fileid, stored!.fileid]);
  });
});
