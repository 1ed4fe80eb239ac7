/**
 * W4 — the notifications dashboard's raw floor. The dashboard does not exist yet (issue #13 builds it), so this run
 * measures the comparison only: a raw IndexedDB compound-index query in Chromium at the tablet throttle — filter by
 * status + type, newest first, the first page of 50, then the next pages as a list scrolls — over 100k and 500k
 * notification rows (--quick: 20k). These figures are what the dashboard will be held against.
 */
import type { Page } from 'playwright-core';
import { launchTablet } from '../lib/browser';
import { type Measurement, type TargetCheck, type Workload, formatNumber, median } from '../lib/harness';

const ORIGIN = 'http://w4.bench.local';
const PAGE_SIZE = 50;
const SCROLL_PAGES = 10;

/** The index the query needs; the mirror's notifications table would declare `[status+type+created]` the same way. */
const INDEX = 'status_type_created';

interface PageTimes {
  firstPage: number;
  scrollPage: number;
  matching: number;
}

/** Fills the object store in the page (rows made there, nothing crosses the protocol) unthrottled. */
async function fill(page: Page, rows: number): Promise<void> {
  await page.evaluate(
    async ({ rows, index }) => {
      await new Promise<void>((resolve, reject) => {
        const request = indexedDB.deleteDatabase('w4');
        request.onsuccess = () => resolve();
        request.onerror = () => reject(request.error);
      });
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('w4', 1);
        request.onupgradeneeded = () => {
          const store = request.result.createObjectStore('notifications', { keyPath: 'nodeid' });
          store.createIndex(index, ['status', 'type', 'created']);
          store.createIndex('equipmentnodeid', 'equipmentnodeid');
        };
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      // A seeded generator: every run fills the same rows.
      let seed = 42;
      const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
      const types = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12];
      const start = Date.UTC(2022, 0, 1);
      const batch = 10_000;
      for (let offset = 0; offset < rows; offset += batch) {
        await new Promise<void>((resolve, reject) => {
          const tx = db.transaction('notifications', 'readwrite');
          const store = tx.objectStore('notifications');
          for (let i = offset; i < Math.min(rows, offset + batch); i++) {
            store.put({
              nodeid: `n-${String(i).padStart(7, '0')}`,
              status: random() < 0.45 ? 0 : random() < 0.3 ? 1 : 2,
              type: types[Math.floor(random() * types.length)],
              created: start + Math.floor(random() * 4 * 365 * 86_400_000),
              title: `Meldung ${i}: Hydraulikdruck schwankt an Presse ${i % 500}`,
              description: 'Beim Anfahren fällt der Druck kurz ab; Sichtprüfung der Leitungen ohne Befund.',
              equipmentnodeid: `e-${i % 5000}`,
              version: i,
            });
          }
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        });
      }
      db.close();
    },
    { rows, index: INDEX },
  );
}

/** One query as the dashboard would run it: open, first page of 50 newest open faults, then scroll pages. */
async function query(page: Page): Promise<PageTimes> {
  return page.evaluate(
    async ({ index, pageSize, scrollPages }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('w4', 1);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const status = 0;
      const type = 1;
      /** One page: newest first, strictly older than `before` ([created, nodeid] of the last row shown). */
      const readPage = (before: [number, string] | null) =>
        new Promise<{ rows: Record<string, unknown>[]; last: [number, string] | null }>((resolve, reject) => {
          const tx = db.transaction('notifications', 'readonly');
          const range = IDBKeyRange.bound([status, type, -Infinity], [status, type, before ? before[0] : Infinity]);
          const request = tx.objectStore('notifications').index(index).openCursor(range, 'prev');
          const rows: Record<string, unknown>[] = [];
          let skipping = before !== null;
          request.onsuccess = () => {
            const cursor = request.result;
            if (!cursor) return resolve({ rows, last: null });
            const row = cursor.value as { created: number; nodeid: string };
            // Rows with the same `created` as the last one shown: skip up to and including it.
            if (skipping && before && row.created === before[0] && row.nodeid >= before[1]) return cursor.continue();
            skipping = false;
            rows.push(row);
            if (rows.length === pageSize) return resolve({ rows, last: [row.created, row.nodeid] });
            cursor.continue();
          };
          request.onerror = () => reject(request.error);
        });
      const t0 = performance.now();
      const first = await readPage(null);
      const firstPage = performance.now() - t0;
      let last = first.last;
      const t1 = performance.now();
      let pages = 0;
      for (; pages < scrollPages && last; pages++) last = (await readPage(last)).last;
      const scrollPage = (performance.now() - t1) / Math.max(1, pages);
      const matching = await new Promise<number>((resolve, reject) => {
        const request = db.transaction('notifications', 'readonly').objectStore('notifications').index(index).count(IDBKeyRange.bound([status, type, -Infinity], [status, type, Infinity]));
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      db.close();
      return { firstPage, scrollPage, matching };
    },
    { index: INDEX, pageSize: PAGE_SIZE, scrollPages: SCROLL_PAGES },
  );
}

const workload: Workload = {
  id: 'W4',
  title: 'Notifications dashboard: first page and scrolling over 100k/500k rows',
  comparedWith: 'a raw IndexedDB compound-index query ([status+type+created], newest first, pages of 50) in the same Chromium',
  async run(options) {
    const sizes = options.quick ? [20_000] : [100_000, 500_000];
    const tablet = await launchTablet({ workDir: options.workDir, cpuThrottle: options.cpuThrottle });
    const measurements: Measurement[] = [];
    const notes: string[] = [];
    try {
      const page = await tablet.page();
      // why a routed origin: IndexedDB needs a real origin, and the floor needs no app server.
      // why: tsx compiles this file with esbuild's keepNames, so functions passed to page.evaluate call `__name`.
      await page.addInitScript('globalThis.__name = (fn) => fn;');
      await page.route(`${ORIGIN}/**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>W4</title>' }));
      await page.goto(`${ORIGIN}/`);
      const cdp = await tablet.cdp(page);
      for (const rows of sizes) {
        options.log(`filling ${rows.toLocaleString('en-US')} notification rows (unthrottled)`);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
        const fillStarted = Date.now();
        await fill(page, rows);
        notes.push(`${rows.toLocaleString('en-US')} rows filled in ${((Date.now() - fillStarted) / 1000).toFixed(1)} s (unthrottled, batches of 10,000 per transaction).`);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: options.cpuThrottle });
        // Settle: IndexedDB's store compacts after a bulk fill; queries right after it measure the compaction.
        await page.waitForTimeout(5_000);
        for (let warmUp = 0; warmUp < 3; warmUp++) await query(page);
        const first: number[] = [];
        const scroll: number[] = [];
        let matching = 0;
        for (let run = 0; run < options.runs; run++) {
          const times = await query(page);
          first.push(times.firstPage);
          scroll.push(times.scrollPage);
          matching = times.matching;
        }
        const k = `${Math.round(rows / 1000)}k`;
        measurements.push(
          { label: `Raw IndexedDB, ${k} rows, ${options.cpuThrottle}× CPU: first page of ${PAGE_SIZE}`, unit: 'ms', samples: first, lowerIsBetter: true },
          { label: `Raw IndexedDB, ${k} rows, ${options.cpuThrottle}× CPU: each next page of ${PAGE_SIZE} (mean of ${SCROLL_PAGES})`, unit: 'ms', samples: scroll, lowerIsBetter: true },
        );
        notes.push(`${k} rows: ${matching.toLocaleString('en-US')} match status open + type 1; first page median ${formatNumber(median(first))} ms, next pages ${formatNumber(median(scroll))} ms each.`);
      }
    } finally {
      await tablet.close();
    }
    const targets: TargetCheck[] = [
      {
        target: 'Dashboard first page and scrolling within 1.5× of the raw IndexedDB floor',
        actual: 'not yet measurable (no dashboard)',
        met: false,
        note:
          'the dashboard is built by issue #13; this workload then measures it against these figures. The mirror\'s notifications table ' +
          '(src/client/db/local-db.ts) indexes equipmentnodeid, status, [equipmentnodeid+status] and maintenancetasknodeid; a dashboard ' +
          'filtered by status and type and sorted by date needs the compound index [status+type+created] (a new schema version), queried ' +
          'newest first with `.reverse()` and paged from the last row shown (not offset), as this floor does.',
      },
    ];
    notes.push(
      'Rows: 3 statuses (≈ 45 % open), 11 reportable types, created spread over 4 years, ~300 bytes each; one object store with the ' +
        'index [status, type, created]. Each query opens the database, reads the first page in one readonly transaction and the next ' +
        `${SCROLL_PAGES} pages in one transaction each (keyset paging from the last row's [created, nodeid]).`,
    );
    return { measurements, targets, notes };
  },
};

export default workload;
