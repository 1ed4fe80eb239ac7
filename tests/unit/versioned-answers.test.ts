import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { KEPT_ANSWERS_LOG_INTERVAL_MS, scheduleKeptAnswersLog } from '../../src/server/jobs/kept-answers-log';
import { createVersionedAnswers } from '../../src/server/routes/versioned-answer';

const json = (text: string) => async () => JSON.stringify(text);

describe('versioned answers store', () => {
  it('answers an entry only at the state it was built at', async () => {
    const store = createVersionedAnswers({ maxEntries: 10, maxBytes: 1_000_000 });
    expect(store.get('tree', '5:100')).toBeUndefined();
    const built = await store.fill('tree', '5:100', json('five'));
    expect(built.body.toString()).toBe('"five"');
    expect(store.get('tree', '5:100')).toBe(built);
    expect(store.get('tree', '6:101')).toBeUndefined();
    // The same version with another transaction id (a restore) is another state.
    expect(store.get('tree', '5:200')).toBeUndefined();
    await store.fill('tree', '6:101', json('six'));
    expect(store.get('tree', '5:100')).toBeUndefined();
    expect(store.size.entries).toBe(1);
  });

  it('builds once for the requests that miss together, and keeps no failed build', async () => {
    const store = createVersionedAnswers({ maxEntries: 10, maxBytes: 1_000_000 });
    let builds = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const build = async () => {
      builds += 1;
      await gate;
      return '[]';
    };
    const waiting = Promise.all([store.fill('k', '1:1', build), store.fill('k', '1:1', build), store.fill('k', '1:1', build)]);
    release();
    const [first, second, third] = await waiting;
    expect(builds).toBe(1);
    expect(second).toBe(first);
    expect(third).toBe(first);

    await expect(store.fill('k', '2:2', () => Promise.reject(new Error('database gone')))).rejects.toThrow('database gone');
    expect(store.get('k', '2:2')).toBeUndefined();
    expect((await store.fill('k', '2:2', json('again'))).body.toString()).toBe('"again"');
  });

  it('lets the least recently used entries go at either limit, compressed copies counted', async () => {
    const byCount = createVersionedAnswers({ maxEntries: 2, maxBytes: 1_000_000 });
    await byCount.fill('a', '1:1', json('a'));
    await byCount.fill('b', '1:1', json('b'));
    byCount.get('a', '1:1');
    await byCount.fill('c', '1:1', json('c'));
    expect(byCount.get('a', '1:1')).toBeDefined();
    expect(byCount.get('b', '1:1')).toBeUndefined();
    expect(byCount.get('c', '1:1')).toBeDefined();

    const byBytes = createVersionedAnswers({ maxEntries: 100, maxBytes: 100 });
    const first = await byBytes.fill('x', '1:1', async () => 'x'.repeat(40));
    await byBytes.fill('y', '1:1', async () => 'y'.repeat(40));
    expect(byBytes.size).toEqual({ entries: 2, bytes: 80 });
    // A compressed copy of x makes x the newest and pushes the total over: y, now the oldest, goes.
    byBytes.get('x', '1:1');
    const copy = await byBytes.encoded('x', first, 'gzip', async () => Buffer.alloc(30));
    expect(copy.length).toBe(30);
    expect(await byBytes.encoded('x', first, 'gzip', () => Promise.reject(new Error('compressed twice')))).toBe(copy);
    expect(byBytes.size).toEqual({ entries: 1, bytes: 70 });
    expect(byBytes.get('y', '1:1')).toBeUndefined();
  });

  it('counts hits, builds (once for requests that miss together, failed ones too) and entries pushed out', async () => {
    const store = createVersionedAnswers({ maxEntries: 1, maxBytes: 1_000_000 });
    await Promise.all([store.fill('a', '1:1', json('a')), store.fill('a', '1:1', json('a'))]);
    store.get('a', '1:1');
    store.get('a', '1:1');
    store.get('a', '2:2');
    await expect(store.fill('a', '2:2', () => Promise.reject(new Error('database gone')))).rejects.toThrow();
    await store.fill('b', '1:1', json('b'));
    expect(store.counts).toEqual({ hits: 2, builds: 3, evicted: 1 });
  });

  it("logs each busy interval's entries, hits, builds, evictions and hit rate; an idle interval logs nothing", async () => {
    // why only the interval timers are fake: Fastify's own start-up runs on setImmediate and must stay real.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const lines: { msg?: string; keptAnswers?: unknown }[] = [];
    const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line) as { msg?: string }) } } });
    try {
      const store = createVersionedAnswers({ maxEntries: 1, maxBytes: 1_000_000 });
      app.decorate('versionedAnswers', store);
      scheduleKeptAnswersLog(app);
      await app.ready();
      await store.fill('a', '1:1', json('a'));
      store.get('a', '1:1');
      store.get('a', '1:1');
      store.get('a', '1:1');
      await store.fill('b', '1:1', json('b'));
      await vi.advanceTimersByTimeAsync(KEPT_ANSWERS_LOG_INTERVAL_MS);
      const logged = () => lines.filter((line) => line.msg === 'kept read answers').map((line) => line.keptAnswers);
      expect(logged()).toEqual([{ entries: 1, bytes: 3, hits: 3, builds: 2, evicted: 1, hitRate: 0.6 }]);
      await vi.advanceTimersByTimeAsync(KEPT_ANSWERS_LOG_INTERVAL_MS);
      expect(logged()).toHaveLength(1);
      store.get('b', '1:1');
      await vi.advanceTimersByTimeAsync(KEPT_ANSWERS_LOG_INTERVAL_MS);
      expect(logged()[1]).toEqual({ entries: 1, bytes: 3, hits: 1, builds: 0, evicted: 0, hitRate: 1 });
    } finally {
      await app.close();
      vi.useRealTimers();
    }
  });
});
