import { describe, expect, it, vi } from 'vitest';
import { LocalDatabase } from '../../src/client/db/local-db';
import { createApiClient } from '../../src/client/lib/api-client';
import { getClientId, pendingEntries, readState, stateKeys } from '../../src/client/sync/outbox';
import { createNotification, removeNotification, updateNotificationStatus } from '../../src/client/sync/repositories/notifications';
import { addCounterReading } from '../../src/client/sync/repositories/counters';
import { mutate } from '../../src/client/sync/mutate';
import { unfollowStructure as unfollowDeclaration } from '../../src/shared/mutations/subscriptions';
import { createShifts } from '../../src/shared/mutations/structure';
import { updateEquipmentMemo } from '../../src/shared/mutations/machine-memo';
import { backoffDelay, createSender, DEFAULT_BACKOFF } from '../../src/client/sync/sender';
import { stopsBatch, SYNC_BATCH_MAX, type SyncBatchRequest, type SyncBatchResult } from '../../src/shared/api/sync';
import { followersOf, reassignableField, reassignDeadLetter, reassignment, refusedCreateUnder, retryAllDeadLetters, retryDeadLetter } from '../../src/client/sync/dead-letters';
import { addSolution } from '../../src/client/sync/repositories/workflows';
import { describeEntry, syncListItems } from '../../src/client/sync/use-sync-lists';
import { memoryTokens, type MemoryTokens } from './support/memory-tokens';
import { fixedTokens, MACHINE, USER, useSyncTestServer } from './support/sync-test-server';


const server = useSyncTestServer();

interface Harness {
  db: LocalDatabase;
  tokens: MemoryTokens;
  sender: ReturnType<typeof createSender>;
  context: { db: LocalDatabase; usernodeid: string };
}

let dbCounter = 0;
function harness(): Harness {
  dbCounter += 1;
  const db = new LocalDatabase(`sender-test-${dbCounter}-${Math.random()}`);
  const tokens = memoryTokens();
  const api = createApiClient({ baseUrl: server.baseUrl, tokens: tokens.source, timeout: 5_000 });
  const sender = createSender({ db, api, getUser: () => (tokens.access ? USER : null), origin: server.origin, random: () => 0.5 });
  return { db, tokens, sender, context: { db, usernodeid: USER } };
}

const unfollowStructure = (context: Harness['context'], id: string) => mutate(context, unfollowDeclaration, { params: { id }, body: undefined });

async function seedMachine(db: LocalDatabase): Promise<void> {
  await db.mirror('equipment').put({ nodeid: MACHINE, name: 'Hydraulikpresse HP-200' });
}

describe('sender', () => {
  it('a delete answered with its version only needs no row fetched again: the tombstone comes with the next pull', async () => {
    const { db, sender, context } = harness();
    const SUBSCRIPTION = '0190f5a0-0000-7000-8000-0000000000dd';
    // A row the initial pull brought (version 0: seeded before the change feed), the cursor far beyond it.
    await db.mirror('subscriptions').put({ nodeid: SUBSCRIPTION, usernodeid: USER, sitenodeid: MACHINE, areanodeid: null, equipmentpoolnodeid: null, version: 0 });
    await db.syncState.put({ key: stateKeys.cursor, value: 40 });
    await unfollowStructure(context, SUBSCRIPTION);
    expect(await sender.drain()).toMatchObject({ outcome: { type: 'idle' }, acknowledged: 1, deadLettered: 0 });
    expect(await readState(db, stateKeys.pullFrom)).toBeUndefined();
  });

  it('sends entries in mutation order with headers built at send time, removes them and applies the answer', async () => {
    const { db, sender, context } = harness();
    await seedMachine(db);
    const a = await createNotification(context, { type: 0, title: 'Öl tritt aus', equipmentnodeid: MACHINE });
    const notification = (await db.mirror('notifications').get(a))!;
    await updateNotificationStatus(context, notification, 1);
    await addCounterReading(context, { counternodeid: '0190f5a0-0000-7000-8000-0000000000cc', value: 1234.5 });

    const stored = await db.outbox.toArray();
    expect(stored.every((entry) => !('headers' in entry))).toBe(true);

    const result = await sender.drain();
    expect(result).toMatchObject({ outcome: { type: 'idle' }, acknowledged: 3, deadLettered: 0 });
    expect(server.applied.map((w) => [w.mutationId, w.method, w.path.replace(/\/[0-9a-f-]{36}$/, '/:id')])).toEqual([
      [1, 'POST', '/api/notifications'],
      [2, 'PUT', '/api/notifications/:id'],
      [3, 'PUT', '/api/counters/update/:id'],
    ]);
    const clientId = await getClientId(db, USER);
    expect(server.applied.every((w) => w.clientId === clientId)).toBe(true);
    expect(await db.outbox.count()).toBe(0);
    const mirrored = await db.mirror('notifications').get(a);
    expect(mirrored).toMatchObject({ status: 1, title: 'Öl tritt aus' });
    expect(typeof mirrored?.version).toBe('number');
  });

  it('each entry carries when the user made it (madeAt), so the history can tell a change made offline from when it arrived', async () => {
    const { db, sender, context } = harness();
    await seedMachine(db);
    const morning = Date.UTC(2026, 11, 2, 7, 15);
    const id = await createNotification({ ...context, now: () => morning }, { type: 0, title: 'Öl tritt aus', equipmentnodeid: MACHINE });
    await updateNotificationStatus({ ...context, now: () => morning + 60_000 }, (await db.mirror('notifications').get(id))!, 1);
    const before = Date.now();
    expect((await sender.drain()).outcome.type).toBe('idle');
    const entries = server.requests.filter((request) => request.inBatch);
    expect(entries.map((request) => request.madeAt)).toEqual([morning, morning + 60_000]);
    // With the device's clock at sending, so the server reads those times on its own clock.
    expect(entries.every((request) => request.sentAt !== undefined && request.sentAt >= before && request.sentAt <= Date.now())).toBe(true);
  });

  it('a response lost after the server committed: the resend is answered from the log, applied once', async () => {
    const { db, sender, context } = harness();
    await seedMachine(db);
    await createNotification(context, { type: 1, title: 'Geräusch', equipmentnodeid: MACHINE });
    server.faults.push({ path: '/api/notifications', fault: 'drop-after-commit' });

    const first = await sender.drain();
    expect(first.outcome.type).toBe('backoff');
    expect((await db.outbox.toArray())[0]).toMatchObject({ attempts: 1 });

    const second = await sender.drain();
    expect(second.outcome.type).toBe('idle');
    expect(server.applied).toHaveLength(1);
    expect(server.requests.filter((r) => r.path === '/api/notifications')).toHaveLength(2);
  });

  it('5xx: stops, counts the attempt, keeps the entry, and succeeds on the next run', async () => {
    const { db, sender, context } = harness();
    await seedMachine(db);
    await createNotification(context, { type: 0, title: 'A', equipmentnodeid: MACHINE });
    await createNotification(context, { type: 0, title: 'B', equipmentnodeid: MACHINE });
    server.faults.push({ path: '/api/notifications', fault: 'fail-503' });

    const first = await sender.drain();
    expect(first.outcome).toMatchObject({ type: 'backoff', error: 'HTTP 503' });
    const [head] = await db.outbox.toArray();
    expect(head).toMatchObject({ mutationId: 1, attempts: 1, lastError: 'HTTP 503' });
    expect(server.applied).toHaveLength(0);

    expect((await sender.drain()).outcome.type).toBe('idle');
    expect(server.applied.map((w) => (w.body as { title: string }).title)).toEqual(['A', 'B']);
  });

  it('a 422 in the middle becomes a dead letter with its payload and error; later entries still apply', async () => {
    const { db, sender, context } = harness();
    await seedMachine(db);
    const id = await createNotification(context, { type: 0, title: 'Erste', equipmentnodeid: MACHINE });
    await updateNotificationStatus(context, (await db.mirror('notifications').get(id))!, 2);
    await createNotification(context, { type: 2, title: 'Dritte', equipmentnodeid: MACHINE });
    server.faults.push({ path: '/api/notifications/', fault: 'reject-422' });

    const result = await sender.drain();
    expect(result).toMatchObject({ outcome: { type: 'idle' }, acknowledged: 2, deadLettered: 1 });
    const [letter] = await db.deadLetters.toArray();
    expect(letter).toMatchObject({ action: 'updateNotificationStatus', mutationId: 2, status: 422, error: { message: 'Ungültiger Statuswechsel' } });
    expect(letter?.body).toMatchObject({ status: 2, previousStatus: 0, onlyStatusUpdate: true });
    // The refused change is taken back out of the mirror.
    expect(await db.mirror('notifications').get(id)).toMatchObject({ status: 0, closed: null });
    expect(server.applied.map((w) => w.mutationId)).toEqual([1, 3]);

    // Retry: a new mutation id at the end of the queue (the old one is used up on the server), and still the change
    // the user made then ("Erfasst am" in the panel), not one made now.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await retryDeadLetter(db, letter!.id!);
    expect(await db.deadLetters.count()).toBe(0);
    expect((await db.outbox.toArray())[0]).toMatchObject({ mutationId: 4, action: 'updateNotificationStatus', createdAt: letter!.createdAt });
    expect(await db.mirror('notifications').get(id)).toMatchObject({ status: 2 });
    await sender.drain();
    expect(server.applied.map((w) => w.mutationId)).toEqual([1, 3, 4]);
  });

  it('a refusal of an id the entry no longer has (renumbered by another tab meanwhile): no refused change; it goes on under its new id', async () => {
    const { db, sender, context } = harness();
    await seedMachine(db);
    const id = await createNotification(context, { type: 0, title: 'Umnummeriert', equipmentnodeid: MACHINE });
    server.faults.push({ path: '/api/notifications', fault: 'reject-422' });
    // Another tab renumbers the entry while this tab's batch is answered (as recoverGap does after a restore).
    server.beforeBatchAnswer = async () => {
      const [entry] = await db.outbox.toArray();
      await db.outbox.update(entry!.seq!, { mutationId: 5 });
    };

    await sender.drain();
    expect(await db.deadLetters.count()).toBe(0);
    // The server expects id 2 next: the entry is renumbered to it and applied once.
    await sender.drain();
    expect(await db.deadLetters.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
    expect(server.applied.map((w) => [w.mutationId, (w.body as { title: string }).title])).toEqual([[2, 'Umnummeriert']]);
    expect(await db.mirror('notifications').get(id)).toMatchObject({ title: 'Umnummeriert' });
  });

  it('a refused create is removed from the mirror, the dead letter keeps it', async () => {
    const { db, sender, context } = harness();
    await seedMachine(db);
    const id = await createNotification(context, { type: 0, title: 'Ohne Recht', equipmentnodeid: MACHINE });
    server.faults.push({ path: '/api/notifications', fault: 'reject-403' });
    await sender.drain();
    expect(await db.mirror('notifications').get(id)).toBeUndefined();
    expect((await db.deadLetters.toArray())[0]).toMatchObject({ status: 403, values: { title: 'Ohne Recht' } });
  });

  it('a refused create with a later write to it still queued: the record goes once that write is done, the dead letter keeps it', async () => {
    const { db, sender, context } = harness();
    await seedMachine(db);
    const id = await createNotification(context, { type: 0, title: 'Ohne Recht', equipmentnodeid: MACHINE });
    await updateNotificationStatus(context, (await db.mirror('notifications').get(id))!, 1);
    server.faults.push({ path: '/api/notifications', fault: 'reject-403' });
    // Only the create is refused; the status change is then answered (the stand-in server applies anything).
    await sender.drain();
    expect(await db.outbox.count()).toBe(0);
    expect(await db.mirror('notifications').get(id)).toBeUndefined();
    expect((await db.deadLetters.toArray()).map((letter) => letter.action)).toEqual(['createNotification']);
  });

  it('a refused create retried from the sync panel stays once it is acknowledged', async () => {
    const { db, sender, context } = harness();
    await seedMachine(db);
    const id = await createNotification(context, { type: 0, title: 'Zweiter Versuch', equipmentnodeid: MACHINE });
    await updateNotificationStatus(context, (await db.mirror('notifications').get(id))!, 1);
    server.faults.push({ path: '/api/notifications', fault: 'reject-403' }, { path: '/api/notifications/', fault: 'reject-403' });
    await sender.drain();
    const [create] = await db.deadLetters.toArray();
    await retryDeadLetter(db, create!.id!);
    await sender.drain();
    expect(await db.mirror('notifications').get(id)).toMatchObject({ title: 'Zweiter Versuch' });
    expect(await db.mirror('notifications').get(id)).not.toHaveProperty('createrefused');
  });

  it('401: refreshes the token and resends; not counted as a failed attempt', async () => {
    const { db, sender, context, tokens } = harness();
    await seedMachine(db);
    await createNotification(context, { type: 0, title: 'Nach drei Tagen offline', equipmentnodeid: MACHINE });
    server.validAccess.clear(); // the access token expired meanwhile

    const result = await sender.drain();
    expect(result.outcome.type).toBe('idle');
    expect(tokens.access).toBe('access-2');
    expect(server.applied).toHaveLength(1);
    // The batch with the expired token is refused as a whole (its entry never ran), then resent with the new one.
    expect(server.requests.filter((r) => r.path === '/api/sync/batch').map((r) => r.authorization)).toEqual(['Bearer access-1', 'Bearer access-2']);
    const attempts = server.requests.filter((r) => r.path === '/api/notifications');
    expect(attempts.map((r) => [r.authorization, r.mutationId])).toEqual([['Bearer access-2', '1']]);
  });

  it('dead refresh token: the session ends, the queue is kept and resumes after the next login', async () => {
    const { db, sender, context, tokens } = harness();
    await seedMachine(db);
    await createNotification(context, { type: 0, title: 'Bleibt', equipmentnodeid: MACHINE });
    server.validAccess.clear();
    server.validRefresh.clear();

    const result = await sender.drain();
    expect(result.outcome.type).toBe('session-expired');
    expect(tokens.access).toBeNull();
    expect(await db.outbox.count()).toBe(1);
    expect((await db.outbox.toArray())[0]?.attempts).toBe(0);

    // Log in again.
    server.validAccess.add('access-9');
    tokens.access = 'access-9';
    tokens.refresh = 'refresh-9';
    expect((await sender.drain()).outcome.type).toBe('idle');
    expect(server.applied).toHaveLength(1);
  });

  it('server restored from a backup (409 below our oldest id): acknowledged writes are sent again, in order', async () => {
    const { db, sender, context } = harness();
    await seedMachine(db);
    await createNotification(context, { type: 0, title: 'Eins', equipmentnodeid: MACHINE });
    await createNotification(context, { type: 0, title: 'Zwei', equipmentnodeid: MACHINE });
    await createNotification(context, { type: 0, title: 'Drei', equipmentnodeid: MACHINE });
    await sender.drain();
    const clientId = await getClientId(db, USER);
    expect(server.lastMutation.get(clientId)).toBe(3);

    // Restore: the server only has mutation 1.
    server.lastMutation.set(clientId, 1);
    server.applied.splice(1);
    await createNotification(context, { type: 0, title: 'Vier', equipmentnodeid: MACHINE });

    const result = await sender.drain();
    expect(result.outcome.type).toBe('idle');
    expect(server.applied.map((w) => [w.mutationId, (w.body as { title: string }).title])).toEqual([
      [1, 'Eins'],
      [2, 'Zwei'],
      [3, 'Drei'],
      [4, 'Vier'],
    ]);
    expect(await readState(db, stateKeys.serverLostWrites)).toBeUndefined();
    expect(await readState(db, stateKeys.fullResyncNeeded)).toBe(true);
  });

  it('restored server and the acked log no longer has the lost writes: renumbers and reports how many were lost', async () => {
    const { db, context } = harness();
    const sender = createSender({ db, api: createApiClient({ baseUrl: server.baseUrl, tokens: fixedTokens }), getUser: () => USER, ackedLogSize: 0 });
    await seedMachine(db);
    await createNotification(context, { type: 0, title: 'Eins', equipmentnodeid: MACHINE });
    await createNotification(context, { type: 0, title: 'Zwei', equipmentnodeid: MACHINE });
    await sender.drain();
    const clientId = await getClientId(db, USER);
    server.lastMutation.set(clientId, 0);
    await createNotification(context, { type: 0, title: 'Drei', equipmentnodeid: MACHINE });
    expect((await sender.drain()).outcome.type).toBe('idle');
    expect(server.applied.slice(2).map((w) => [w.mutationId, (w.body as { title: string }).title])).toEqual([[1, 'Drei']]);
    expect(await readState(db, stateKeys.serverLostWrites)).toBe(2);
    expect(await pendingEntries(db, clientId)).toEqual([]);
  });

  it('sends consecutive entries in one batch; a registration whose bytes must be uploaded ends its batch', async () => {
    const { db, sender, context } = harness();
    await seedMachine(db);
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]).buffer;
    await createNotification(context, { type: 0, title: 'Leck', equipmentnodeid: MACHINE, photo: { bytes, mimetype: 'image/jpeg', name: 'leck.jpg' } });
    await createNotification(context, { type: 0, title: 'Danach', equipmentnodeid: MACHINE });

    expect(await sender.drain()).toMatchObject({ outcome: { type: 'idle' }, acknowledged: 4, deadLettered: 0 });
    const wire = server.requests.map((r) => (r.inBatch ? r.mutationId : r.path.startsWith('/upload/') ? 'upload' : r.path));
    expect(wire).toEqual(['/api/sync/batch', '1', '2', 'upload', '/api/sync/batch', '3', '4']);
    expect(server.applied.map((w) => w.path)).toEqual(['/api/notifications', '/api/files', '/api/attachments', '/api/notifications']);
  });

  it('files after the batch being sent go up ahead: their registrations and the attachments naming them ride in one batch, in order, each file once', async () => {
    const { db, sender, context } = harness();
    await seedMachine(db);
    const photo = (n: number) => ({ bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, n]).buffer, mimetype: 'image/jpeg', name: `foto-${n}.jpg` });
    await createNotification(context, { type: 0, title: 'Ohne Foto', equipmentnodeid: MACHINE });
    for (const n of [1, 2, 3]) await createNotification(context, { type: 0, title: `Foto ${n}`, equipmentnodeid: MACHINE, photo: photo(n) });

    expect(await sender.drain()).toMatchObject({ outcome: { type: 'idle' }, acknowledged: 10, deadLettered: 0 });
    // The first batch ends at its registration (the usual way); the other two files go up ahead while it is sent
    // (plain registration, no mutation id, then the PUT), and everything left is one batch.
    const batches = server.requests.map((r) => (r.inBatch ? Number(r.mutationId) : r.path === '/api/sync/batch' ? 'batch' : null)).filter((r) => r !== null);
    expect(batches).toEqual(['batch', 1, 2, 3, 'batch', 4, 5, 6, 7, 8, 9, 10]);
    expect(server.requests.filter((r) => r.path === '/api/files' && !r.inBatch).map((r) => r.mutationId)).toEqual([undefined, undefined]);
    expect(server.applied.map((w) => w.mutationId)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(server.requests.filter((r) => r.path.startsWith('/upload/'))).toHaveLength(3);
    expect(server.uploads.size).toBe(3);
    const attached = server.applied.filter((w) => w.path === '/api/attachments').map((w) => (w.body as { file: { fileid: string } }).file.fileid);
    expect(new Set(attached)).toEqual(new Set(server.uploads.keys()));
    expect(await db.fileBytes.count()).toBe(0);
  });

  it.each([
    { failures: 2, batches: ['batch', 1, 2, 3, 'batch', 4, 5, 6, 'batch', 7], uploads: 2 },
    { failures: 1, batches: ['batch', 1, 2, 3, 'batch', 4, 5, 6, 7], uploads: 2 },
  ])('an upload ahead that fails ($failures× its PUT) costs nothing but its tries: tried once more at once, then the usual way; no failed attempt', async ({ failures, batches: expected, uploads }) => {
    const { db, tokens, context } = harness();
    let failed = 0;
    // why a wrapped fetch: the first PUT of the second photo's bytes (last byte 2) must fail whichever of the
    // concurrent uploads reaches the server first; the stand-in server's upload faults go by arrival order.
    const fetchOnce: typeof fetch = (input, init) => {
      const last = init?.body instanceof ArrayBuffer ? new Uint8Array(init.body).at(-1) : undefined;
      if (last === 2 && failed < failures) {
        failed += 1;
        return Promise.resolve(new Response(null, { status: 500 }));
      }
      return globalThis.fetch(input, init);
    };
    const api = createApiClient({ baseUrl: server.baseUrl, tokens: tokens.source, timeout: 5_000 });
    const sender = createSender({ db, api, getUser: () => USER, origin: server.origin, random: () => 0.5, fetch: fetchOnce });
    await seedMachine(db);
    const photo = (n: number) => ({ bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, n]).buffer, mimetype: 'image/jpeg', name: `foto-${n}.jpg` });
    await createNotification(context, { type: 0, title: 'Ohne Foto', equipmentnodeid: MACHINE });
    for (const n of [1, 2]) await createNotification(context, { type: 0, title: `Foto ${n}`, equipmentnodeid: MACHINE, photo: photo(n) });

    expect(await sender.drain()).toMatchObject({ outcome: { type: 'idle' }, acknowledged: 7, deadLettered: 0 });
    expect(failed).toBe(failures);
    // The second file was registered ahead (plain call); only a second failed PUT sends it the usual way.
    expect(server.requests.filter((r) => r.path === '/api/files' && !r.inBatch)).toHaveLength(1);
    const batches = server.requests.map((r) => (r.inBatch ? Number(r.mutationId) : r.path === '/api/sync/batch' ? 'batch' : null)).filter((r) => r !== null);
    expect(batches).toEqual(expected);
    expect(server.applied.map((w) => w.mutationId)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(server.requests.filter((r) => r.path.startsWith('/upload/'))).toHaveLength(uploads);
    expect(server.uploads.size).toBe(2);
  });

  it('a retry in the middle of a batch: the entries before it are acknowledged, it and the rest stay queued, in order', async () => {
    const { db, sender, context } = harness();
    await seedMachine(db);
    await createNotification(context, { type: 0, title: 'Vorher', equipmentnodeid: MACHINE });
    await addCounterReading(context, { counternodeid: '0190f5a0-0000-7000-8000-0000000000cc', value: 7 });
    await createNotification(context, { type: 0, title: 'Nachher', equipmentnodeid: MACHINE });
    server.faults.push({ path: '/api/counters/', fault: 'fail-503' });

    expect(await sender.drain()).toMatchObject({ outcome: { type: 'backoff', error: 'HTTP 503' }, acknowledged: 1 });
    expect(server.requests.filter((r) => r.inBatch).map((r) => r.mutationId)).toEqual(['1', '2']);
    expect((await db.outbox.toArray()).map((e) => [e.mutationId, e.attempts, e.lastError])).toEqual([
      [2, 1, 'HTTP 503'],
      [3, 0, null],
    ]);

    expect(await sender.drain()).toMatchObject({ outcome: { type: 'idle' }, acknowledged: 2 });
    expect(server.applied.map((w) => w.mutationId)).toEqual([1, 2, 3]);
  });

  it('a batch refused as a whole (4xx) is no refusal of its entries: the head is sent alone, and only its own answer counts', async () => {
    const db = new LocalDatabase(`sender-refused-batch-${Math.random()}`);
    const batches: number[][] = [];
    // why a scripted API: a whole batch refused (a body over a proxy's limit) is not something the stand-in server does.
    const api = {
      send: async (_method: string, _path: string, options?: { json?: unknown }) => {
        const ids = (options?.json as SyncBatchRequest).mutations.map((entry) => entry.mutationId);
        batches.push(ids);
        if (ids.length > 1) return new Response(JSON.stringify({ statusCode: 413, error: 'Payload Too Large', message: 'too large' }), { status: 413 });
        return new Response(JSON.stringify({ results: [{ mutationId: ids[0], status: 201, body: null, replayed: false }] }), { status: 200 });
      },
    };
    const sender = createSender({ db, api, getUser: () => USER, random: () => 0.5 });
    await seedMachine(db);
    await createNotification({ db, usernodeid: USER }, { type: 0, title: 'Eins', equipmentnodeid: MACHINE });
    await createNotification({ db, usernodeid: USER }, { type: 0, title: 'Zwei', equipmentnodeid: MACHINE });

    expect(await sender.drain()).toMatchObject({ outcome: { type: 'idle' }, acknowledged: 2, deadLettered: 0 });
    expect(batches).toEqual([[1, 2], [1], [2]]);
  });

  it.each([
    [500, [[1, 2], [1], [2]], 1],
    // An outage is no one entry's doing: the batch waits as it is, counted against its head as before.
    [503, [[1, 2]], 0],
  ])('a batch failed as a whole with %i: the head alone decides whether it counts against the head', async (status, expected, acknowledged) => {
    const db = new LocalDatabase(`sender-failed-batch-${Math.random()}`);
    const batches: number[][] = [];
    // why a scripted API: a batch request failing as a whole (its route, not an entry) is not something the stand-in
    // server does. Here the second entry's presence makes the batch fail; the head alone and the second alone answer.
    const api = {
      send: async (_method: string, _path: string, options?: { json?: unknown }) => {
        const ids = (options?.json as SyncBatchRequest).mutations.map((entry) => entry.mutationId);
        batches.push(ids);
        if (ids.length > 1 || ids[0] === 2) return new Response(JSON.stringify({ statusCode: status, error: 'Error', message: 'failed' }), { status });
        return new Response(JSON.stringify({ results: [{ mutationId: ids[0], status: 201, body: null, replayed: false }] }), { status: 200 });
      },
    };
    const sender = createSender({ db, api, getUser: () => USER, random: () => 0.5 });
    await seedMachine(db);
    await createNotification({ db, usernodeid: USER }, { type: 0, title: 'Eins', equipmentnodeid: MACHINE });
    await createNotification({ db, usernodeid: USER }, { type: 0, title: 'Zwei', equipmentnodeid: MACHINE });

    expect(await sender.drain()).toMatchObject({ outcome: { type: 'backoff', error: `HTTP ${status}` }, acknowledged });
    expect(batches).toEqual(expected);
    // The failure is the failing entry's own: the head that succeeded alone is acknowledged, not counted as failing.
    expect((await db.outbox.toArray()).map((e) => [e.mutationId, e.attempts])).toEqual(status === 500 ? [[2, 1]] : [[1, 1], [2, 0]]);
  });

  it('photo of an offline fault report: notification, then registration + PUT of the bytes, then the attachment', async () => {
    const { db, sender, context } = harness();
    await seedMachine(db);
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]).buffer;
    const id = await createNotification(context, { type: 0, title: 'Leck', equipmentnodeid: MACHINE, photo: { bytes, mimetype: 'image/jpeg', name: 'leck.jpg' } });
    expect((await db.outbox.toArray()).map((e) => [e.mutationId, e.action])).toEqual([
      [1, 'createNotification'],
      [2, 'uploadFile'],
      [3, 'attachFile'],
    ]);
    const [file] = await db.fileBytes.toArray();
    expect(file?.bytes).toBeInstanceOf(ArrayBuffer);
    expect(file?.mimetype).toBe('image/jpeg');

    // The create fails transiently: nothing after it may be sent.
    server.faults.push({ path: '/api/notifications', fault: 'fail-503' });
    expect((await sender.drain()).outcome.type).toBe('backoff');
    expect(server.requests.some((r) => r.path === '/api/files' || r.path === '/api/attachments')).toBe(false);

    // The PUT of the bytes fails once (5xx): the registration is resent (replayed with the same, now expired,
    // URL), the expired URL is signed again (plain call, no mutation id), then the PUT succeeds.
    server.uploadFaults.push(500);
    expect((await sender.drain()).outcome.type).toBe('backoff');
    expect(await db.fileBytes.count()).toBe(1);
    server.expireSignedUrls();
    expect((await sender.drain()).outcome.type).toBe('idle');

    expect(server.applied.map((w) => w.path)).toEqual(['/api/notifications', '/api/files', '/api/attachments']);
    const serverFileId = [...server.uploads.keys()][0];
    expect(server.applied[2]?.body).toMatchObject({ isattachmentof: id, file: { fileid: serverFileId, bucketid: 'local', fileversion: 1, mimetype: 'image/jpeg' } });
    expect(server.uploads.size).toBe(1);
    expect([...server.uploads.values()][0]).toEqual(Buffer.from(new Uint8Array(bytes)));
    expect(server.requests.filter((r) => r.path === '/api/files').map((r) => r.mutationId)).toEqual(['2', '2', undefined]);
    expect(server.requests.filter((r) => r.path.startsWith('/upload/')).map((r) => r.path)).toHaveLength(3);
    // Bytes are dropped once the attachment is acknowledged.
    expect(await db.fileBytes.count()).toBe(0);
  });

  describe('a batch answered in full is settled while the next one is sent', () => {
    const REPORTS = SYNC_BATCH_MAX + 20;

    /**
     * The sender over a database whose settle transactions (the ones that write the acked log) wait for `gate`
     * before they start: the next batch must be on its way meanwhile. The gate opens when the second batch is sent,
     * or after two seconds (a sender that waited for its settle would send it only then).
     */
    async function gatedHarness(failFirstSettle = false) {
      const h = harness();
      await seedMachine(h.db);
      for (let i = 0; i < REPORTS; i++) await createNotification(h.context, { type: 0, title: `Meldung ${i}`, equipmentnodeid: MACHINE });
      let openGate = () => {};
      const gate = new Promise<void>((resolve) => (openGate = resolve));
      const fallback = setTimeout(openGate, 2_000);
      const order: string[] = [];
      const transaction = h.db.transaction.bind(h.db) as (...args: unknown[]) => Promise<unknown>;
      let settles = 0;
      // why a wrapped transaction: the settle's start is the event under test; holding it back makes the order
      // of "second batch sent" and "first settle done" certain instead of a race between two IndexedDB queues.
      vi.spyOn(h.db, 'transaction').mockImplementation(((...args: unknown[]) => {
        const scope = args[1];
        if (!Array.isArray(scope) || !scope.includes(h.db.acked)) return transaction(...args);
        const settle = ++settles;
        return gate.then(async () => {
          if (failFirstSettle && settle === 1) {
            order.push('settle 1 failed');
            throw new Error('settle failed');
          }
          const result = await transaction(...args);
          order.push(`settle ${settle}`);
          return result;
        });
      }) as never);
      const api = createApiClient({ baseUrl: server.baseUrl, tokens: h.tokens.source, timeout: 5_000 });
      let batches = 0;
      const sender = createSender({
        db: h.db,
        getUser: () => USER,
        origin: server.origin,
        random: () => 0.5,
        api: {
          send: (method, path, options) => {
            if (path === 'sync/batch') {
              batches += 1;
              order.push(`batch ${batches}`);
              if (batches === 2) openGate();
            }
            return api.send(method, path, options);
          },
        },
      });
      return { ...h, sender, order, done: () => clearTimeout(fallback) };
    }

    it('the second batch goes out before the first batch\'s answers are settled; all settled, in order, when the run ends', async () => {
      const { db, sender, order, done } = await gatedHarness();
      const result = await sender.drain();
      done();
      expect(result).toMatchObject({ outcome: { type: 'idle' }, acknowledged: REPORTS, deadLettered: 0 });
      expect(order).toEqual(['batch 1', 'batch 2', 'settle 1', 'settle 2']);
      expect(server.applied.map((w) => w.mutationId)).toEqual(Array.from({ length: REPORTS }, (_, i) => i + 1));
      expect(await db.outbox.count()).toBe(0);
      expect(await db.acked.count()).toBe(REPORTS);
    });

    it('a settle that fails ends the run with its error and leaves its entries and those behind them queued; the next run is answered from the log, nothing applied twice', async () => {
      const { db, sender, order, done } = await gatedHarness(true);
      await expect(sender.drain()).rejects.toThrow('settle failed');
      done();
      expect(order).toEqual(['batch 1', 'batch 2', 'settle 1 failed']);
      expect(await db.outbox.count()).toBe(REPORTS);
      vi.mocked(db.transaction).mockRestore();
      expect(await sender.drain()).toMatchObject({ outcome: { type: 'idle' }, acknowledged: REPORTS });
      expect(server.applied).toHaveLength(REPORTS);
      expect(await db.outbox.count()).toBe(0);
    });
  });

  it('only sends the logged-in user’s entries', async () => {
    const { db, sender, context } = harness();
    await seedMachine(db);
    await createNotification({ ...context, usernodeid: 'someone-else' }, { type: 0, title: 'Fremd', equipmentnodeid: MACHINE });
    expect((await sender.drain()).outcome.type).toBe('idle');
    expect(server.applied).toHaveLength(0);
    expect(await db.outbox.count()).toBe(1);
  });
});

/** The sender's reading of an acknowledged write's answer, with answers scripted per request. */
describe('a report refused because its machine was deleted', () => {
  const OTHER_MACHINE = '0190f5a0-0000-7000-8000-0000000000bc';
  const photo = { bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 9]).buffer, mimetype: 'image/jpeg', name: 'leck.jpg' };

  /**
   * A letter sent again on its own and refused again: the same letter, now the newest. (Erneut senden takes what it
   * builds on and what builds on it along; an app before that sent the letter alone, and its letters stay.)
   */
  async function refusedAgainAlone(db: LocalDatabase, id: number): Promise<void> {
    const { id: _old, ...letter } = (await db.deadLetters.get(id))!;
    await db.transaction('rw', db.deadLetters, async () => {
      await db.deadLetters.delete(id);
      await db.deadLetters.add({ ...letter, failedAt: letter.failedAt + 1 });
    });
  }

  it('Erneut senden takes along what builds on the letter, and puts the refused create it builds on first', async () => {
    const { db, sender, letters, report, unrelated } = await refusedReport();
    const photoLetter = letters.find((letter) => letter.action === 'attachFile')!;
    // Sent again from the photo: the report it builds on comes first, then everything on the report, in order.
    await retryDeadLetter(db, photoLetter.id!);
    expect((await db.outbox.orderBy('seq').toArray()).map((entry) => entry.action)).toEqual(['createNotification', 'attachFile', 'updateNotificationStatus']);
    expect((await db.deadLetters.toArray()).map((letter) => letter.nodeid)).toEqual([unrelated]);
    // One user action, described by the report.
    const queued = await db.outbox.orderBy('seq').toArray();
    expect(new Set(queued.map((entry) => entry.userAction))).toEqual(new Set([queued[0]!.mutationId]));
    expect(queued[0]!.nodeid).toBe(report.nodeid);
    expect((await sender.drain()).outcome).toEqual({ type: 'idle' });
  });

  it('Alle erneut senden queues every refused change of the user once, each with what belongs to it, oldest first', async () => {
    // The report refused for a reason that may pass later (a permission granted meanwhile), what builds on it for want of it.
    const { db, sender, letters } = await refusedReport('reject-403');
    expect(letters.map((letter) => letter.action)).toEqual(['createNotification', 'createNotification', 'attachFile', 'updateNotificationStatus']);
    expect(await retryAllDeadLetters(db, USER)).toEqual({ failed: 0, gone: 0 });
    expect((await db.outbox.orderBy('seq').toArray()).map((entry) => entry.action)).toEqual(['createNotification', 'createNotification', 'attachFile', 'updateNotificationStatus']);
    expect(await db.deadLetters.count()).toBe(0);
    expect((await sender.drain()).outcome).toEqual({ type: 'idle' });
  });

  it('a refused edit whose record has left the device cannot be queued again: Alle erneut senden says so, and keeps it with its content', async () => {
    const { db, sender, context } = harness();
    await seedMachine(db);
    const id = await createNotification(context, { type: 0, title: 'Gelöscht', equipmentnodeid: MACHINE });
    await updateNotificationStatus(context, (await db.mirror('notifications').get(id))!, 1);
    server.faults.push({ path: '/api/notifications/', fault: 'reject-403' });
    await sender.drain();
    // The pull's tombstone takes the record off the device.
    await db.mirror('notifications').delete(id);

    expect(await retryAllDeadLetters(db, USER)).toEqual({ failed: 1, gone: 1 });
    expect(await db.deadLetters.toArray()).toMatchObject([{ action: 'updateNotificationStatus', nodeid: id }]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('a change refused because its record was deleted on the server (404, 410) is not offered for sending again; one under a refused create is', async () => {
    const { db, letters, report, unrelated } = await refusedReport();
    const byAction = (items: { description: { action: string }; mayRetry?: boolean; reassign?: unknown }[], action: string) => items.filter((item) => item.description.action === action);
    const panel = await syncListItems(db, USER);
    // The report's machine is gone: sending the report (and with it its photo and status change) again meets the
    // same 404. The report may be given another machine instead.
    const [own, other] = byAction(panel.refused, 'createNotification').sort((a) => (a.reassign ? -1 : 1));
    expect(own).toMatchObject({ mayRetry: false, reassign: { followers: 2 } });
    expect(other).toMatchObject({ mayRetry: true });
    expect(byAction(panel.refused, 'attachFile')).toMatchObject([{ mayRetry: false }]);
    expect(byAction(panel.refused, 'updateNotificationStatus')).toMatchObject([{ mayRetry: false }]);
    // Alle erneut senden leaves them; only the 403 goes.
    expect(await retryAllDeadLetters(db, USER)).toEqual({ failed: 0, gone: 0 });
    expect((await db.outbox.toArray()).map((entry) => entry.nodeid)).toEqual([unrelated]);
    expect((await db.deadLetters.toArray()).map((letter) => letter.id).sort()).toEqual(letters.filter((letter) => letter.nodeid !== unrelated).map((letter) => letter.id).sort());
    expect(report.status).toBe(404);

    // A notification deleted on the server: a later edit is refused 410, and is not offered either.
    const h = harness();
    await seedMachine(h.db);
    const id = await createNotification(h.context, { type: 0, title: 'Gelöscht', equipmentnodeid: MACHINE });
    expect((await h.sender.drain()).outcome).toEqual({ type: 'idle' });
    await updateNotificationStatus(h.context, (await h.db.mirror('notifications').get(id))!, 1);
    server.faults.push({ path: '/api/notifications/', fault: 'reject-410' });
    await h.sender.drain();
    expect((await syncListItems(h.db, USER)).refused).toMatchObject([{ refusedStatus: 410, refusedReason: 'deleted', mayRetry: false }]);
    expect(await retryAllDeadLetters(h.db, USER)).toEqual({ failed: 0, gone: 0 });
    expect(await h.db.outbox.count()).toBe(0);
  });

  it('Erneut senden of a refused edit sends that edit alone: two refused edits of one record are two decisions', async () => {
    const h = harness();
    await seedMachine(h.db);
    const id = await createNotification(h.context, { type: 0, title: 'Zwei Versuche', equipmentnodeid: MACHINE });
    expect((await h.sender.drain()).outcome).toEqual({ type: 'idle' });
    await updateNotificationStatus(h.context, (await h.db.mirror('notifications').get(id))!, 1);
    await updateNotificationStatus(h.context, (await h.db.mirror('notifications').get(id))!, 2);
    server.faults.push({ path: '/api/notifications/', fault: 'reject-403' }, { path: '/api/notifications/', fault: 'reject-403' });
    await h.sender.drain();
    const letters = await h.db.deadLetters.toArray();
    expect(letters.map((letter) => letter.action)).toEqual(['updateNotificationStatus', 'updateNotificationStatus']);
    await retryDeadLetter(h.db, letters[1]!.id!);
    expect((await h.db.outbox.toArray()).map((entry) => entry.body)).toEqual([letters[1]!.body]);
    expect((await h.db.deadLetters.toArray()).map((letter) => letter.id)).toEqual([letters[0]!.id]);
  });

  /** A report with a photo and a status change, all refused as if the machine had been deleted meanwhile; and an unrelated refusal. */
  async function refusedReport(reportRefusal: 'reject-404' | 'reject-403' = 'reject-404') {
    const h = harness();
    await seedMachine(h.db);
    await h.db.mirror('equipment').put({ nodeid: OTHER_MACHINE, name: 'Drehmaschine DRE 03' });
    const unrelated = await createNotification(h.context, { type: 0, title: 'Ohne Recht', equipmentnodeid: MACHINE });
    const id = await createNotification(h.context, { type: 0, title: 'Leck am Zylinder', equipmentnodeid: MACHINE, photo });
    await updateNotificationStatus(h.context, (await h.db.mirror('notifications').get(id))!, 1);
    server.faults.push(
      { path: '/api/notifications', fault: 'reject-403' },
      { path: '/api/notifications', fault: reportRefusal },
      { path: '/api/attachments', fault: 'reject-404' },
      { path: '/api/notifications/', fault: 'reject-404' },
    );
    await h.sender.drain();
    const letters = await h.db.deadLetters.toArray();
    const report = letters.find((letter) => letter.action === 'createNotification' && letter.nodeid === id)!;
    return { ...h, id, unrelated, letters, report };
  }

  it('the panel still names the deleted machine once the pull has taken it off the device, also after a resend refused again', async () => {
    const { db, sender, report, letters } = await refusedReport();
    expect(report.subjectNames).toEqual({ name: 'Hydraulikpresse HP-200' });
    // The status change writes its report: its own title is kept too (the report may leave the device at the next pull).
    expect(letters.find((letter) => letter.action === 'updateNotificationStatus')!.subjectNames).toEqual({ title: 'Leck am Zylinder' });
    await db.mirror('equipment').delete(MACHINE);
    expect(await describeEntry(db, report)).toEqual({ action: 'createNotification', params: { name: 'Hydraulikpresse HP-200', title: 'Leck am Zylinder' } });
    // Sent again and refused again, now that the machine is gone from the device: still named.
    await retryDeadLetter(db, report.id!);
    server.faults.push({ path: '/api/notifications', fault: 'reject-404' });
    await sender.drain();
    const again = (await db.deadLetters.toArray()).find((letter) => letter.action === 'createNotification' && letter.nodeid === report.nodeid)!;
    expect(again.id).not.toBe(report.id);
    expect((await describeEntry(db, again)).params.name).toBe('Hydraulikpresse HP-200');
    // The mirror's name wins while the machine is there (renamed meanwhile, say).
    await db.mirror('equipment').put({ nodeid: MACHINE, name: 'HP-200 (umgebaut)' });
    expect((await describeEntry(db, again)).params.name).toBe('HP-200 (umgebaut)');
  });

  // An admin's walkthrough: a machine deleted on another device while its form was open; the refused change read
  // "Equipment ändern: unbekannter Eintrag" once the pull had taken the machine off the device.
  it('a refused change of a machine deleted elsewhere still names the machine once it is off the device', async () => {
    const h = harness();
    await seedMachine(h.db);
    const machine = (await h.db.mirror('equipment').get(MACHINE))!;
    await mutate(h.context, updateEquipmentMemo, { params: { id: machine.nodeid }, body: { lang: 'de', equipmentnodeid: machine.nodeid, memo: 'Nach Crash Referenzfahrt' } });
    server.faults.push({ path: '/api/equipments/', fault: 'reject-404' });
    await h.sender.drain();
    const [letter] = await h.db.deadLetters.toArray();
    expect(letter!.subjectNames).toMatchObject({ name: 'Hydraulikpresse HP-200' });
    await h.db.mirror('equipment').delete(MACHINE);
    expect((await describeEntry(h.db, letter!)).params.name).toBe('Hydraulikpresse HP-200');
  });

  it('a refused reading names its machine beside its counter (every machine has a "Betriebsstunden"), also once both are off the device', async () => {
    const h = harness();
    await seedMachine(h.db);
    const COUNTER = '0190f5a0-0000-7000-8000-0000000000c1';
    await h.db.mirror('counters').put({ nodeid: COUNTER, name: 'Betriebsstunden', equipmentnodeid: MACHINE });
    await addCounterReading(h.context, { counternodeid: COUNTER, value: 1250 });
    server.faults.push({ path: '/api/counters/update/', fault: 'reject-404' });
    await h.sender.drain();
    const [letter] = await h.db.deadLetters.toArray();
    expect(letter!.subjectNames).toEqual({ name: 'Betriebsstunden', machine: 'Hydraulikpresse HP-200' });
    expect(await describeEntry(h.db, letter!)).toEqual({ action: 'addCounterReading', params: { name: 'Betriebsstunden', machine: 'Hydraulikpresse HP-200', value: 1250, unitsymbol: '' } });
    // The pull takes the deleted machine and its counter off the device: still named as they were.
    await h.db.mirror('counters').delete(COUNTER);
    await h.db.mirror('equipment').delete(MACHINE);
    expect((await describeEntry(h.db, letter!)).params).toMatchObject({ name: 'Betriebsstunden', machine: 'Hydraulikpresse HP-200' });
  });

  it('a change refused as "not found" because the create it builds on was refused names that create, not a deletion', async () => {
    const { letters, report } = await refusedReport();
    const photo = letters.find((letter) => letter.action === 'attachFile')!;
    expect(refusedCreateUnder(photo, letters)).toBe(report);
    // The report itself was refused because its machine is gone: no refused create under it.
    expect(refusedCreateUnder(report, letters)).toBeUndefined();
    // Refused for another reason than "not found": its own reason stands.
    expect(refusedCreateUnder({ ...photo, status: 422 }, letters)).toBeUndefined();
  });

  it('only a declared create refused because what it names is gone (404) may be given another machine', () => {
    expect(reassignableField({ action: 'createNotification', creates: true, status: 404 })).toBe('equipmentnodeid');
    // 410: the record's own id was deleted on the server; no machine brings it back.
    expect(reassignableField({ action: 'createNotification', creates: true, status: 410 })).toBeUndefined();
    expect(reassignableField({ action: 'createNotification', creates: true, status: 403 })).toBeUndefined();
    expect(reassignableField({ action: 'createNotification', creates: true, status: 422 })).toBeUndefined();
    expect(reassignableField({ action: 'updateNotification', creates: false, status: 404 })).toBeUndefined();
    expect(reassignableField({ action: 'addCounterReading', creates: true, status: 404 })).toBeUndefined();
  });

  it('its photo and status change go along: one action, in order, under the same id, and the server gets all of it', async () => {
    const { db, sender, id, unrelated, letters, report } = await refusedReport();
    expect(letters.map((letter) => [letter.action, letter.status])).toEqual([
      ['createNotification', 403],
      ['createNotification', 404],
      ['attachFile', 404],
      ['updateNotificationStatus', 404],
    ]);
    expect(await db.mirror('notifications').get(id)).toBeUndefined();
    expect(reassignment(report, [], letters)).toMatchObject({ field: 'equipmentnodeid', machine: MACHINE });
    expect(reassignment(letters[0]!, [], letters)).toBeUndefined();
    expect(followersOf(report, letters).map((letter) => letter.action)).toEqual(['attachFile', 'updateNotificationStatus']);

    await reassignDeadLetter(db, report.id!, OTHER_MACHINE);
    const queued = await db.outbox.orderBy('seq').toArray();
    expect(queued.map((entry) => entry.action)).toEqual(['createNotification', 'attachFile', 'updateNotificationStatus']);
    expect(new Set(queued.map((entry) => entry.userAction))).toEqual(new Set([queued[0]!.mutationId]));
    expect(queued[0]).toMatchObject({ nodeid: id, body: { equipmentnodeid: OTHER_MACHINE, title: 'Leck am Zylinder' }, values: { equipmentnodeid: OTHER_MACHINE } });
    expect(await db.mirror('notifications').get(id)).toMatchObject({ equipmentnodeid: OTHER_MACHINE, status: 1 });
    // The unrelated refusal stays where it was.
    expect((await db.deadLetters.toArray()).map((letter) => letter.nodeid)).toEqual([unrelated]);

    server.applied.length = 0;
    expect((await sender.drain()).outcome.type).toBe('idle');
    expect(server.applied.map((write) => [write.method, write.path])).toEqual([
      ['POST', '/api/notifications'],
      ['POST', '/api/attachments'],
      ['PUT', `/api/notifications/${id}`],
    ]);
    expect(server.applied[0]!.body).toMatchObject({ nodeid: id, equipmentnodeid: OTHER_MACHINE });
    expect(server.applied[1]!.body).toMatchObject({ isattachmentof: id, file: { mimetype: 'image/jpeg' } });
    // The photo's bytes are gone once its attachment is acknowledged.
    expect(await db.fileBytes.count()).toBe(0);
  });

  it('a report sent again first and refused again keeps its photo and status change as followers, after it', async () => {
    const { db, id, letters, report } = await refusedReport();
    await refusedAgainAlone(db, report.id!);
    const now = await db.deadLetters.toArray();
    const again = now.find((letter) => letter.action === 'createNotification' && letter.nodeid === id)!;
    expect(again.id!).toBeGreaterThan(Math.max(...letters.map((letter) => letter.id!)));
    expect(followersOf(again, now).map((letter) => letter.action)).toEqual(['attachFile', 'updateNotificationStatus']);
    await reassignDeadLetter(db, again.id!, OTHER_MACHINE);
    expect((await db.outbox.orderBy('seq').toArray()).map((entry) => entry.action)).toEqual(['createNotification', 'attachFile', 'updateNotificationStatus']);
  });

  it('a solution with its photo on the report goes along; a solution refused again comes before its photo', async () => {
    const h = harness();
    await seedMachine(h.db);
    const id = await createNotification(h.context, { type: 0, title: 'Lager defekt', equipmentnodeid: MACHINE });
    await addSolution(h.context, { notificationnodeid: id, title: 'Lager getauscht', description: 'Neues Rillenkugellager.', files: [photo] });
    // The solution's create is refused by the stand-in (no such route: 404), its photo's attachment as the server would.
    server.faults.push({ path: '/api/notifications', fault: 'reject-404' }, { path: '/api/attachments', fault: 'reject-404' });
    await h.sender.drain();
    let letters = await h.db.deadLetters.toArray();
    expect(letters.map((letter) => letter.action)).toEqual(['createNotification', 'createWorkflow', 'attachFile']);
    const report = letters[0]!;
    // The photo names the solution's step, not the report: found through the solution's create.
    expect(followersOf(report, letters).map((letter) => letter.action)).toEqual(['createWorkflow', 'attachFile']);

    await refusedAgainAlone(h.db, letters[1]!.id!);
    // Sent again and refused again: now a later letter than its photo's.
    letters = await h.db.deadLetters.toArray();
    expect(letters.map((letter) => letter.action)).toEqual(['createNotification', 'attachFile', 'createWorkflow']);
    expect(followersOf(report, letters).map((letter) => letter.action)).toEqual(['createWorkflow', 'attachFile']);
  });

  it('not when the report was deleted on the device afterwards: there is nothing to bring back', async () => {
    const h = harness();
    await seedMachine(h.db);
    const id = await createNotification(h.context, { type: 0, title: 'Doch nicht', equipmentnodeid: MACHINE });
    await removeNotification(h.context, id);
    server.faults.push({ path: '/api/notifications', fault: 'reject-404' }, { path: '/api/notifications/', fault: 'reject-404' });
    await h.sender.drain();
    const letters = await h.db.deadLetters.toArray();
    expect(letters.map((letter) => letter.method)).toEqual(['POST', 'DELETE']);
    expect(reassignment(letters[0]!, [], letters)).toBeUndefined();
  });

  it('not while a change on the record still waits to be sent: it would reach the server first and be refused alone', async () => {
    const h = harness();
    await seedMachine(h.db);
    const id = await createNotification(h.context, { type: 0, title: 'Leck', equipmentnodeid: MACHINE });
    await updateNotificationStatus(h.context, (await h.db.mirror('notifications').get(id))!, 1);
    server.faults.push({ path: '/api/notifications', fault: 'reject-404' }, { path: '/api/notifications/', fault: 'fail-503' });
    expect((await h.sender.drain()).outcome.type).toBe('backoff');
    const [letter] = await h.db.deadLetters.toArray();
    expect(reassignment(letter!, await h.db.outbox.toArray(), [letter!])).toBeUndefined();
    await expect(reassignDeadLetter(h.db, letter!.id!, MACHINE)).rejects.toThrow();
    expect(await h.db.deadLetters.count()).toBe(1);
    expect((await h.db.outbox.toArray()).map((entry) => entry.action)).toEqual(['updateNotificationStatus']);
  });
});

describe('sender: reconciling by version', () => {
  const N = '0190f5a0-0000-7000-8000-000000000301';
  const TENANT = '0190f5a0-0000-7000-8000-0000000000ee';

  /** The server's notification row at `version`. */
  const serverRow = (version: number, fields: Record<string, unknown> = {}) => ({
    nodeid: N,
    legalentitynodeid: TENANT,
    version,
    type: 0,
    status: 0,
    title: 'Ölverlust',
    description: null,
    created: 1_000,
    progressstarted: null,
    closed: null,
    dueuntil: null,
    errorcode: null,
    equipmentnodeid: MACHINE,
    authornodeid: USER,
    maintenancetasknodeid: null,
    ...fields,
  });

  async function scripted(answers: Response[]) {
    const db = new LocalDatabase(`sender-reconcile-${Math.random()}`);
    const sent: string[] = [];
    // why a scripted API: each answer is one entry's, packed into the batch answer the way the server does it.
    const api = {
      send: async (method: string, path: string, options?: { json?: unknown }) => {
        sent.push(`${method} ${path}`);
        const results: SyncBatchResult[] = [];
        for (const entry of (options?.json as SyncBatchRequest).mutations) {
          const answer = answers.shift() ?? new Response(JSON.stringify({ statusCode: 503 }), { status: 503 });
          const body = (await answer.json()) as unknown;
          results.push({ mutationId: entry.mutationId, status: answer.status, body, replayed: false });
          if (stopsBatch(answer.status, body)) break;
        }
        return json({ results });
      },
    };
    const sender = createSender({ db, api, getUser: () => USER, random: () => 0.5 });
    await db.mirror('notifications').put(serverRow(5));
    // The pull that brought version 5 has already passed the write's version 6 (a colleague's write meanwhile).
    await db.syncState.put({ key: stateKeys.cursor, value: 6 });
    return { db, sender, sent, context: { db, usernodeid: USER } };
  }
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

  it('the answered row replaces the mirror row; fields of a later pending write stay on top', async () => {
    const { db, sender, context } = await scripted([json(serverRow(6, { status: 1, progressstarted: 2_000, title: 'Vom Kollegen umbenannt' }))]);
    await updateNotificationStatus(context, (await db.mirror('notifications').get(N))!, 1);
    await updateNotificationStatus(context, (await db.mirror('notifications').get(N))!, 2);
    const pendingClosed = (await db.mirror('notifications').get(N))!.closed;

    // The first is answered with the row; the second meets a 503 and stays pending.
    expect((await sender.drain()).outcome.type).toBe('backoff');
    expect(await db.mirror('notifications').get(N)).toEqual({ ...serverRow(6, { title: 'Vom Kollegen umbenannt' }), status: 2, progressstarted: expect.any(Number), closed: pendingClosed });
    expect(await readState(db, stateKeys.pullFrom)).toBeUndefined();
  });

  it('a replayed answer older than the mirror row leaves it, and the next pull fetches the row again', async () => {
    const { db, sender, context } = await scripted([json(serverRow(6, { status: 1 }))]);
    await updateNotificationStatus(context, (await db.mirror('notifications').get(N))!, 1);
    // A pull brought a later version meanwhile (under the pending status).
    await db.mirror('notifications').update(N, { version: 9, title: 'Neuer' });

    expect((await sender.drain()).outcome.type).toBe('idle');
    expect(await db.mirror('notifications').get(N)).toMatchObject({ version: 9, title: 'Neuer', status: 1 });
    expect(await readState(db, stateKeys.pullFrom)).toBe(8);
  });

  it('an answer that is not the row (only nodeid and version, another kind’s record, a list) is left to the next pull', async () => {
    for (const answer of [{ nodeid: N, version: 6 }, { nodeid: N, version: 6, name: 'Zähler', equipmentnodeid: MACHINE }, [serverRow(6, { status: 1 })]]) {
      const { db, sender, context } = await scripted([json(answer)]);
      await updateNotificationStatus(context, (await db.mirror('notifications').get(N))!, 1);
      expect((await sender.drain()).outcome.type).toBe('idle');
      expect(await db.mirror('notifications').get(N), JSON.stringify(answer)).toMatchObject({ version: 5, status: 1 });
      expect(await readState(db, stateKeys.pullFrom)).toBe(4);
    }
  });

  it('mirror-only fields (a saved shift plan on its model, its owner) survive the answered row until the pull brings the rows', async () => {
    const MODEL = '0190f5a0-0000-7000-8000-0000000000e1';
    const AREA = '0190f5a0-0000-7000-8000-0000000000ef';
    const shifts = [{ weekdays: [1 as const], start: '06:00', end: '13:59', unmanned: false }];
    const answer = { nodeid: MODEL, legalentitynodeid: TENANT, version: 7, name: null };
    const { db, sender, context } = await scripted([json(answer)]);
    await mutate(context, createShifts, { params: {}, body: { nodeid: MODEL, shiftmodelof: AREA, shifts } });
    expect((await sender.drain()).outcome.type).toBe('idle');
    expect(await db.mirror('shiftmodels').get(MODEL)).toMatchObject({ ...answer, shifts, ownernodeid: AREA });
  });

  it('only the version, ahead of the cursor: the next pull brings that version anyway, nothing is fetched again', async () => {
    const { db, sender, context } = await scripted([json({ nodeid: N, version: 7 })]);
    await updateNotificationStatus(context, (await db.mirror('notifications').get(N))!, 1);
    expect((await sender.drain()).outcome.type).toBe('idle');
    expect(await readState(db, stateKeys.pullFrom)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('grows exponentially up to the cap and stays within [ceiling/2, ceiling]', () => {
    const ceilings = [1, 2, 3, 4, 5, 10, 20].map((attempt) => backoffDelay(attempt, () => 1));
    expect(ceilings.slice(0, 5)).toEqual([250, 500, 1_000, 2_000, 4_000]);
    expect(ceilings[6]).toBe(DEFAULT_BACKOFF.maxMs);
    for (const attempt of [1, 2, 3, 6, 12, 40]) {
      const ceiling = Math.min(DEFAULT_BACKOFF.maxMs, DEFAULT_BACKOFF.baseMs * 2 ** (attempt - 1));
      expect(backoffDelay(attempt, () => 0)).toBe(ceiling / 2);
      expect(backoffDelay(attempt, () => 0.999999)).toBeLessThanOrEqual(ceiling);
      for (let i = 0; i < 50; i += 1) {
        const delay = backoffDelay(attempt);
        expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
        expect(delay).toBeLessThanOrEqual(ceiling);
      }
    }
  });
});
