import { afterEach, describe, expect, it, vi } from 'vitest';
import { LATEST_SCHEMA_VERSION, LocalDatabase, isQuotaExceeded, type OutboxEntry } from '../../src/client/db/local-db';
import { enqueueMutation, ensureRoomFor, filesStillNeeded, getClientId, pendingEntries } from '../../src/client/sync/outbox';
import { createNotification } from '../../src/client/sync/repositories/notifications';

const USER = '0190f5a0-0000-7000-8000-0000000000aa';
const MACHINE = '0190f5a0-0000-7000-8000-0000000000bb';
const freshDb = () => new LocalDatabase(`db-test-${Math.random()}`);

describe('one write path', () => {
  it('writes the mirror change and the outbox entry together', async () => {
    const db = freshDb();
    const id = await createNotification({ db, usernodeid: USER }, { type: 0, title: 'Kette gerissen', equipmentnodeid: MACHINE });
    expect(await db.mirror('notifications').get(id)).toMatchObject({ title: 'Kette gerissen', status: 0, equipmentnodeid: MACHINE });
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ kind: 'notifications', nodeid: id, method: 'POST', path: 'notifications', mutationId: 1, attempts: 0 });
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/); // UUIDv7
  });

  it('a write that fails inside the transaction leaves neither the mirror change nor the outbox entry nor a used id', async () => {
    const db = freshDb();
    const context = { db, usernodeid: USER };
    await expect(
      enqueueMutation(
        context,
        { action: 'createNotification', method: 'POST', path: 'notifications', body: {}, kind: 'notifications', nodeid: 'n-1', values: { title: 'x' }, creates: true },
        {
          inTransaction: () => {
            // why: stands in for a QuotaExceededError or a tab killed mid-transaction; IndexedDB aborts the same way.
            throw new DOMException('disk full', 'QuotaExceededError');
          },
        },
      ),
    ).rejects.toThrow('disk full');
    expect(await db.mirror('notifications').count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
    const [next] = await enqueueMutation(context, { action: 'x', method: 'POST', path: 'notifications', body: {}, kind: 'notifications', nodeid: 'n-2', values: {}, creates: true });
    expect(next?.mutationId).toBe(1);
  });

  it('a first write that fails leaves no client id behind: it is made in the write\'s own transaction', async () => {
    const db = freshDb();
    const failing = enqueueMutation(
      { db, usernodeid: USER },
      { action: 'x', method: 'POST', path: 'notifications', body: {}, kind: 'notifications', nodeid: 'n-1', values: {}, creates: true },
      {
        inTransaction: () => {
          // why: any abort of the write's transaction; a thrown check is the simplest one to make.
          throw new Error('aborted');
        },
      },
    );
    await expect(failing).rejects.toThrow('aborted');
    expect(await db.syncState.toArray()).toEqual([]);
  });

  it('steps of one call on the same record each see the record as the steps before them left it', async () => {
    const db = freshDb();
    const seen: unknown[] = [];
    const step = (nodeid: string, values: (existing: Record<string, unknown> | undefined) => Record<string, unknown>, creates = false) => ({
      action: 'x',
      method: 'POST' as const,
      path: 'notifications',
      body: {},
      kind: 'notifications' as const,
      nodeid,
      creates,
      values: (existing: Record<string, unknown> | undefined) => {
        seen.push(existing?.title);
        return values(existing);
      },
    });
    const entries = await enqueueMutation({ db, usernodeid: USER }, [
      step('n-1', () => ({ title: 'erst', status: 0 }), true),
      step('n-1', (existing) => ({ title: `${String(existing?.title)} dann` })),
      step('n-2', () => ({ title: 'anders' }), true),
    ]);
    expect(seen).toEqual([undefined, 'erst', undefined]);
    expect(await db.mirror('notifications').get('n-1')).toEqual({ nodeid: 'n-1', title: 'erst dann', status: 0 });
    expect(entries.map((entry) => [entry.mutationId, entry.previous, entry.seq !== undefined])).toEqual([
      [1, { title: undefined, status: undefined }, true],
      [2, { title: 'erst' }, true],
      [3, { title: undefined }, true],
    ]);
    expect((await pendingEntries(db, entries[0]!.clientId)).map((entry) => entry.mutationId)).toEqual([1, 2, 3]);
  });

  it('an update of a record the mirror does not have is refused before anything is written', async () => {
    const db = freshDb();
    await expect(enqueueMutation({ db, usernodeid: USER }, { action: 'x', method: 'PUT', path: 'notifications/n', body: {}, kind: 'notifications', nodeid: 'missing', values: { status: 1 } })).rejects.toThrow();
    expect(await db.outbox.count()).toBe(0);
  });

  it('mutation ids strictly increase across sequential and concurrent calls, without gaps', async () => {
    const db = freshDb();
    const context = { db, usernodeid: USER };
    await createNotification(context, { type: 0, title: 'a', equipmentnodeid: MACHINE });
    await Promise.all(Array.from({ length: 20 }, (_, i) => createNotification(context, { type: 0, title: `c${i}`, equipmentnodeid: MACHINE })));
    await createNotification(context, { type: 0, title: 'z', equipmentnodeid: MACHINE });
    const ids = (await db.outbox.orderBy('seq').toArray()).map((entry) => entry.mutationId);
    expect(ids).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
  });

  it('keeps one client id per user on the device, each with its own counter', async () => {
    const db = freshDb();
    const a = await getClientId(db, USER);
    expect(await getClientId(db, USER)).toBe(a);
    const b = await getClientId(db, 'other-user');
    expect(b).not.toBe(a);
    await createNotification({ db, usernodeid: USER }, { type: 0, title: 'a', equipmentnodeid: MACHINE });
    await createNotification({ db, usernodeid: 'other-user' }, { type: 0, title: 'b', equipmentnodeid: MACHINE });
    expect((await db.outbox.toArray()).map((e) => [e.clientId === a ? 'a' : 'b', e.mutationId])).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
  });
});

describe('a file that does not fit', () => {
  afterEach(() => vi.unstubAllGlobals());
  const storage = (usage: number, quota: number) => ({ estimate: () => Promise.resolve({ usage, quota }) });

  it('is refused with the quota error when the estimate leaves too little room, and allowed otherwise', async () => {
    const refused = await ensureRoomFor(5_000_000, storage(8_000_000, 12_000_000)).catch((error: unknown) => error);
    expect(isQuotaExceeded(refused)).toBe(true);
    await expect(ensureRoomFor(1_000_000, storage(8_000_000, 12_000_000))).resolves.toBeUndefined();
    await expect(ensureRoomFor(5_000_000, undefined)).resolves.toBeUndefined(); // no Storage API: the write just tries
    await expect(ensureRoomFor(5_000_000, { estimate: () => Promise.resolve({}) })).resolves.toBeUndefined();
  });

  it('a report with a photo on a full device writes nothing: no row, no entry, no bytes, no used id', async () => {
    // why: Node has no StorageManager; the estimate is the browser's answer this test needs (the e2e tier asks Chromium's)
    vi.stubGlobal('navigator', { storage: storage(11_000_000, 12_000_000) });
    const db = freshDb();
    const photo = { bytes: new ArrayBuffer(2_000_000), mimetype: 'image/jpeg', name: 'foto.jpg' };
    const failure = await createNotification({ db, usernodeid: USER }, { type: 0, title: 'Leck', equipmentnodeid: MACHINE, photo }).catch((error: unknown) => error);
    expect(isQuotaExceeded(failure)).toBe(true);
    expect(await db.mirror('notifications').count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.fileBytes.count()).toBe(0);
    vi.stubGlobal('navigator', { storage: storage(1_000_000, 12_000_000) });
    await createNotification({ db, usernodeid: USER }, { type: 0, title: 'Leck', equipmentnodeid: MACHINE, photo });
    expect((await db.outbox.toArray()).map((entry) => entry.mutationId)).toEqual([1, 2, 3]);
  });
});

describe('schema upgrade', () => {
  it('opening the next version keeps every outbox entry and dead letter (v1 → latest)', async () => {
    const name = `upgrade-test-${Math.random()}`;
    const v1 = new LocalDatabase(name, { upToVersion: 1 });
    await v1.open();
    expect(v1.verno).toBe(1);
    await v1.syncState.put({ key: 'clientId', value: 'device-client-1' });
    const legacy = (n: number) =>
      ({ mutationId: n, usernodeid: USER, action: 'createNotification', method: 'POST', path: 'notifications', body: { title: `t${n}` }, kind: 'notifications', nodeid: `n${n}`, fields: ['title'], values: { title: `t${n}` }, creates: true, createdAt: n, attempts: n - 1, lastError: null }) as unknown as OutboxEntry;
    await v1.outbox.bulkAdd([legacy(1), legacy(2), legacy(3)]);
    await v1.table('deadLetters').add({ ...legacy(4), status: 422, error: { message: 'nein' }, failedAt: 4 });
    await v1.mirror('notifications').put({ nodeid: 'n1', title: 't1' });
    v1.close();

    const latest = new LocalDatabase(name);
    await latest.open();
    expect(latest.verno).toBe(LATEST_SCHEMA_VERSION);
    expect(LATEST_SCHEMA_VERSION).toBeGreaterThan(1);
    const entries = await latest.outbox.orderBy('seq').toArray();
    expect(entries.map((e) => [e.mutationId, (e.body as { title: string }).title, e.attempts])).toEqual([
      [1, 't1', 0],
      [2, 't2', 1],
      [3, 't3', 2],
    ]);
    expect(entries.every((e) => e.clientId === 'device-client-1' && Array.isArray(e.dependsOn))).toBe(true);
    // The new compound index works on migrated rows.
    expect(await latest.outbox.where('[clientId+mutationId]').between(['device-client-1', 0], ['device-client-1', Infinity]).count()).toBe(3);
    expect(await latest.deadLetters.toArray()).toMatchObject([{ mutationId: 4, status: 422, clientId: 'device-client-1' }]);
    expect(await latest.mirror('notifications').get('n1')).toMatchObject({ title: 't1' });
    // The migrated entries are the user's queue: sent under the legacy id, and the next write continues after it.
    expect(await getClientId(latest, USER)).toBe('device-client-1');
    const [next] = await enqueueMutation({ db: latest, usernodeid: USER }, { action: 'x', method: 'POST', path: 'notifications', body: {}, kind: 'notifications', nodeid: 'n5', values: {}, creates: true });
    expect(next).toMatchObject({ clientId: 'device-client-1', mutationId: 5 });
    latest.close();
  });

  it('a v1 queue shared by two users: the oldest writer keeps the legacy id, the other gets its own, numbered from 1', async () => {
    const name = `upgrade-test-${Math.random()}`;
    const OTHER = '0190f5a0-0000-7000-8000-0000000000cc';
    const v1 = new LocalDatabase(name, { upToVersion: 1 });
    await v1.open();
    await v1.syncState.bulkPut([
      { key: 'clientId', value: 'device-client-1' },
      { key: 'mutationCounter', value: 7 },
    ]);
    const legacy = (n: number, usernodeid: string) =>
      ({ mutationId: n, usernodeid, action: 'x', method: 'POST', path: 'notifications', body: { n }, kind: 'notifications', nodeid: `n${n}`, creates: true, createdAt: n, attempts: 0, lastError: null }) as unknown as OutboxEntry;
    await v1.outbox.bulkAdd([legacy(5, USER), legacy(6, OTHER), legacy(7, OTHER)]);
    v1.close();

    const latest = new LocalDatabase(name);
    await latest.open();
    const own = await pendingEntries(latest, await getClientId(latest, USER));
    expect(own.map((entry) => (entry.body as { n: number }).n)).toEqual([5]);
    const otherId = await getClientId(latest, OTHER);
    expect(otherId).not.toBe('device-client-1');
    expect((await pendingEntries(latest, otherId)).map((entry) => [entry.mutationId, (entry.body as { n: number }).n])).toEqual([
      [1, 6],
      [2, 7],
    ]);
    const [next] = await enqueueMutation({ db: latest, usernodeid: USER }, { action: 'x', method: 'POST', path: 'notifications', body: {}, kind: 'notifications', nodeid: 'n8', values: {}, creates: true });
    expect(next?.mutationId).toBe(8);
    latest.close();
  });
});

describe('schema upgrade v2 → v3 (subscriptions mirrored)', () => {
  it('v1 declares exactly the tables it shipped with: no subscriptions table before v3', async () => {
    const v1 = new LocalDatabase(`v1-tables-${Math.random()}`, { upToVersion: 1 });
    await v1.open();
    expect(v1.tables.map((table) => table.name)).not.toContain('subscriptions');
    v1.close();
  });

  it('adds the table, keeps outbox, dead letters and mirror, and makes the next pull start again from 0', async () => {
    const name = `upgrade-v3-${Math.random()}`;
    const v2 = new LocalDatabase(name, { upToVersion: 2 });
    await v2.open();
    expect(v2.verno).toBe(2);
    await v2.syncState.bulkPut([
      { key: 'cursor', value: 420 },
      { key: 'initialSyncDone', value: true },
    ]);
    const [entry] = await enqueueMutation({ db: v2, usernodeid: USER }, { action: 'createNotification', method: 'POST', path: 'notifications', body: { title: 'Leck' }, kind: 'notifications', nodeid: 'n1', values: { title: 'Leck' }, creates: true });
    await v2.mirror('sites').put({ nodeid: 's1', name: 'Werk' });
    v2.close();

    const v3 = new LocalDatabase(name, { upToVersion: 3 });
    await v3.open();
    expect(v3.verno).toBe(3);
    expect(await v3.outbox.toArray()).toMatchObject([{ mutationId: entry!.mutationId, clientId: entry!.clientId, body: { title: 'Leck' } }]);
    expect(await v3.mirror('sites').get('s1')).toMatchObject({ name: 'Werk' });
    expect(await v3.syncState.get('pullFrom')).toEqual({ key: 'pullFrom', value: 0 });
    expect(await v3.syncState.get('cursor')).toEqual({ key: 'cursor', value: 420 });
    await v3.mirror('subscriptions').put({ nodeid: 'sub1', usernodeid: USER, sitenodeid: 's1' });
    expect(await v3.mirror('subscriptions').where('usernodeid').equals(USER).count()).toBe(1);
    v3.close();
  });

  it('a device that never synced gets no pull request from the upgrade', async () => {
    const name = `upgrade-v3-empty-${Math.random()}`;
    const v2 = new LocalDatabase(name, { upToVersion: 2 });
    await v2.open();
    v2.close();
    const v3 = new LocalDatabase(name, { upToVersion: 3 });
    await v3.open();
    expect(await v3.syncState.get('pullFrom')).toBeUndefined();
    v3.close();
  });
});

describe('schema upgrade v3 → v4 (files kept for offline reading)', () => {
  it('adds the file cache tables and keeps outbox, stored bytes, sync state and mirror', async () => {
    const name = `upgrade-v4-${Math.random()}`;
    const v3 = new LocalDatabase(name, { upToVersion: 3 });
    await v3.open();
    expect(v3.tables.map((table) => table.name)).not.toContain('cachedFiles');
    const [entry] = await enqueueMutation(
      { db: v3, usernodeid: USER },
      { action: 'createNotification', method: 'POST', path: 'notifications', body: { title: 'Leck' }, kind: 'notifications', nodeid: 'n1', values: { title: 'Leck' }, creates: true },
      { files: [{ fileid: 'photo-1', bytes: new Uint8Array([1, 2, 3]).buffer, mimetype: 'image/png', name: 'leck.png', size: 3, createdAt: 1 }] },
    );
    await v3.syncState.put({ key: 'cursor', value: 77 });
    await v3.mirror('equipment').put({ nodeid: MACHINE, name: 'Presse' });
    v3.close();

    const v4 = new LocalDatabase(name, { upToVersion: 4 });
    await v4.open();
    expect(v4.verno).toBe(4);
    expect(await v4.outbox.toArray()).toMatchObject([{ mutationId: entry!.mutationId, body: { title: 'Leck' } }]);
    expect(await v4.fileBytes.get('photo-1')).toMatchObject({ size: 3, mimetype: 'image/png' });
    expect(await v4.syncState.get('cursor')).toEqual({ key: 'cursor', value: 77 });
    expect(await v4.mirror('equipment').get(MACHINE)).toMatchObject({ name: 'Presse' });
    await v4.cachedFiles.put({ nodeid: 'f1', mimetype: 'application/pdf', size: 3, lastUsed: 1, cachedAt: 1, pinnedBy: [MACHINE] });
    expect(await v4.cachedFiles.where('pinnedBy').equals(MACHINE).count()).toBe(1);
    expect(await v4.cachedFiles.orderBy('lastUsed').keys()).toEqual([1]);
    await v4.offlineMachines.put({ nodeid: MACHINE, refreshedAt: 1, files: 1, bytes: 3 });
    expect(LATEST_SCHEMA_VERSION).toBeGreaterThanOrEqual(4); // v5 added the dashboard indexes (notifications-dashboard.test.ts)
    v4.close();
  });
});

/** The index names IndexedDB itself holds for a table (not what Dexie declares). */
function storedIndexes(db: LocalDatabase, table: string): string[] {
  return [...db.backendDB().transaction(table, 'readonly').objectStore(table).indexNames].sort();
}

describe('schema upgrade v5 → v6 (indexes no screen queries are dropped)', () => {
  it('released versions keep the indexes they shipped with', async () => {
    const v5 = new LocalDatabase(`v5-indexes-${Math.random()}`, { upToVersion: 5 });
    await v5.open();
    expect(storedIndexes(v5, 'notifications')).toEqual(
      ['[equipmentnodeid+status+created]', '[equipmentnodeid+status]', '[status+created]', '[status+type+created]', 'equipmentnodeid', 'maintenancetasknodeid', 'status'].sort(),
    );
    expect(storedIndexes(v5, 'counterreadings')).toEqual(['[counternodeid+takenat]', 'counternodeid']);
    expect(storedIndexes(v5, 'attachments')).toEqual(['filenodeid', 'isattachmentof']);
    expect(storedIndexes(v5, 'files')).toEqual(['fileid']);
    v5.close();
  });

  it('drops the indexes, keeps rows, outbox and sync state, and the screens\' queries still answer', async () => {
    const name = `upgrade-v6-${Math.random()}`;
    const v5 = new LocalDatabase(name, { upToVersion: 5 });
    await v5.open();
    const [entry] = await enqueueMutation({ db: v5, usernodeid: USER }, { action: 'createNotification', method: 'POST', path: 'notifications', body: { title: 'Leck' }, kind: 'notifications', nodeid: 'n1', values: { title: 'Leck' }, creates: true });
    await v5.syncState.put({ key: 'cursor', value: 512 });
    await v5.mirror('notifications').bulkPut([
      { nodeid: 'n1', title: 'Leck', status: 0, type: 1, created: 30, equipmentnodeid: MACHINE },
      { nodeid: 'n2', title: 'Lager', status: 1, type: 0, created: 20, equipmentnodeid: MACHINE },
      { nodeid: 'n3', title: 'Alt', status: 2, type: 0, created: 10, equipmentnodeid: MACHINE },
      { nodeid: 'n4', title: 'Andere Maschine', status: 0, type: 0, created: 40, equipmentnodeid: 'other' },
    ]);
    await v5.mirror('counterreadings').bulkPut([
      { nodeid: 'r1', counternodeid: 'c1', value: 5, takenat: 2 },
      { nodeid: 'r2', counternodeid: 'c1', value: 3, takenat: 1 },
    ]);
    await v5.mirror('attachments').put({ nodeid: 'a1', isattachmentof: 'n1', filenodeid: 'f1' });
    await v5.mirror('files').put({ nodeid: 'f1', fileid: 'f1' });
    v5.close();

    const latest = new LocalDatabase(name);
    await latest.open();
    expect(latest.verno).toBe(LATEST_SCHEMA_VERSION);
    expect(storedIndexes(latest, 'notifications')).toEqual(['[equipmentnodeid+status+created]', '[status+created]', '[status+type+created]']);
    expect(storedIndexes(latest, 'counterreadings')).toEqual(['[counternodeid+takenat]']);
    expect(storedIndexes(latest, 'attachments')).toEqual(['isattachmentof']);
    expect(storedIndexes(latest, 'files')).toEqual([]);
    expect(await latest.outbox.toArray()).toEqual([entry]);
    expect(await latest.syncState.get('cursor')).toEqual({ key: 'cursor', value: 512 });
    // A machine's notifications (history, offline files), its open ones and its closed ones (suggestions).
    expect((await latest.notificationsOfMachine(MACHINE).primaryKeys()).sort()).toEqual(['n1', 'n2', 'n3']);
    expect(await latest.notificationsOfMachine('nothing').count()).toBe(0);
    expect((await latest.mirror('notifications').where('[equipmentnodeid+status]').anyOf([[MACHINE, 0], [MACHINE, 1]]).primaryKeys()).sort()).toEqual(['n1', 'n2']);
    expect(await latest.mirror('notifications').where('[equipmentnodeid+status]').anyOf([[MACHINE, 2], ['other', 2]]).primaryKeys()).toEqual(['n3']);
    expect(await latest.mirror('counterreadings').where('[counternodeid+takenat]').between(['c1', -Infinity], ['c1', Infinity]).primaryKeys()).toEqual(['r2', 'r1']);
    expect(await latest.mirror('attachments').where('isattachmentof').equals('n1').count()).toBe(1);
    expect(await latest.mirror('files').get('f1')).toMatchObject({ fileid: 'f1' });
    latest.close();
  });
});

describe('schema upgrade v6 → v7 (the outbox by the files its entries need)', () => {
  it('builds the index over the entries already queued; the bytes a queued entry needs are found by it, no others', async () => {
    const name = `upgrade-v7-${Math.random()}`;
    const v6 = new LocalDatabase(name, { upToVersion: 6 });
    await v6.open();
    expect(storedIndexes(v6, 'outbox')).toEqual(['[clientId+mutationId]', '[kind+nodeid]', 'mutationId']);
    const context = { db: v6, usernodeid: USER };
    const [registration] = await enqueueMutation(context, { action: 'uploadFile', method: 'POST', path: 'files', body: {}, kind: 'files', nodeid: 'f1', values: {}, creates: true, upload: { fileid: 'f1' }, dependsOn: ['f1'] });
    const [attachment] = await enqueueMutation(context, { action: 'createAttachment', method: 'POST', path: 'attachments', body: {}, kind: 'attachments', nodeid: 'a1', values: {}, creates: true, dependsOn: ['f1', 'f2'] });
    v6.close();

    const latest = new LocalDatabase(name);
    await latest.open();
    expect(latest.verno).toBe(LATEST_SCHEMA_VERSION);
    expect(storedIndexes(latest, 'outbox')).toEqual(['[clientId+mutationId]', '[kind+nodeid]', 'dependsOn', 'mutationId']);
    expect(await latest.outbox.toArray()).toEqual([registration, attachment]);
    expect(await filesStillNeeded(latest, ['f1', 'f2', 'f3'])).toEqual(new Set(['f1', 'f2']));
    await latest.outbox.delete(attachment!.seq!);
    expect(await filesStillNeeded(latest, ['f1', 'f2', 'f3'])).toEqual(new Set(['f1']));
    expect(await filesStillNeeded(latest, [])).toEqual(new Set());
    latest.close();
  });
});
