import { describe, expect, it, vi } from 'vitest';
import { SYNC_FORMAT_VERSION } from '../../src/shared/api/sync';
import { fakeWorker as fakeWorkerOf } from './support/fake-worker';
import { answerPageRequest, createPageReader, InvalidPageError, PAGE_SLICE, readPageHere, type PageReply, type PageRequest, type ReadPage } from '../../src/client/sync/pull-page';

const head = { formatVersion: SYNC_FORMAT_VERSION, cursor: 1300, hasMore: true, lastMutationId: 7, scope: '' };
const rows = (count: number, from = 0) => Array.from({ length: count }, (_, index) => ({ kind: 'counters' as const, nodeid: `c${from + index}`, version: from + index + 1, data: { nodeid: `c${from + index}`, n: from + index } }));
const bodyOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).buffer;

const fakeWorker = () => fakeWorkerOf<PageRequest, PageReply>(answerPageRequest);

describe('pull page reader (worker protocol)', () => {
  it('hands a page back in slices, in page order, with its head', async () => {
    const { worker, replies } = fakeWorker();
    const read = createPageReader(worker, readPageHere);
    const changes = rows(1200);
    const page = await read(bodyOf({ ...head, changes }));
    expect(page).toEqual({ head, counts: { counters: 1200 }, changes } satisfies ReadPage);
    expect(replies.map((reply) => reply.type)).toEqual(['slice', 'slice', 'slice', 'head']);
    expect(replies.filter((reply) => reply.type === 'slice').map((reply) => reply.changes.length)).toEqual([PAGE_SLICE, PAGE_SLICE, 200]);
  });

  it('refuses a page with a bad row past the first slice without posting any of its rows', async () => {
    const { worker, replies } = fakeWorker();
    const read = createPageReader(worker, readPageHere);
    const changes = [...rows(700), { kind: 'counters', nodeid: 'bad', version: 701, data: ['not', 'a', 'row'] }];
    await expect(read(bodyOf({ ...head, changes }))).rejects.toBeInstanceOf(InvalidPageError);
    expect(replies.map((reply) => reply.type)).toEqual(['invalid']);
    await expect(read(new TextEncoder().encode('{"cursor": ').buffer)).rejects.toBeInstanceOf(InvalidPageError);
  });

  it('refuses each break of the contract in the worker and on the main thread alike, and says where', async () => {
    const bad: [unknown, string][] = [
      [{ ...head, cursor: -1, changes: [] }, 'cursor'],
      [{ ...head, hasMore: 'yes', changes: [] }, 'hasMore'],
      [{ ...head, changes: {} }, 'changes'],
      [{ ...head, changes: [...rows(600), { kind: 'nope', nodeid: 'x', version: 1 }] }, 'changes.600.kind'],
      [{ ...head, changes: [...rows(2), { kind: 'counters', nodeid: 7, version: 1 }] }, 'changes.2.nodeid'],
      [{ ...head, changes: [{ kind: 'counters', nodeid: 'x', version: 1.5 }] }, 'changes.0.version'],
      [{ ...head, changes: [{ kind: 'counters', nodeid: 'x', version: 1, deleted: false }] }, 'changes.0.deleted'],
      [{ ...head, changes: [{ kind: 'counters', nodeid: 'x', version: 1, data: null }] }, 'changes.0.data'],
    ];
    for (const [body, where] of bad) {
      const { worker, replies } = fakeWorker();
      const inWorker = createPageReader(worker, readPageHere)(bodyOf(body));
      await expect(inWorker).rejects.toBeInstanceOf(InvalidPageError);
      await expect(inWorker).rejects.toThrow(`(${where}: `);
      expect(replies.map((reply) => reply.type)).toEqual(['invalid']);
      await expect(readPageHere(bodyOf(body))).rejects.toThrow(`(${where}: `);
    }
  });

  it('keeps two pages read at the same time apart', async () => {
    const { worker } = fakeWorker();
    const read = createPageReader(worker, readPageHere);
    const first = rows(600);
    const second = rows(600, 600);
    const [a, b] = await Promise.all([read(bodyOf({ ...head, changes: first })), read(bodyOf({ ...head, cursor: 1200, changes: second }))]);
    expect(a).toMatchObject({ changes: first });
    expect(b).toMatchObject({ head: { cursor: 1200 }, changes: second });
  });

  it('a worker that fails hands what it was reading, and every later page, to the fallback', async () => {
    const { worker, fail } = fakeWorker();
    const fallback = vi.fn(readPageHere);
    const read = createPageReader(worker, fallback);
    const changes = rows(3);
    const pending = read(bodyOf({ ...head, changes }));
    fail();
    expect(await pending).toMatchObject({ changes });
    expect(await read(bodyOf({ ...head, changes: [] }))).toMatchObject({ changes: [] });
    expect(fallback).toHaveBeenCalledTimes(2);
  });
});
