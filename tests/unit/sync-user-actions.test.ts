import Dexie, { type ObservabilitySet } from 'dexie';
import { describe, expect, it } from 'vitest';
import { LocalDatabase } from '../../src/client/db/local-db';
import { SYNC_COUNTS_MAX_DELAY_MS, SYNC_COUNTS_PACE, SYNC_COUNTS_SETTLE_MS, watchSyncCounts } from '../../src/client/sync/live-status';
import { countUserActions } from '../../src/client/sync/outbox';
import { createBrand } from '../../src/client/sync/repositories/brands';
import { createNotification } from '../../src/client/sync/repositories/notifications';
import { groupByUserAction } from '../../src/client/sync/use-sync-lists';
import { syncStore } from '../../src/client/stores/sync-store';

const USER = '0190f5a0-0000-7000-8000-0000000000aa';
const OTHER = '0190f5a0-0000-7000-8000-0000000000bb';
const MACHINE = '0190f5a0-0000-7000-8000-000000000031';
const photo = { bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0]).buffer, mimetype: 'image/jpeg', name: 'leck.jpg' };

const newDb = () => new LocalDatabase(`user-actions-test-${Math.random()}`);

/** The app bar says what the user did, not how many requests it takes (issue #14: "3 offen" for one report). */
describe('unsent changes are counted as user actions', () => {
  it('one fault report with a photo is three requests but one action, described by the report', async () => {
    const db = newDb();
    const context = { db, usernodeid: USER };
    await createNotification(context, { type: 0, title: 'Hydrauliköl tritt aus', equipmentnodeid: MACHINE, photo });
    await createNotification(context, { type: 0, title: 'Schutztür klemmt', equipmentnodeid: MACHINE });
    const entries = await db.outbox.orderBy('mutationId').toArray();
    expect(entries.map((entry) => entry.action)).toEqual(['createNotification', 'uploadFile', 'attachFile', 'createNotification']);
    expect(countUserActions(entries)).toBe(2);
    const actions = groupByUserAction(entries);
    expect(actions.map((action) => action.map((entry) => entry.action))).toEqual([['createNotification', 'uploadFile', 'attachFile'], ['createNotification']]);
    expect(actions.map((action) => action.find((entry) => entry.mutationId === entry.userAction)?.action)).toEqual(['createNotification', 'createNotification']);
  });

  it('an action whose describing step is not its first names that step (a brand with its new manufacturer)', async () => {
    const db = newDb();
    await createBrand({ db, usernodeid: USER }, { name: 'SIGMA CONTROL', manufacturer: { isnew: true, name: 'Kaeser Kompressoren' } });
    const entries = await db.outbox.orderBy('mutationId').toArray();
    expect(entries.map((entry) => entry.action)).toEqual(['createManufacturer', 'createBrand']);
    expect(countUserActions(entries)).toBe(1);
    expect(entries.every((entry) => entry.userAction === entries[1]!.mutationId)).toBe(true);
  });

  it('entries queued before user actions existed count one each', () => {
    const legacy = [1, 2, 3].map((mutationId) => ({ clientId: 'c1', mutationId }));
    expect(countUserActions(legacy)).toBe(3);
    // The same mutation id under another client id (another user of the device) is another action.
    expect(countUserActions([{ clientId: 'c1', mutationId: 1, userAction: 1 }, { clientId: 'c2', mutationId: 1, userAction: 1 }])).toBe(2);
  });

  it('the app bar’s counts are user actions, the logged-in user’s apart from other users of the device', async () => {
    const db = newDb();
    await createNotification({ db, usernodeid: USER }, { type: 0, title: 'Mit Foto', equipmentnodeid: MACHINE, photo });
    await createNotification({ db, usernodeid: OTHER }, { type: 0, title: 'Vom Kollegen', equipmentnodeid: MACHINE, photo });
    await createNotification({ db, usernodeid: OTHER }, { type: 0, title: 'Noch eine', equipmentnodeid: MACHINE });
    const stop = watchSyncCounts(db, () => USER);
    try {
      await expect.poll(() => syncStore.getState().otherUsersPendingCount).toBe(2);
      expect(syncStore.getState().pendingCount).toBe(1);
    } finally {
      stop();
    }
  });

  it('the next read waits ten times as long as the last one took, at least the settle time', async () => {
    const db = newDb();
    const delays: number[] = [];
    const scheduled: (() => void)[] = [];
    // why a clock of its own: a read of a small outbox takes a few ms here; this clock makes every read take
    // 60 ms (each read asks it twice: when it starts and when it has its answer).
    let clock = 0;
    const now = () => (clock += 30);
    const stop = watchSyncCounts(
      db,
      () => USER,
      (read, delayMs) => {
        delays.push(delayMs);
        scheduled.push(read);
        return () => undefined;
      },
      now,
    );
    try {
      await expect.poll(() => clock).toBe(60);
      // A read asked for before the first one had taken any time (the database's opening) runs first.
      for (const pending of scheduled.splice(0)) pending();
      await expect.poll(() => clock % 60).toBe(0);
      delays.length = 0;
      await createNotification({ db, usernodeid: USER }, { type: 0, title: 'Eine', equipmentnodeid: MACHINE });
      await expect.poll(() => delays).toEqual([SYNC_COUNTS_PACE * 30]);
      scheduled[0]!();
      await expect.poll(() => syncStore.getState().pendingCount).toBe(1);
      // Never sooner than the settle time, however quick the read.
      expect(SYNC_COUNTS_PACE * 30).toBeGreaterThanOrEqual(SYNC_COUNTS_SETTLE_MS);
    } finally {
      stop();
    }
  });

  it('however slow the last read (it waited for a sync page’s write), the next one comes within SYNC_COUNTS_MAX_DELAY_MS', async () => {
    const db = newDb();
    const delays: number[] = [];
    const scheduled: (() => void)[] = [];
    // why a clock of its own: every read takes 2 s here, as one waiting behind an initial sync page's transaction.
    let clock = 0;
    const now = () => (clock += 1000);
    const stop = watchSyncCounts(db, () => USER, (read, delayMs) => {
      delays.push(delayMs);
      scheduled.push(read);
      return () => undefined;
    }, now);
    try {
      await expect.poll(() => clock).toBe(2000);
      for (const pending of scheduled.splice(0)) pending();
      await expect.poll(() => clock % 2000).toBe(0);
      delays.length = 0;
      await createNotification({ db, usernodeid: USER }, { type: 0, title: 'Eine', equipmentnodeid: MACHINE });
      await expect.poll(() => delays).toEqual([SYNC_COUNTS_MAX_DELAY_MS]);
      expect(SYNC_COUNTS_PACE * 2000).toBeGreaterThan(SYNC_COUNTS_MAX_DELAY_MS);
    } finally {
      stop();
    }
  });

  it('the first read (which opens the database after a reload) paces nothing: the first save is counted after the settle time', async () => {
    const db = newDb();
    await db.open();
    const delays: number[] = [];
    const scheduled: (() => void)[] = [];
    // why a clock of its own: the start's read takes 2 s here, as opening a big database on a slow tablet.
    let clock = 0;
    const now = () => (clock += 1000);
    const stop = watchSyncCounts(db, () => USER, (read, delayMs) => {
      delays.push(delayMs);
      scheduled.push(read);
      return () => undefined;
    }, now);
    try {
      await expect.poll(() => clock).toBe(2000);
      expect(scheduled).toHaveLength(0);
      await createNotification({ db, usernodeid: USER }, { type: 0, title: 'Erste nach dem Neuladen', equipmentnodeid: MACHINE });
      await expect.poll(() => delays).toEqual([SYNC_COUNTS_SETTLE_MS]);
      scheduled[0]!();
      await expect.poll(() => syncStore.getState().pendingCount).toBe(1);
    } finally {
      stop();
    }
  });

  it('a burst of writes is counted with one read after it, not one read per write; changes elsewhere read nothing', async () => {
    const db = newDb();
    // why: the settling delay is the scheduler's; the test runs the scheduled read itself, when it chooses.
    const scheduled: (() => void)[] = [];
    const stop = watchSyncCounts(db, () => USER, (read) => {
      scheduled.push(read);
      return () => undefined;
    });
    try {
      await expect.poll(() => syncStore.getState().pendingCount).toBe(0);
      for (let i = 0; i < 5; i++) await createNotification({ db, usernodeid: USER }, { type: 0, title: `Meldung ${i}`, equipmentnodeid: MACHINE });
      await expect.poll(() => scheduled.length).toBe(1);
      scheduled[0]!();
      await expect.poll(() => syncStore.getState().pendingCount).toBe(5);
      expect(scheduled).toHaveLength(1);
      // A change of the mirror alone: Dexie reports it (seen here), and no read is scheduled for it.
      const reported = new Promise<void>((resolve) => {
        const seen = (parts: ObservabilitySet) => {
          if (!Object.keys(parts).some((part) => part.includes('/equipment/'))) return;
          Dexie.on.storagemutated.unsubscribe(seen);
          resolve();
        };
        Dexie.on.storagemutated.subscribe(seen);
      });
      await db.mirror('equipment').put({ nodeid: 'elsewhere', name: 'Nur der Spiegel' });
      await reported;
      expect(scheduled).toHaveLength(1);
    } finally {
      stop();
    }
  });
});
