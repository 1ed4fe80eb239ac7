/**
 * W1 — initial sync of a big plant (5,000 machines, 100,000 notifications, 50,000 counter readings, attachment
 * metadata; --quick: a tenth) through the real app in Chromium, unthrottled and at the tablet throttle: from the
 * login tap until the app bar says "Synchronisiert". Compared in the same run with
 *  (a) the floor: the same pull pages fetched in a page of the app's origin and written to a plain IndexedDB
 *      database, one transaction per page, a store per kind — what any client must at least do;
 *  (b) PouchDB: pouchdb-server (in memory) holding the same rows as documents, replicated by pouchdb-browser in
 *      the page (batch_size 1000, like the app's page size).
 * Also: the longest main-thread task during the sync, the time until the dashboard shows machine names, and the
 * tab's JS heap after the sync.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD, DEMO_USERS } from '../../src/server/db/seed/demo-users';
import { PULL_LIMIT_INITIAL } from '../../src/shared/api/sync';
import { describeLongestFrame, installLongTaskObserver, launchTablet, longestTask, resetLongTasks, waitUntilSynced } from '../lib/browser';
import { startApp } from '../lib/browser-app';
import { type BenchOptions, type Measurement, type TargetCheck, type Workload, formatNumber, median, repeat } from '../lib/harness';
import { apiLogin, changeAsDoc, plantSize, pouchBrowserScript, prepareBigPlant, pullAll, startPouchServer } from './sync-peers';

interface ProductRun {
  syncedMs: number;
  dashboardMs: number;
  longestTaskMs: number;
  /** The longest animation frame and its scripts, for the log. */
  longestFrame: string;
  heapMB: number;
}

/** Login tap → synchronized, through the app's screens, on a fresh device. */
async function productRun(options: BenchOptions, baseUrl: string, throttle: number): Promise<ProductRun> {
  const tablet = await launchTablet({ workDir: options.workDir, cpuThrottle: throttle });
  try {
    const page = await tablet.page();
    await installLongTaskObserver(page);
    const cdp = await tablet.cdp(page);
    await cdp.send('Performance.enable');
    await page.goto(`${baseUrl}/login`);
    await page.getByRole('textbox', { name: 'E-Mail' }).fill(DEMO_USERS.technician.email);
    await page.getByRole('textbox', { name: 'Passwort' }).fill(DEMO_PASSWORD);
    // Only the tasks of the sync count, not the app's start on the login screen. The form's first focus loads the
    // design system and the first screen (prefetchForLogin) while a user types, which takes seconds; filled in one
    // step, the tap came while that code still ran, and its evaluation (~600 ms at 4×) was counted as the sync's.
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 10_000 })));
    await resetLongTasks(page);
    const tapAt = await page.evaluate(() => performance.now());
    const started = Date.now();
    await page.getByRole('button', { name: 'Anmelden' }).click();
    const dashboard = page
      .locator('[data-testid="machine-list"] a[aria-label]')
      .first()
      .waitFor({ timeout: 900_000 })
      .then(() => Date.now() - started);
    await waitUntilSynced(page, 900_000);
    const syncedMs = Date.now() - started;
    const dashboardMs = await dashboard;
    const longestTaskMs = await longestTask(page);
    const longestFrame = await describeLongestFrame(page, tapAt);
    const metrics = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
    const heap = metrics.metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? Number.NaN;
    return { syncedMs, dashboardMs, longestTaskMs, longestFrame, heapMB: heap / 2 ** 20 };
  } finally {
    await tablet.close();
  }
}

/** The floor: log in, fetch the same pull pages, one raw IndexedDB transaction per page. In-page time in ms. */
async function floorRun(page: Page, baseUrl: string, kinds: string[]): Promise<number> {
  await page.goto(`${baseUrl}/api/health`);
  return page.evaluate(
    async ({ email, password, kinds, limit }) => {
      const started = performance.now();
      const login = await fetch('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
      const { accesstoken } = (await login.json()) as { accesstoken: string };
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(`floor-${Math.random()}`, 1);
        request.onupgradeneeded = () => {
          for (const kind of kinds) request.result.createObjectStore(kind, { keyPath: 'nodeid' });
        };
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const clientId = crypto.randomUUID();
      let cursor = 0;
      for (;;) {
        const response = await fetch(`/api/sync/pull?cursor=${cursor}&limit=${limit}`, { headers: { authorization: `Bearer ${accesstoken}`, 'x-client-id': clientId } });
        const page = (await response.json()) as { cursor: number; hasMore: boolean; changes: { kind: string; nodeid: string; version: number; deleted?: boolean; data?: Record<string, unknown> }[] };
        const tx = db.transaction(kinds, 'readwrite');
        for (const change of page.changes) {
          const store = tx.objectStore(change.kind);
          if (change.deleted) store.delete(change.nodeid);
          else store.put({ ...change.data, nodeid: change.nodeid, version: change.version });
        }
        await new Promise<void>((resolve, reject) => {
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        });
        cursor = page.cursor;
        if (!page.hasMore) break;
      }
      db.close();
      return performance.now() - started;
    },
    { email: DEMO_USERS.technician.email, password: DEMO_PASSWORD, kinds, limit: PULL_LIMIT_INITIAL },
  );
}

/** PouchDB: replicate the server database into the page's IndexedDB. In-page time in ms. */
async function pouchRun(page: Page, pouchUrl: string, script: string): Promise<number> {
  await page.goto(`${pouchUrl}/`);
  await page.addScriptTag({ content: script });
  return page.evaluate(async (remote) => {
    type Pouch = { replicate: { from(url: string, options: Record<string, unknown>): Promise<unknown> }; close(): Promise<void> };
    const PouchDB = (window as unknown as { PouchDB: new (name: string) => Pouch }).PouchDB;
    const started = performance.now();
    const local = new PouchDB(`plant-${Math.random()}`);
    await local.replicate.from(remote, { batch_size: 1000 });
    const elapsed = performance.now() - started;
    await local.close();
    return elapsed;
  }, `${pouchUrl}/plant`);
}

async function inFreshTablet<T>(options: BenchOptions, throttle: number, work: (page: Page) => Promise<T>): Promise<T> {
  const tablet = await launchTablet({ workDir: options.workDir, cpuThrottle: throttle });
  try {
    return await work(await tablet.page());
  } finally {
    await tablet.close();
  }
}

const workload: Workload = {
  id: 'W1',
  title: 'Initial sync of a big plant',
  comparedWith: 'raw IndexedDB bulk writes of the same pages (floor); PouchDB replication',
  async run(options) {
    const size = plantSize(options.quick);
    const dataDir = join(options.workDir, 'w1-plant');
    options.log(`generating the plant: ${size.machines} machines, ${size.notifications} notifications, ${size.readings} readings`);
    await prepareBigPlant(dataDir, size);
    const app = await startApp({ dataDir });
    const pouch = await startPouchServer(options.workDir);
    try {
      const all = await pullAll(app.url, await apiLogin(app.url));
      const rows = all.changes.filter((change) => !change.deleted);
      const kinds = [...new Set(rows.map((change) => change.kind))];
      const megabytes = JSON.stringify(all.changes).length / 2 ** 20;
      options.log(`the technician's pull: ${rows.length} rows, ${all.pages} pages, ${megabytes.toFixed(1)} MB of JSON`);
      await pouch.load('plant', rows.map(changeAsDoc));
      const script = await pouchBrowserScript();

      const measurements: Measurement[] = [];
      const targets: TargetCheck[] = [];
      const notes: string[] = [
        `Plant: ${size.machines} machines, ${size.notifications} generated notifications, ${size.readings} generated readings, attachment metadata (one per ten notifications) on top of the demo plant: the technician's pull is ${rows.length} rows in ${all.pages} pages of ${PULL_LIMIT_INITIAL} (${megabytes.toFixed(1)} MB JSON).`,
        'App: login tap → "Synchronisiert" on a fresh profile (includes the login and the first render; the data sync: the service worker storing the app\'s files beside it, "Offline-Nutzung wird vorbereitet …", is not waited for). Floor: the same pages fetched with fetch() in a page of the app\'s origin and put into a plain IndexedDB database, one transaction per page (includes the API login). PouchDB: pouchdb-server --in-memory with the same rows as documents, replicate.from with batch_size 1000 (the PouchDB default is 100) into pouchdb-browser (IndexedDB).',
        'Longest task: PerformanceObserver longtask entries from the login tap to "Synchronisiert"; the tap comes once the login screen is idle (no request for 500 ms, then an idle callback), as after a user typed the password, so the login form\'s own prefetch is not counted. Heap: Performance.getMetrics JSHeapUsedSize after the sync.',
      ];
      for (const throttle of [1, options.cpuThrottle]) {
        const label = throttle === 1 ? 'unthrottled' : `${throttle}× CPU throttle`;
        const product: ProductRun[] = [];
        const synced = await repeat(options.runs, async (run) => {
          const result = await productRun(options, app.url, throttle);
          if (run >= 0) product.push(result);
          options.log(`${label} app: synced ${result.syncedMs} ms, dashboard ${result.dashboardMs} ms, longest task ${Math.round(result.longestTaskMs)} ms, heap ${result.heapMB.toFixed(0)} MB; ${result.longestFrame}`);
          return result.syncedMs;
        });
        const floor = await repeat(options.runs, async () => inFreshTablet(options, throttle, (page) => floorRun(page, app.url, kinds)));
        options.log(`${label} floor: ${floor.map(Math.round).join(', ')} ms`);
        const pouchdb = await repeat(options.runs, async () => inFreshTablet(options, throttle, (page) => pouchRun(page, pouch.url, script)));
        options.log(`${label} PouchDB: ${pouchdb.map(Math.round).join(', ')} ms`);
        const dashboard = product.map((run) => run.dashboardMs);
        const tasks = product.map((run) => run.longestTaskMs);
        measurements.push(
          { label: `App initial sync, ${label}`, unit: 'ms', samples: synced, lowerIsBetter: true },
          { label: `Floor: raw IndexedDB, ${label}`, unit: 'ms', samples: floor, lowerIsBetter: true },
          { label: `PouchDB replication, ${label}`, unit: 'ms', samples: pouchdb, lowerIsBetter: true },
          { label: `App: dashboard shows machine names, ${label}`, unit: 'ms', samples: dashboard, lowerIsBetter: true },
          { label: `App: longest main-thread task, ${label}`, unit: 'ms', samples: tasks, lowerIsBetter: true },
          { label: `App: JS heap after the sync, ${label}`, unit: 'MB', samples: product.map((run) => run.heapMB), lowerIsBetter: true },
          { label: `App rows/s, ${label}`, unit: 'rows/s', samples: synced.map((ms) => rows.length / (ms / 1000)) },
        );
        const toFloor = median(synced) / median(floor);
        targets.push({
          target: `≤ 1.5× the floor (${label})`,
          actual: `${toFloor.toFixed(2)}× (median ${formatNumber(median(synced))} ms vs ${formatNumber(median(floor))} ms)`,
          met: toFloor <= 1.5,
          ...(toFloor <= 1.5 ? {} : { note: 'The app also logs in through its screens (the floor logs in through the API), checks every page against the contract and merges pending outbox values (in the page worker, which writes the page), and renders the dashboard and progress while it syncs; the floor does none of that.' }),
        });
        const toPouch = median(pouchdb) / median(synced);
        targets.push({
          target: `≥ 5× faster than PouchDB (${label})`,
          actual: `${toPouch.toFixed(1)}× (PouchDB median ${formatNumber(median(pouchdb))} ms)`,
          met: toPouch >= 5,
          ...(toPouch >= 5 ? {} : { note: 'PouchDB was given batch_size 1000 (its default is 100), so it writes in bulk too. The app is bound by the same server pages and IndexedDB writes as the floor, and PouchDB is 2.5–5× slower than the floor itself (more at 4×, where its work is on the throttled main thread): 5× needs the app at or below the floor. Fetching the next page while the worker writes the current one overlaps server time with writes (the floor does not), which brings it near the floor, not below.' }),
        });
        const longest = Math.max(...tasks);
        targets.push({
          target: `No main-thread task > 100 ms during the sync (${label})`,
          actual: `longest ${formatNumber(longest)} ms (median of runs ${formatNumber(median(tasks))} ms)`,
          met: longest <= 100,
          ...(longest <= 100 ? {} : { note: 'The request, the body\'s loading and decoding, JSON.parse, the contract check and the IndexedDB writes of a page run in the page worker; the main thread gets the page\'s head and counts. The longest frame left (logged per run) is the dashboard\'s first render and commit, a blocking update: Chakra UI\'s runtime styling of its components, two thirds of the commit emotion compiling and inserting the CSS the signed-in frame uses for the first time (a CPU profile at 4×). Long tasks are wall time, so on a busy machine they include time the renderer was descheduled.' }),
        });
        const before = product.every((run) => run.dashboardMs < run.syncedMs);
        targets.push({
          target: `Dashboard usable before the sync ends (${label})`,
          actual: `machine names after ${formatNumber(median(dashboard))} ms, synced after ${formatNumber(median(synced))} ms (medians)`,
          met: before,
          ...(before ? {} : { note: 'The dashboard showed the machines only after the sync finished in at least one run.' }),
        });
      }
      return { measurements, targets, notes };
    } finally {
      await pouch.stop();
      await app.stop();
    }
  },
};

export default workload;
