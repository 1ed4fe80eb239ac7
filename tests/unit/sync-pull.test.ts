import { liveQuery } from 'dexie';
import { describe, expect, it } from 'vitest';
import { LocalDatabase } from '../../src/client/db/local-db';
import { SYNC_FORMAT_VERSION } from '../../src/shared/api/sync';
import { createApiClient, type ApiClient } from '../../src/client/lib/api-client';
import { getClientId, readState, stateKeys } from '../../src/client/sync/outbox';
import { applyChanges, ensureMirrorOwner, pull, type PullProgress } from '../../src/client/sync/pull';
import { createNotification, updateNotificationStatus } from '../../src/client/sync/repositories/notifications';
import { createPageReader, readPageHere, answerPageRequest, type PageReader, type PageReply, type PageRequest, type ReadPage } from '../../src/client/sync/pull-page';
import { StalePageError, writePage } from '../../src/client/sync/page-apply';
import { fakeWorker } from './support/fake-worker';
import { memoryTokens } from './support/memory-tokens';
import { fixedTokens, MACHINE, USER, useSyncTestServer } from './support/sync-test-server';

const N1 = '0190f5a0-0000-7000-8000-000000000101';

const server = useSyncTestServer();

async function setup(readPage: PageReader = readPageHere) {
  const db = new LocalDatabase(`pull-test-${Math.random()}`);
  const api = createApiClient({ baseUrl: server.baseUrl, tokens: fixedTokens });
  const clientId = await getClientId(db, USER);
  return { db, api, clientId, readPage, context: { db, usernodeid: USER } };
}

/**
 * A client that records when each page is asked for (`fetch <cursor>` in `events`): sent here, or prepared for the
 * page worker to send.
 */
function recordingPulls(api: ApiClient, events: string[]): Pick<ApiClient, 'send' | 'prepare'> {
  const record = (options: { searchParams?: Record<string, unknown> } | undefined) => events.push(`fetch ${String(options?.searchParams?.cursor)}`);
  // why a wrapped client: the requests go to the test server unchanged.
  return {
    send: ((...args: Parameters<ApiClient['send']>) => {
      record(args[2]);
      return api.send(...args);
    }) as ApiClient['send'],
    prepare: (path, options) => {
      record(options);
      return api.prepare(path, options);
    },
  };
}

/** A reader that runs `after` once a page has been read (by the worker's fetch or from a body). */
function readingThen(read: PageReader, after: (page: ReadPage) => void): PageReader {
  const reader: PageReader = (body, apply) => read(body, apply).then((page) => (after(page), page));
  if (read.fetchAndRead) reader.fetchAndRead = (request, apply) => read.fetchAndRead!(request, apply).then((page) => (after(page), page));
  return reader;
}

/** The page worker's protocol with its real handler (pull-page.ts), writing into fake-indexeddb as the worker would. */
const workerOf = (handle: (request: PageRequest, post: (reply: PageReply) => void) => unknown = answerPageRequest) => fakeWorker<PageRequest, PageReply>(handle);

/** Every pull test below runs with both writers: the page worker's (plain IndexedDB) and the main thread's (Dexie). */
const readers: [string, () => PageReader][] = [
  ['the main thread', () => readPageHere],
  ['the page worker', () => createPageReader(workerOf().worker, readPageHere)],
];

const notification = (version: number, data: Record<string, unknown>) => ({ kind: 'notifications' as const, nodeid: N1, version, data: { nodeid: N1, equipmentnodeid: MACHINE, type: 0, status: 0, created: 1, title: 'Server', description: null, progressstarted: null, closed: null, ...data } });

const rows4 = () => [1, 2, 3, 4].map((version) => ({ kind: 'counters' as const, nodeid: `c${version}`, version, data: { nodeid: `c${version}`, equipmentnodeid: MACHINE } }));


describe('pull, the main thread’s writer', () => {
  it('applies a page in bulk: many rows of several kinds, a pending value survives among them, deletes in the same page', async () => {
    const { db, context } = await setup();
    const others = Array.from({ length: 300 }, (_, index) => `0190f5a0-0000-7000-9000-${String(index).padStart(12, '0')}`);
    await applyChanges(db, [notification(1, {}), ...others.map((nodeid, index) => ({ ...notification(2 + index, { title: `N${index}` }), nodeid }))], 301);
    await updateNotificationStatus(context, (await db.mirror('notifications').get(N1))!, 1);

    await applyChanges(
      db,
      [
        // One bulk page: the pending status stays, the server's other fields arrive.
        notification(400, { status: 2, title: 'Server neu' }),
        ...others.slice(0, 100).map((nodeid, index) => ({ kind: 'notifications' as const, nodeid, version: 401 + index, deleted: true as const })),
        { kind: 'counters', nodeid: 'c1', version: 501, data: { nodeid: 'c1', equipmentnodeid: MACHINE } },
        // A row and its later tombstone in the same page: deleted; a tombstone then a re-creation: there.
        { kind: 'counters', nodeid: 'c2', version: 502, data: { nodeid: 'c2', equipmentnodeid: MACHINE } },
        { kind: 'counters', nodeid: 'c2', version: 503, deleted: true as const },
        { kind: 'notifications', nodeid: others[0]!, version: 504, data: { ...notification(504, { title: 'Wieder da' }).data, nodeid: others[0]! } },
      ],
      504,
    );
    expect(await db.mirror('notifications').get(N1)).toMatchObject({ status: 1, title: 'Server neu', version: 400 });
    expect(await db.mirror('notifications').get(others[0]!)).toMatchObject({ title: 'Wieder da', version: 504 });
    expect(await db.mirror('notifications').count()).toBe(1 + 200 + 1);
    expect(await db.mirror('notifications').get(others[0]!)).toMatchObject({ title: 'Wieder da', version: 504 });
    expect(await db.mirror('notifications').get(others[1]!)).toBeUndefined();
    expect(await db.mirror('counters').get('c1')).toMatchObject({ version: 501 });
    expect(await db.mirror('counters').get('c2')).toBeUndefined();
    expect(await readState(db, stateKeys.cursor)).toBe(504);
  });

  it('writes a page in chunks with the next one issued while the one before is still being written; a failing chunk leaves nothing of the page', async () => {
    const { db } = await setup();
    const rows = Array.from({ length: 450 }, (_, index) => ({ kind: 'counters' as const, nodeid: `c${index}`, version: 1 + index, data: { nodeid: `c${index}`, equipmentnodeid: MACHINE } }));
    const table = db.mirror('counters');
    const bulkPut = table.bulkPut.bind(table);
    let inFlight = 0;
    const seen: { size: number; inFlight: number }[] = [];
    // why a wrapped table: it records how many chunk writes are in flight when each starts; the rows are written unchanged.
    table.bulkPut = ((items: Parameters<typeof bulkPut>[0]) => {
      inFlight += 1;
      seen.push({ size: (items as unknown[]).length, inFlight });
      return bulkPut(items).finally(() => (inFlight -= 1));
    }) as typeof table.bulkPut;
    await applyChanges(db, rows, 450);
    // Two half chunks in the first task, then whole chunks, each started while the previous one is in flight.
    expect(seen.map((call) => call.size)).toEqual([25, 25, ...Array.from({ length: 8 }, () => 50)]);
    expect(Math.max(...seen.map((call) => call.inFlight))).toBe(2);
    expect(await table.count()).toBe(450);
    expect(await readState(db, stateKeys.cursor)).toBe(450);

    let calls = 0;
    // why: the third chunk fails as a full disk would; the page's transaction must leave nothing of it.
    table.bulkPut = ((items: Parameters<typeof bulkPut>[0]) => {
      calls += 1;
      return calls === 3 ? Promise.reject(new Error('disk full')) : bulkPut(items);
    }) as typeof table.bulkPut;
    const next = rows.map((row) => ({ ...row, version: row.version + 1000, data: { ...row.data, name: 'neu' } }));
    await expect(applyChanges(db, next, 1450)).rejects.toThrow('disk full');
    expect(await table.where('nodeid').anyOf(rows.map((row) => row.nodeid)).filter((row) => (row.version ?? 0) > 1000).count()).toBe(0);
    expect(await readState(db, stateKeys.cursor)).toBe(450);
  });

  it('asks for the next page while it writes the current one; pages still land in order, each with its cursor', async () => {
    const { db, api, clientId } = await setup();
    server.feed.pageSize = 2;
    server.feed.changes = rows4();
    const events: string[] = [];
    const recording = recordingPulls(api, events);
    db.mirror('counters').hook('creating', (key) => void events.push(`write ${String(key)}`));
    await pull({ db, api: recording, clientId });
    expect(events).toEqual(['fetch 0', 'fetch 2', 'write c1', 'write c2', 'write c3', 'write c4']);
    expect(await readState(db, stateKeys.cursor)).toBe(4);
  });

  it('another user on this device: the mirror is emptied, the first user’s outbox stays', async () => {
    const { db, api, clientId, context } = await setup();
    await ensureMirrorOwner(db, USER);
    server.feed.changes = [notification(1, {})];
    await pull({ db, api, clientId });
    await createNotification(context, { type: 0, title: 'Von Nutzer A', equipmentnodeid: MACHINE });
    await ensureMirrorOwner(db, 'user-b');
    expect(await readState(db, stateKeys.cursor)).toBe(0);
    expect(await db.mirror('notifications').get(N1)).toBeUndefined();
    expect(await db.outbox.count()).toBe(1);
  });
});

describe('the mirror holds its user\'s subscriptions only', () => {
  it('rows of other users an older server sent are dropped once, the own and pending ones stay', async () => {
    const { db, api, clientId } = await setup();
    await ensureMirrorOwner(db, USER);
    const row = (nodeid: string, usernodeid: string) => ({ nodeid, usernodeid, sitenodeid: 's1', areanodeid: null, equipmentpoolnodeid: null, version: 1 });
    server.feed.changes = [
      { kind: 'subscriptions', nodeid: 'own', version: 1, data: row('own', USER) },
      { kind: 'subscriptions', nodeid: 'other', version: 1, data: row('other', 'user-b') },
    ];
    await pull({ db, api, clientId });
    expect((await db.mirror('subscriptions').toArray()).map((entry) => entry.nodeid).sort()).toEqual(['other', 'own']);
    await ensureMirrorOwner(db, USER);
    expect((await db.mirror('subscriptions').toArray()).map((entry) => entry.nodeid)).toEqual(['own']);
    expect(await readState(db, stateKeys.otherUsersSubscriptionsDropped)).toBe(true);
    expect(await readState(db, stateKeys.cursor)).toBe(1);
  });
});

describe.each(readers)('pull, pages written by %s', (_writer, makeReader) => {
    it('initial sync in pages with counts per kind, then incremental from the stored cursor', async () => {
      const { db, api, clientId, readPage } = await setup(makeReader());
      server.feed.pageSize = 2;
      server.feed.changes = [
        { kind: 'equipment', nodeid: MACHINE, version: 1, data: { nodeid: MACHINE, name: 'Hydraulikpresse HP-200' } },
        notification(2, {}),
        { kind: 'counters', nodeid: 'c1', version: 3, data: { nodeid: 'c1', equipmentnodeid: MACHINE } },
      ];
      const progress: PullProgress[] = [];
      const result = await pull({ db, api, clientId, readPage, onProgress: (p) => progress.push(p) });
      expect(result).toMatchObject({ changes: 3, cursor: 3, reset: false });
      expect(progress.map((p) => [p.initial, p.done, p.counts])).toEqual([
        [true, false, {}],
        [true, false, { equipment: 1, notifications: 1 }],
        [true, true, { equipment: 1, notifications: 1, counters: 1 }],
      ]);
      expect(await db.notificationsOfMachine(MACHINE).count()).toBe(1);
      expect(await readState(db, stateKeys.initialSyncDone)).toBe(true);
      expect(typeof (await readState(db, stateKeys.lastSyncAt))).toBe('number');

      server.feed.changes.push(notification(4, { title: 'Geändert' }));
      const next = await pull({ db, api, clientId, readPage });
      expect(next).toMatchObject({ changes: 1, cursor: 4 });
      expect(await db.mirror('notifications').get(N1)).toMatchObject({ title: 'Geändert', version: 4 });
    });

    it('a page that breaks the contract is refused before anything is applied, also past the first slice', async () => {
      const { db, api, clientId, readPage } = await setup(makeReader());
      const rows = Array.from({ length: 700 }, (_, index) => ({ kind: 'counters' as const, nodeid: `c${index}`, version: 1, data: { nodeid: `c${index}`, equipmentnodeid: MACHINE } }));
      // why the cast: a malformed row the typed feed cannot express (data must be an object).
      server.feed.changes = [...rows, { kind: 'counters', nodeid: 'bad', version: 1, data: ['not', 'a', 'row'] } as unknown as (typeof rows)[number]];
      await expect(pull({ db, api, clientId, readPage })).rejects.toMatchObject({ kind: 'invalid-response' });
      expect(await db.mirror('counters').count()).toBe(0);
    });

    it('a next page that breaks the contract leaves the pages before it applied with their cursor, nothing of it', async () => {
      const { db, api, clientId, readPage } = await setup(makeReader());
      server.feed.pageSize = 2;
      // why the cast: a malformed row the typed feed cannot express (data must be an object).
      server.feed.changes = [...rows4().slice(0, 3), { kind: 'counters', nodeid: 'bad', version: 4, data: 'no row' } as unknown as ReturnType<typeof rows4>[number]];
      await expect(pull({ db, api, clientId, readPage })).rejects.toMatchObject({ kind: 'invalid-response' });
      expect((await db.mirror('counters').toArray()).map((row) => row.nodeid)).toEqual(['c1', 'c2']);
      expect(await readState(db, stateKeys.cursor)).toBe(2);
    });

    it('never overwrites a field a pending write changed; other fields follow the server', async () => {
      const { db, api, clientId, context, readPage } = await setup(makeReader());
      server.feed.changes = [notification(1, {})];
      await pull({ db, api, clientId, readPage });
      await updateNotificationStatus(context, (await db.mirror('notifications').get(N1))!, 1);

      server.feed.changes.push(notification(2, { status: 2, title: 'Vom Kollegen umbenannt', closed: 5 }));
      await pull({ db, api, clientId, readPage });
      expect(await db.mirror('notifications').get(N1)).toMatchObject({ status: 1, closed: null, title: 'Vom Kollegen umbenannt', version: 2 });

      // Once acknowledged (entry gone), the server's value wins again.
      await db.outbox.clear();
      server.feed.changes.push(notification(3, { status: 2, closed: 5 }));
      await pull({ db, api, clientId, readPage });
      expect(await db.mirror('notifications').get(N1)).toMatchObject({ status: 2, closed: 5 });
    });

    it('tombstones delete the row', async () => {
      const { db, api, clientId, readPage } = await setup(makeReader());
      server.feed.changes = [notification(1, {})];
      await pull({ db, api, clientId, readPage });
      server.feed.changes.push({ kind: 'notifications', nodeid: N1, version: 2, deleted: true });
      await pull({ db, api, clientId, readPage });
      expect(await db.mirror('notifications').get(N1)).toBeUndefined();
    });

    it('reset: empties the mirror and pulls from 0, keeping the outbox and the rows pending creates made', async () => {
      const { db, api, clientId, context, readPage } = await setup(makeReader());
      server.feed.changes = [notification(1, {}), { kind: 'equipment', nodeid: 'gone', version: 2, data: { nodeid: 'gone', name: 'Alt' } }];
      await pull({ db, api, clientId, readPage });
      const local = await createNotification(context, { type: 0, title: 'Offline erfasst', equipmentnodeid: MACHINE });

      // The server purged tombstones past our cursor (the 'gone' machine was deleted meanwhile).
      server.feed.changes = [notification(5, { title: 'Neu' })];
      server.feed.reset = true;
      const result = await pull({ db, api, clientId, readPage });
      expect(result.reset).toBe(true);
      expect(await db.mirror('equipment').get('gone')).toBeUndefined();
      expect(await db.mirror('notifications').get(N1)).toMatchObject({ title: 'Neu' });
      expect(await db.mirror('notifications').get(local)).toMatchObject({ title: 'Offline erfasst' });
      expect(await db.outbox.count()).toBe(1);
      expect(await readState(db, stateKeys.cursor)).toBe(5);
    });

    it('a mirror filled under another SYNC_FORMAT_VERSION (format 1 had no stamp) is emptied once and pulled from 0; outbox, dead letters and bytes stay', async () => {
      const { db, api, clientId, context, readPage } = await setup(makeReader());
      server.feed.changes = [notification(1, {}), { kind: 'equipment', nodeid: MACHINE, version: 2, data: { nodeid: MACHINE, name: 'Presse' } }];
      await pull({ db, api, clientId, readPage });
      expect(await readState(db, stateKeys.mirrorFormat)).toBe(SYNC_FORMAT_VERSION);
      // What the previous app left: its rows in its shape, no format stamp, a queued report with a photo, a refused write.
      await db.syncState.delete(stateKeys.mirrorFormat);
      await db.mirror('equipment').update(MACHINE, { oldfield: 'alte Form' });
      const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0]).buffer;
      const local = await createNotification(context, { type: 0, title: 'Offline erfasst', equipmentnodeid: MACHINE, photo: { bytes, mimetype: 'image/jpeg', name: 'leck.jpg' } });
      await db.deadLetters.add({ ...(await db.outbox.toArray())[0]!, mutationId: 99, failedAt: 0, status: 403, error: {} });

      const first = await pull({ db, api, clientId, readPage });
      expect(first).toMatchObject({ reset: true, cursor: 2 });
      expect(await db.mirror('equipment').get(MACHINE)).toEqual({ nodeid: MACHINE, name: 'Presse', version: 2 });
      expect(await db.mirror('notifications').get(local)).toMatchObject({ title: 'Offline erfasst' });
      expect(await db.outbox.count()).toBe(3);
      expect(await db.deadLetters.count()).toBe(1);
      expect(await db.fileBytes.count()).toBe(1);
      expect(await readState(db, stateKeys.mirrorFormat)).toBe(SYNC_FORMAT_VERSION);
      // Once: the next pull is incremental again.
      expect(await pull({ db, api, clientId, readPage })).toMatchObject({ reset: false, changes: 0 });
    });

  it('the user’s read permissions changed (another scope): the mirror is emptied and pulled from 0, pending creates stay', async () => {
    const { db, api, clientId, context, readPage } = await setup(makeReader());
    server.feed.scope = '';
    server.feed.changes = [notification(1, {}), { kind: 'equipment', nodeid: 'hidden-later', version: 2, data: { nodeid: 'hidden-later', name: 'Alt' } }];
    await pull({ db, api, clientId, readPage });
    expect(await readState(db, stateKeys.pullScope)).toBe('');
    const local = await createNotification(context, { type: 0, title: 'Offline erfasst', equipmentnodeid: MACHINE });

    server.feed.scope = 'costs';
    server.feed.changes = [notification(3, { title: 'Neu' })];
    const result = await pull({ db, api, clientId, readPage });
    expect(result).toMatchObject({ reset: true, cursor: 3 });
    expect(await db.mirror('equipment').get('hidden-later')).toBeUndefined();
    expect(await db.mirror('notifications').get(N1)).toMatchObject({ title: 'Neu' });
    expect(await db.mirror('notifications').get(local)).toMatchObject({ title: 'Offline erfasst' });
    expect(await readState(db, stateKeys.pullScope)).toBe('costs');
    // The same scope again: incremental, no reset.
    expect(await pull({ db, api, clientId, readPage })).toMatchObject({ reset: false, changes: 0 });
  });
});

describe('pull, the page worker’s writer', () => {
  it('the rows never come to the main thread; the next page is asked for while the worker writes the current one', async () => {
    const { db, api, clientId } = await setup();
    const { worker, replies } = workerOf();
    server.feed.pageSize = 2;
    server.feed.changes = rows4();
    const events: string[] = [];
    const recording = recordingPulls(api, events);
    const readPage = readingThen(createPageReader(worker, readPageHere), (page) => {
      if ('applied' in page && page.applied) void page.applied.then(() => events.push(`applied ${page.head.cursor}`));
    });
    expect(await pull({ db, api: recording, clientId, readPage })).toMatchObject({ changes: 4, cursor: 4 });
    expect(events).toEqual(['fetch 0', 'fetch 2', 'applied 2', 'applied 4']);
    // No slices: only heads and acknowledgements (the second head may come before the first page is written).
    expect(replies.map((reply) => reply.type).sort()).toEqual(['applied', 'applied', 'head', 'head']);
    expect(await db.mirror('counters').count()).toBe(4);
    expect(await readState(db, stateKeys.cursor)).toBe(4);
  });

  it('the worker sends the request itself: the main thread hands it the URL and the bearer, and never holds the body', async () => {
    const { db, api, clientId } = await setup();
    const { worker, requests } = workerOf();
    server.feed.pageSize = 2;
    server.feed.changes = rows4();
    const sent: string[] = [];
    // why a wrapped client: a request the main thread sent itself would be counted here.
    const counting: Pick<ApiClient, 'send' | 'prepare'> = { send: (...args) => (sent.push(args[1]), api.send(...args)), prepare: api.prepare };
    expect(await pull({ db, api: counting, clientId, readPage: createPageReader(worker, readPageHere) })).toMatchObject({ changes: 4, cursor: 4 });
    expect(sent).toEqual([]);
    expect(requests.map((request) => ('fetch' in request ? new URL(request.fetch.url).searchParams.get('cursor') : 'body'))).toEqual(['0', '2']);
    const pulls = server.requests.filter((request) => request.path === '/api/sync/pull');
    expect(pulls.map((request) => request.authorization)).toEqual(['Bearer access-1', 'Bearer access-1']);
    expect(await db.mirror('counters').count()).toBe(4);
  });

  it('an expired token: the worker’s 401 goes back to the main thread, whose client refreshes at once and asks again', async () => {
    const { db, clientId } = await setup();
    const tokens = memoryTokens('stale', 'refresh-1');
    server.validRefresh.add('refresh-1');
    const api = createApiClient({ baseUrl: server.baseUrl, tokens: tokens.source });
    server.feed.changes = [notification(1, {})];
    expect(await pull({ db, api, clientId, readPage: createPageReader(workerOf().worker, readPageHere) })).toMatchObject({ changes: 1 });
    expect(tokens.access).not.toBe('stale');
    expect(tokens.ended).toBe(0);
    // The stale token is not sent a second time: worker (401), refresh, the main thread's request with the new one.
    expect(server.requests.map((request) => request.path)).toEqual(['/api/sync/pull', '/api/object/refresh-token', '/api/sync/pull']);
    expect(await db.mirror('notifications').count()).toBe(1);
  });

  it('a server error: the main thread asks again and reports the server’s status and message; nothing is written', async () => {
    const { db, api, clientId } = await setup();
    server.feed.changes = [notification(1, {})];
    server.feed.faults = [503, 503];
    await expect(pull({ db, api, clientId, readPage: createPageReader(workerOf().worker, readPageHere) })).rejects.toMatchObject({ kind: 'http', statusCode: 503, message: 'Wartung' });
    expect(await db.mirror('notifications').count()).toBe(0);
    // Once only: the main thread's request got the page.
    server.feed.faults = [503];
    expect(await pull({ db, api, clientId, readPage: createPageReader(workerOf().worker, readPageHere) })).toMatchObject({ changes: 1 });
  });

  it('no answer (offline): a network error at once, not asked again by the main thread', async () => {
    const { db, clientId } = await setup();
    // why a closed port: nothing listens there, as when the tablet has no network.
    const offline = createApiClient({ baseUrl: 'http://127.0.0.1:9/api', tokens: fixedTokens });
    const sent: string[] = [];
    const counting: Pick<ApiClient, 'send' | 'prepare'> = { send: (...args) => (sent.push(args[1]), offline.send(...args)), prepare: offline.prepare };
    await expect(pull({ db, api: counting, clientId, readPage: createPageReader(workerOf().worker, readPageHere) })).rejects.toMatchObject({ kind: 'network', statusCode: 0 });
    expect(sent).toEqual([]);
    expect(await readState(db, stateKeys.cursor)).toBeUndefined();
  });

  it('a worker that dies while it fetches: the main thread fetches the page, and the pull completes', async () => {
    const { db, api, clientId } = await setup();
    server.feed.changes = rows4();
    // why: the worker's script fails as it receives its first request, before it answers.
    const dying = workerOf(() => new Promise(() => undefined));
    const read = createPageReader(dying.worker, readPageHere);
    setTimeout(() => dying.fail(), 20);
    expect(await pull({ db, api, clientId, readPage: read })).toMatchObject({ changes: 4, cursor: 4 });
    expect(await db.mirror('counters').count()).toBe(4);
  });

  it('the screens’ live queries see the worker’s writes (Dexie is told as it is of another tab’s)', async () => {
    const { db, api, clientId } = await setup();
    const seen: number[] = [];
    const subscription = liveQuery(() => db.notificationsOfMachine(MACHINE).count()).subscribe((count) => seen.push(count));
    await expect.poll(() => seen).toEqual([0]);
    server.feed.changes = [notification(1, {})];
    await pull({ db, api, clientId, readPage: createPageReader(workerOf().worker, readPageHere) });
    await expect.poll(() => seen.at(-1)).toBe(1);
    subscription.unsubscribe();
  });

  it('tells Dexie only the sync state keys it wrote: a screen that reads another key does not read again for a pull', async () => {
    const { db, api, clientId } = await setup();
    const readPage = createPageReader(workerOf().worker, readPageHere);
    server.feed.changes = [notification(1, {})];
    await pull({ db, api, clientId, readPage });
    let runs = 0;
    // Like the structure and machine screens: they read `initialSyncDone` first.
    const subscription = liveQuery(async () => {
      runs += 1;
      return readState(db, stateKeys.initialSyncDone);
    }).subscribe(() => undefined);
    await expect.poll(() => runs).toBe(1);
    // An up-to-date pull writes the cursor (and no mirror table); a pull with a row writes a mirror table too.
    await pull({ db, api, clientId, readPage });
    server.feed.changes.push(notification(2, { title: 'Neu' }));
    const seen: number[] = [];
    const notifications = liveQuery(() => db.notificationsOfMachine(MACHINE).toArray()).subscribe((rows) => seen.push(rows.length));
    await pull({ db, api, clientId, readPage });
    await expect.poll(() => seen.length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runs).toBe(1);
    subscription.unsubscribe();
    notifications.unsubscribe();
  });

  it('a page whose write fails leaves nothing of it and its cursor; the page fetched ahead of it is not written either', async () => {
    const { db, api, clientId } = await setup();
    server.feed.pageSize = 2;
    server.feed.changes = rows4();
    let requests = 0;
    // why: the first page is sent to a database that does not exist, as if its write failed in the worker.
    const { worker, replies } = workerOf((request, post) => {
      requests += 1;
      return answerPageRequest(requests === 1 && request.apply ? { ...request, apply: { ...request.apply, database: 'no-such-database' } } : request, post);
    });
    await expect(pull({ db, api, clientId, readPage: createPageReader(worker, readPageHere) })).rejects.toThrow();
    // The page fetched ahead reaches the worker after the pull gave up; the worker refuses to write it.
    await expect.poll(() => replies.filter((reply) => reply.type === 'apply-failed').map((reply) => reply.type === 'apply-failed' && reply.name)).toEqual(['AbortError', 'StalePageError']);
    expect(requests).toBe(2);
    expect(await db.mirror('counters').count()).toBe(0);
    expect(await readState(db, stateKeys.cursor)).toBeUndefined();
    // The next pull starts from the stored cursor and writes everything.
    expect(await pull({ db, api, clientId, readPage: createPageReader(workerOf().worker, readPageHere) })).toMatchObject({ changes: 4, cursor: 4 });
    expect(await db.mirror('counters').count()).toBe(4);
  });

  it('a worker that dies while it writes ends the pull; the next one goes on from the stored cursor', async () => {
    const { db, api, clientId } = await setup();
    server.feed.pageSize = 2;
    server.feed.changes = rows4();
    const dying = workerOf();
    const read = createPageReader(dying.worker, readPageHere);
    const readPage = readingThen(read, () => dying.fail());
    await expect(pull({ db, api, clientId, readPage })).rejects.toThrow('pull page worker failed');
    // After its error the reader is not used again: the fallback reads, the main thread writes.
    expect(await pull({ db, api, clientId, readPage: read })).toMatchObject({ cursor: 4 });
    expect(await db.mirror('counters').count()).toBe(4);
  });

  it('writes a page and its cursor in one transaction: a row that cannot be written leaves nothing of the page', async () => {
    const { db } = await setup();
    await db.open();
    const target = { database: db.name, storedCursor: undefined, mirror: { scope: undefined, filled: false }, formatVersion: SYNC_FORMAT_VERSION, keys: { cursor: stateKeys.cursor, mirrorFormat: stateKeys.mirrorFormat, pullScope: stateKeys.pullScope }, indexes: { counters: ['equipmentnodeid'] } };
    // why the cast: a key IndexedDB refuses, in the middle of the page, as a failing write would.
    const bad = { kind: 'counters', nodeid: {} as unknown as string, version: 3, data: {} } as const;
    await expect(writePage(db.backendDB(), [...rows4().slice(0, 2), bad, ...rows4().slice(2)], { cursor: 4 }, target)).rejects.toMatchObject({ name: 'DataError' });
    expect(await db.mirror('counters').count()).toBe(0);
    expect(await readState(db, stateKeys.cursor)).toBeUndefined();
    // After a cursor that is no longer the stored one: refused, nothing written.
    await expect(writePage(db.backendDB(), rows4(), { cursor: 4 }, { ...target, storedCursor: 2 })).rejects.toBeInstanceOf(StalePageError);
    expect(await db.mirror('counters').count()).toBe(0);
    expect(await writePage(db.backendDB(), rows4(), { cursor: 4, scope: '' }, target)).toEqual({ tables: ['counters'], stateKeys: [stateKeys.cursor, stateKeys.mirrorFormat, stateKeys.pullScope] });
    expect(await db.mirror('counters').count()).toBe(4);
    expect(await readState(db, stateKeys.cursor)).toBe(4);
    expect(await readState(db, stateKeys.pullScope)).toBe('');
  });
});
