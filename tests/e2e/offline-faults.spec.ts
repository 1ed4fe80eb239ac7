/**
 * The fault scenarios of docs/sync.md that need a real browser (2, 8, 13, 14): killed tabs, two tabs, a local
 * database upgrade with an old tab open, a full disk. Each checks the device's IndexedDB raw (support/offline.ts)
 * and the server through its API as a separate client, never through the code under test alone.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import type { APIRequestContext, BrowserContext, CDPSession, Page, Route } from '@playwright/test';
import { expect, expectNoCspViolations, test, watchCsp } from './support/test';
import { LATEST_SCHEMA_VERSION, LOCAL_DATABASE_NAME, SCHEMA_VERSIONS } from '../../src/client/db/local-db';
import { ApiClient, MachinePage, SyncStatus } from './support/machine-pages';
import {
  apiLogin,
  clientIdOf,
  demoMachine,
  readLocalDb,
  serverLastMutationId,
  serverNotification,
  randomPhoto,
  takeOfflineReady,
  waitForEmptyOutbox,
  type LocalSnapshot,
} from './support/offline';
import { loginAs } from './support/pages';

const dexieScript = createRequire(import.meta.url).resolve('dexie/dist/dexie.js');
// The first pull of the demo plant can take a while on a busy machine.
const expectSynced = (page: Page) => new SyncStatus(page).waitUntilSynced(150_000);

async function openMachine(page: Page, machineNodeid: string): Promise<MachinePage> {
  await page.goto(`/machine-overview?nodeid=${machineNodeid}`);
  const machine = new MachinePage(page);
  // why the longer wait: a new tab boots the whole app (bundle, session, local database) on a shared 2-core machine.
  await expect(machine.newNotification()).toBeVisible({ timeout: 60_000 });
  return machine;
}

/** The notifications on the server, as another user's fresh device pulls them. */
async function notificationsOnServer(request: APIRequestContext): Promise<{ nodeid: string; title: string; status: number }[]> {
  const rows = (await (await ApiClient.login(request, 'admin')).pullAll()).get('notifications') ?? [];
  return rows as { nodeid: string; title: string; status: number }[];
}

test('scenario 13: a local database upgrade with a non-empty outbox and an old tab open keeps every entry and replays it once', async ({ context, request }, testInfo) => {
  test.setTimeout(180_000);
  const technician = await apiLogin(request, 'technician');
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
    // why evaluate, not addScriptTag: an inline script tag is what the app's CSP forbids; evaluate runs outside it.
    await old.evaluate(readFileSync(dexieScript, 'utf8'));
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
    expect(await serverLastMutationId(request, 'technician', legacyClientId)).toBe(3);
    expect(await serverNotification(request, 'admin', ids[0]!)).toMatchObject({ title: titles[0], status: 1 });
    expect(await serverNotification(request, 'admin', ids[1]!)).toMatchObject({ title: titles[1], status: 0 });
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

/**
 * Installed in every page of scenario 2. Armed with a point (window.crashAt), the page asks the test to crash it
 * there and then blocks its own thread, so an open transaction cannot commit before the crash lands.
 */
function crashHooks() {
  const w = window as unknown as { crashAt?: string; crashPage?: () => void };
  const crashHere = (point: string) => {
    if (w.crashAt !== point) return;
    w.crashAt = undefined;
    w.crashPage?.();
    const until = Date.now() + 15_000;
    while (Date.now() < until) {
      // busy: IndexedDB commits a transaction only after the task that used it returns
    }
  };
  // The report's own transaction: mirror table and outbox together.
  const isReportWrite = (names: string | Iterable<string>, mode?: IDBTransactionMode) => mode === 'readwrite' && [...(typeof names === 'string' ? [names] : names)].some((name) => name === 'outbox') && [...(typeof names === 'string' ? [names] : names)].some((name) => name === 'notifications');
  const transaction = IDBDatabase.prototype.transaction;
  IDBDatabase.prototype.transaction = function (this: IDBDatabase, names: string | string[], mode?: IDBTransactionMode, options?: IDBTransactionOptions) {
    if (!isReportWrite(names, mode)) return transaction.call(this, names, mode, options);
    crashHere('before-transaction');
    const tx = transaction.call(this, names, mode, options);
    tx.addEventListener('complete', () => crashHere('after-commit'));
    return tx;
  } as typeof transaction;
  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<typeof put>) {
    const request = put.apply(this, args);
    if (this.name === 'notifications') crashHere('mirror-written');
    return request;
  };
  const add = IDBObjectStore.prototype.add;
  IDBObjectStore.prototype.add = function (this: IDBObjectStore, ...args: Parameters<typeof add>) {
    const request = add.apply(this, args);
    if (this.name === 'outbox') crashHere('outbox-written');
    return request;
  };
}

/** The report rows and outbox entries with this title on the device. */
function traces(snapshot: LocalSnapshot | null, title: string) {
  return {
    mirror: snapshot?.notifications.filter((row) => row.title === title).length ?? 0,
    outbox: snapshot?.outbox.filter((entry) => entry.body.title === title).length ?? 0,
  };
}

/** Write requests of the outbox fail as if the network were gone; logins, token refreshes and reads pass. */
async function failOutboxWrites(context: BrowserContext): Promise<void> {
  await context.route(/\/api\//, async (route) => {
    const { pathname } = new URL(route.request().url());
    const write = route.request().method() !== 'GET' && !pathname.startsWith('/api/auth/') && pathname !== '/api/object/refresh-token';
    await (write ? route.abort('internetdisconnected') : route.continue());
  });
}

test.describe(() => {
  // why: page routes only see requests that no service worker handles; and a crashed renderer can take the
  // service worker down with it, which then stalls the next page's offline start (not what this test is about).
  test.use({ serviceWorkers: 'block' });

test('scenario 2: a page killed while saving leaves the mirror change and the outbox entry both or neither', async ({ context, request }) => {
  test.setTimeout(300_000);
  const technician = await apiLogin(request, 'technician');
  const machine = await demoMachine(request, technician);
  const sessions = new Map<Page, CDPSession>();
  await context.addInitScript(crashHooks);
  await context.exposeBinding('crashPage', async ({ page }) => {
    await sessions.get(page)?.send('Page.crash').catch(() => undefined); // the renderer dies before it answers
  });
  const openApp = async () => {
    const page = await context.newPage();
    sessions.set(page, await context.newCDPSession(page));
    return page;
  };

  let page = await openApp();
  await loginAs(page, 'technician');
  await expectSynced(page);
  // The outbox cannot send, so every report stays on the device and each attempt can be read back exactly.
  await failOutboxWrites(context);

  // Crashes inside the app's write (deterministic: the page blocks there until it is gone) and after it, then at
  // varied moments after the tap on "Meldung speichern", wherever they happen to fall.
  const hooked = [
    ['before-transaction', 'neither'],
    ['mirror-written', 'neither'],
    ['outbox-written', 'neither'],
    ['after-commit', 'both'],
  ] as const;
  const delaysMs = [0, 5, 15, 40, 100, 250];
  const attempts: { title: string; expected: 'both' | 'neither' | 'either'; saved?: boolean }[] = [
    ...hooked.map(([point, expected]) => ({ title: `Absturz beim Speichern (${point})`, expected })),
    ...delaysMs.map((delay) => ({ title: `Tab ${delay} ms nach dem Tippen geschlossen`, expected: 'either' as const })),
  ];
  for (const [index, attempt] of attempts.entries()) {
    const screen = await openMachine(page, machine.nodeid);
    await screen.openFaultDialog();
    await screen.fillFaultReport({ title: attempt.title, description: `Versuch ${index + 1}` });
    const save = screen.dialog().getByRole('button', { name: 'Meldung speichern' });
    const hook = hooked[index]?.[0];
    if (hook) {
      const crashed = new Promise<void>((resolve) => page.once('crash', () => resolve()));
      await page.evaluate((point) => ((window as unknown as { crashAt?: string }).crashAt = point), hook);
      // The write opens its transaction within the tap's own task, so the page can die before the click returns.
      await Promise.all([
        crashed,
        save.click().catch((error: unknown) => {
          if (!String(error).includes('Target crashed')) throw error;
        }),
      ]);
    } else {
      await save.click();
      // why a wait: it only decides where the tab is closed; the result must hold wherever that is.
      const delay = delaysMs[index - hooked.length]!;
      if (delay > 0) await page.waitForTimeout(delay);
    }
    await page.close({ runBeforeUnload: false }).catch(() => undefined);

    page = await openApp();
    await openMachine(page, machine.nodeid);
    const found = traces(await readLocalDb(page), attempt.title);
    expect([{ mirror: 0, outbox: 0 }, { mirror: 1, outbox: 1 }], `${attempt.title}: ${JSON.stringify(found)}`).toContainEqual(found);
    attempt.saved = found.outbox === 1;
    if (attempt.expected !== 'either') expect(attempt.saved, attempt.title).toBe(attempt.expected === 'both');
  }

  // The ids the saved reports took are 1..n: a killed write used none.
  const before = (await readLocalDb(page))!;
  const saved = attempts.filter((attempt) => attempt.saved);
  expect(before.outbox.map((entry) => entry.mutationId).sort((a, b) => a - b)).toEqual(saved.map((_, i) => i + 1));

  // The network is back; the app starts again in a new tab and sends the queue.
  await context.unrouteAll();
  await page.close();
  page = await openApp();
  await openMachine(page, machine.nodeid);
  const after = await waitForEmptyOutbox(page);
  expect(after.deadLetters).toEqual([]);
  const clientId = clientIdOf(after, technician.usernodeid);
  expect(await serverLastMutationId(request, 'technician', clientId)).toBe(saved.length);
  const onServer = await notificationsOnServer(request);
  for (const attempt of attempts) {
    expect(onServer.filter((row) => row.title === attempt.title).length, attempt.title).toBe(attempt.saved ? 1 : 0);
  }
});
});

/** The Web Lock the sync engine sends under is held right now (by any tab of the origin). */
async function syncLockHeld(page: Page): Promise<boolean> {
  return page.evaluate(async () => ((await navigator.locks.query()).held ?? []).some((lock) => lock.name === 'anlagenbuch-sync'));
}

test('scenario 8: two tabs writing at once, the leader frozen or closed mid-queue: no duplicates, no gaps', async ({ context, request }) => {
  test.setTimeout(300_000);
  const technician = await apiLogin(request, 'technician');
  const machine = await demoMachine(request, technician);
  const titles: string[] = [];
  const report = async (page: Page, title: string) => {
    titles.push(title);
    await new MachinePage(page).reportFault({ title });
  };

  const first = await context.newPage();
  await loginAs(first, 'technician');
  await expectSynced(first);
  const second = await context.newPage();
  for (const page of [first, second]) await openMachine(page, machine.nodeid);

  // The first batch of reports sent by either tab is held on its way: that tab is the leader, holding the sync
  // lock with its request open. Everything else passes.
  let hold: ((held: { page: Page; route: Route }) => void) | null = null;
  await context.route('**/api/sync/batch', async (route) => {
    if (route.request().method() === 'POST' && hold) {
      const take = hold;
      hold = null;
      take({ page: route.request().frame().page(), route });
      return;
    }
    await route.continue();
  });
  const leaderHeld = () => new Promise<{ page: Page; route: Route }>((resolve) => (hold = resolve));

  await test.step('both tabs write at once; the leader is frozen while it sends; the other tab takes over', async () => {
    const held = leaderHeld();
    await Promise.all([report(first, 'Zwei Tabs: A1'), report(second, 'Zwei Tabs: B1')]);
    const leader = await held;
    const follower = leader.page === first ? second : first;
    expect(await syncLockHeld(follower)).toBe(true);
    const cdp = await context.newCDPSession(leader.page);
    await cdp.send('Page.setWebLifecycleState', { state: 'frozen' });
    // The follower keeps writing; after a few rounds in which the queue did not move it sends anyway.
    for (const n of [2, 3, 4, 5]) await report(follower, `Zwei Tabs: ${follower === first ? 'A' : 'B'}${n}`);
    await waitForEmptyOutbox(follower, 60_000);
    // The leader's old request now reaches the server (a duplicate), then the leader wakes up.
    await leader.route.continue();
    await cdp.send('Page.setWebLifecycleState', { state: 'active' });
    await expect.poll(() => syncLockHeld(follower)).toBe(false);
    await cdp.detach();
  });

  await test.step('both tabs write at once again; the leader is closed while its request is on the way', async () => {
    const held = leaderHeld();
    await Promise.all([report(first, 'Zwei Tabs: A6'), report(second, 'Zwei Tabs: B6')]);
    const leader = await held;
    const survivor = leader.page === first ? second : first;
    await leader.route.continue();
    await leader.page.close({ runBeforeUnload: false });
    await report(survivor, 'Zwei Tabs: nach dem Schließen');
    const after = await waitForEmptyOutbox(survivor, 60_000);
    expect(after.deadLetters).toEqual([]);

    const clientId = clientIdOf(after, technician.usernodeid);
    expect(await serverLastMutationId(request, 'technician', clientId)).toBe(titles.length);
    const onServer = await notificationsOnServer(request);
    for (const title of titles) expect(onServer.filter((row) => row.title === title).length, title).toBe(1);
  });
});

const DEVICE_QUOTA = 12 * 1024 * 1024;

test('scenario 14: storage full while saving: the user is told in plain German, keeps the input, and nothing saved is lost', async ({ playwright, request }, testInfo) => {
  test.setTimeout(240_000);
  const technician = await apiLogin(request, 'technician');
  const machine = await demoMachine(request, technician);
  // A small device: room for the plant and a few reports, not for a large photo. Chromium applies a quota
  // override reliably only when it is set before the origin first stores anything — in this browser process, so
  // the tablet is a browser of its own: in the suite's shared browser earlier tests had stored for this origin
  // already, and the photo then fitted (seen in CI, and on every repeat of this test).
  const { launchOptions, baseURL, locale, timezoneId, viewport, hasTouch } = testInfo.project.use;
  const browser = await playwright.chromium.launch(launchOptions);
  const context = await browser.newContext({ baseURL, locale, timezoneId, viewport, hasTouch });
  const cspViolations = await watchCsp(context);
  const page = await context.newPage();
  await page.goto('/api/health');
  const cdp = await context.newCDPSession(page);
  const origin = new URL(page.url()).origin;
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: DEVICE_QUOTA });
  await loginAs(page, 'technician');
  await expectSynced(page);
  await takeOfflineReady(page);
  await context.setOffline(true);
  const screen = await openMachine(page, machine.nodeid);
  // Titles of their own: the server's notifications are counted by title at the end.
  const run = randomUUID().slice(0, 6);
  const earlier = `Vor dem vollen Speicher gespeichert ${run}`;
  await screen.reportFault({ title: earlier });
  const { usage } = await cdp.send('Storage.getUsageAndQuota', { origin });
  testInfo.annotations.push({ type: 'storage', description: `${usage} of ${DEVICE_QUOTA} bytes used before the photo` });
  // Larger than the whole device, not only than what is left: the usage Chromium reports is the size of its files on
  // disk, which shrinks when the database compacts, so a photo sized to the reported free space fitted in CI.
  const photo = await randomPhoto(page, 1850); // ~13.7 MB of pixels that do not compress
  expect(photo.buffer.length, 'the photo must not fit into the device at all').toBeGreaterThan(DEVICE_QUOTA);

  const title = `Hydraulikschlauch geplatzt ${run}`;
  const description = 'Öl läuft unter der Presse aus, Bereich abgesperrt.';
  await screen.openFaultDialog();
  await screen.fillFaultReport({ title, description, photo });
  const save = screen.dialog().getByRole('button', { name: 'Meldung speichern' });
  await save.click();
  const message = screen.dialog().getByText(/^Der Speicher dieses Geräts ist voll\./);
  await expect(message).toBeVisible({ timeout: 30_000 }); // a loaded CI machine copies 8 MB slowly
  await expect(message).toContainText('bereits gespeicherte Änderungen bleiben erhalten');
  await page.screenshot({ path: testInfo.outputPath('scenario-14-quota-message.png') });
  await testInfo.attach('quota message', { path: testInfo.outputPath('scenario-14-quota-message.png'), contentType: 'image/png' });
  // Nothing typed is lost: the dialog is still open with the title, the text and the photo.
  await expect(screen.dialog().getByRole('textbox', { name: 'Titel' })).toHaveValue(title);
  await expect(screen.dialog().getByRole('textbox', { name: 'Beschreibung' })).toHaveValue(description);
  await expect(screen.dialog().getByRole('img', { name: 'Vorschau des Fotos' })).toBeVisible();

  // The earlier report is still queued; of the refused one nothing was written (no row, entry or bytes).
  const during = (await readLocalDb(page))!;
  expect(during.outbox.map((entry) => entry.body.title ?? entry.action)).toEqual([earlier]);
  expect(during.notifications.filter((row) => row.title === title)).toEqual([]);
  expect(during.fileBytes).toEqual([]);

  // Space freed: the same dialog saves, and everything reaches the server once.
  await cdp.send('Storage.overrideQuotaForOrigin', { origin });
  await save.click();
  await expect(screen.dialog()).toBeHidden();
  expect((await readLocalDb(page))!.outbox.map((entry) => entry.action)).toEqual(['createNotification', 'createNotification', 'uploadFile', 'attachFile']);
  await context.setOffline(false);
  const after = await waitForEmptyOutbox(page, 60_000);
  expect(after.deadLetters).toEqual([]);
  expect(await serverLastMutationId(request, 'technician', clientIdOf(after, technician.usernodeid))).toBe(4);
  const onServer = await notificationsOnServer(request);
  for (const saved of [earlier, title]) expect(onServer.filter((row) => row.title === saved).length, saved).toBe(1);
  const withPhoto = onServer.find((row) => row.title === title)!;
  expect(await serverNotification(request, 'admin', withPhoto.nodeid)).toMatchObject({ title, description });
  expectNoCspViolations(cspViolations);
  await browser.close();
});
