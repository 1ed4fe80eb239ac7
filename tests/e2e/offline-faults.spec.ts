/**
 * The fault scenarios of sync-protocol.md that need a real browser (2, 8, 13, 14): killed tabs, two tabs, a local
 * database upgrade with an old tab open, a full disk. Each checks the device's IndexedDB raw (support/offline.ts)
 * and the server through its API as a separate client, never through the code under test alone.
 */
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { LATEST_SCHEMA_VERSION, LOCAL_DATABASE_NAME, SCHEMA_VERSIONS } from '../../src/client/db/local-db';
import { apiLogin, clientIdOf, demoMachine, expectSynced, readLocalDb, serverLastMutationId, serverNotification, waitForEmptyOutbox } from './support/offline';
import { loginAs } from './support/pages';

const dexieScript = createRequire(import.meta.url).resolve('dexie/dist/dexie.js');

test('scenario 13: a local database upgrade with a non-empty outbox and an old tab open keeps every entry and replays it once', async ({ context, request }, testInfo) => {
  test.setTimeout(180_000);
  const technician = await apiLogin(request, 'technician');
  const admin = await apiLogin(request, 'admin');
  const machine = await demoMachine(request, technician);
  const legacyClientId = randomUUID();
  const created = Date.now() - 60_000;
  const ids: string[] = [randomUUID(), randomUUID()];
  const titles = ['Altes Schema: Spindel läuft heiß', 'Altes Schema: Kühlmittel tropft'];

  // The old tab: the app's version-1 schema opened by Dexie itself (as the old app code did), with three writes
  // the old app had queued: two reports and a status change of the first, in the outbox shape of version 1.
  await test.step('an old tab holds the database at schema version 1 with queued writes', async () => {
    const old = await context.newPage();
    // A same-origin page that is not the app (the app would open the current schema itself).
    await old.goto('/api/health');
    await old.addScriptTag({ path: dexieScript });
    const createBody = (i: number) => ({ lang: 'de', nodeid: ids[i], type: 0, title: titles[i], description: null, equipmentnodeid: machine.nodeid, created });
    const entry = (mutationId: number, fields: Record<string, unknown>) => ({ mutationId, usernodeid: technician.usernodeid, kind: 'notifications', createdAt: created, attempts: 0, lastError: null, ...fields });
    const outbox = [
      entry(1, { action: 'createNotification', method: 'POST', path: 'notifications', body: createBody(0), nodeid: ids[0], fields: ['title', 'status'], values: { title: titles[0], status: 0 }, creates: true }),
      entry(2, { action: 'createNotification', method: 'POST', path: 'notifications', body: createBody(1), nodeid: ids[1], fields: ['title', 'status'], values: { title: titles[1], status: 0 }, creates: true }),
      entry(3, {
        action: 'updateNotificationStatus',
        method: 'PUT',
        path: `notifications/${ids[0]}`,
        body: { lang: 'de', nodeid: ids[0], status: 1, previousStatus: 0, onlyStatusUpdate: true, progressstarted: created + 1000, closed: 0, title: titles[0], type: 0, description: null, equipmentnodeid: machine.nodeid },
        nodeid: ids[0],
        fields: ['status'],
        values: { status: 1 },
        creates: false,
      }),
    ];
    await old.evaluate(
      async ({ name, stores, outbox, mirror, legacyClientId }) => {
        type DexieDb = { version(n: number): { stores(s: unknown): void }; open(): Promise<unknown>; table(n: string): { bulkPut(rows: unknown[]): Promise<unknown>; bulkAdd(rows: unknown[]): Promise<unknown> }; on(event: string, fn: () => void): void };
        const Dexie = (window as unknown as { Dexie: new (name: string) => DexieDb }).Dexie;
        const db = new Dexie(name);
        db.version(1).stores(stores);
        await db.open();
        await db.table('syncState').bulkPut([
          { key: 'clientId', value: legacyClientId },
          { key: 'mutationCounter', value: outbox.length },
        ]);
        await db.table('notifications').bulkPut(mirror);
        await db.table('outbox').bulkAdd(outbox);
        // Dexie's own handler still closes the connection afterwards: this only records that it was asked to.
        db.on('versionchange', () => {
          (window as unknown as { versionChangeSeen: boolean }).versionChangeSeen = true;
        });
        (window as unknown as { oldDb: DexieDb }).oldDb = db;
      },
      {
        name: LOCAL_DATABASE_NAME,
        stores: SCHEMA_VERSIONS[0]!.stores,
        outbox,
        mirror: ids.map((nodeid, i) => ({ nodeid, title: titles[i], status: i === 0 ? 1 : 0, equipmentnodeid: machine.nodeid, type: 0, created })),
        legacyClientId,
      },
    );
    expect((await readLocalDb(old))?.version).toBe(10); // Dexie stores version × 10

  });

  const app = await context.newPage();
  await test.step('the app opens in a second tab: the upgrade runs while the old tab is open, and the queue replays', async () => {
    await loginAs(app, 'technician');
    const snapshot = await waitForEmptyOutbox(app);
    expect(snapshot.version).toBe(LATEST_SCHEMA_VERSION * 10);
    expect(snapshot.deadLetters).toEqual([]);
    // The migrated entries were sent under the old device id, not stranded under a new one.
    expect(clientIdOf(snapshot, technician.usernodeid)).toBe(legacyClientId);
    const oldTab = context.pages().find((page) => page.url().endsWith('/api/health'))!;
    expect(await oldTab.evaluate(() => (window as unknown as { versionChangeSeen?: boolean }).versionChangeSeen)).toBe(true);

    // Once each, in order: the status change applied after its create; the server's counter is exactly 3.
    expect(await serverLastMutationId(request, technician, legacyClientId)).toBe(3);
    expect(await serverNotification(request, admin, ids[0]!)).toMatchObject({ title: titles[0], status: 1 });
    expect(await serverNotification(request, admin, ids[1]!)).toMatchObject({ title: titles[1], status: 0 });
    // The mirror converged: the rows now carry the server's change versions.
    await expectSynced(app);
    await expect.poll(async () => (await readLocalDb(app))?.notifications.filter((row) => ids.includes(row.nodeid) && typeof row.version === 'number').length).toBe(2);
  });

  await test.step('the app is the old tab when another tab opens a newer schema: it asks for a reload in plain German', async () => {
    const newer = await context.newPage();
    await newer.goto('/api/health');
    const upgradedTo = await newer.evaluate(
      (name) =>
        new Promise<number>((resolve, reject) => {
          // A future version of the app: the next schema number (its stores are not this test's concern).
          const request = indexedDB.open(name, 1000);
          request.onsuccess = () => {
            const version = request.result.version;
            request.result.close();
            resolve(version);
          };
          request.onerror = () => reject(request.error);
          request.onblocked = () => reject(new Error('the app tab did not let go of the database'));
        }),
      LOCAL_DATABASE_NAME,
    );
    expect(upgradedTo).toBe(1000);
    const alert = app.getByRole('alert').filter({ hasText: 'Diese Seite ist veraltet' });
    await expect(alert).toBeVisible();
    await expect(alert).toContainText('Bitte laden Sie die Seite neu');
    await app.screenshot({ path: testInfo.outputPath('scenario-13-reload-prompt.png') });
    await testInfo.attach('reload prompt', { path: testInfo.outputPath('scenario-13-reload-prompt.png'), contentType: 'image/png' });
    await newer.close();

    await alert.getByRole('button', { name: 'Seite neu laden' }).click();
    await expect(app.getByRole('heading', { name: /^Hallo / })).toBeVisible();
    await expect(app.getByRole('alert').filter({ hasText: 'Diese Seite ist veraltet' })).toHaveCount(0);
    await expectSynced(app);
  });
});
