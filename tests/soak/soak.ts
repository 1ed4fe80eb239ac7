// why first: Dexie looks for IndexedDB when it is imported; each simulated tablet's database lives in fake-indexeddb.
import 'fake-indexeddb/auto';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import { asc, eq, inArray } from 'drizzle-orm';
import type { OutboxEntry } from '../../src/client/db/local-db';
import { pendingEntries } from '../../src/client/sync/outbox';
import { attachPhoto } from '../../src/client/sync/repositories/attachments';
import { addCounterReading } from '../../src/client/sync/repositories/counters';
import { createNotification, updateNotificationStatus } from '../../src/client/sync/repositories/notifications';
import { isStaleStatusRefusal } from '../../src/shared/api/notifications';
import { saveSubscriptions } from '../../src/client/sync/repositories/subscriptions';
import { mutate } from '../../src/client/sync/mutate';
import { updateEquipmentMemo } from '../../src/shared/mutations/machine-memo';
import type { NotificationStatus } from '../../src/shared/domain/notification';
import { normalizeSelection, selectionOf, type SubscriptionSelection } from '../../src/shared/domain/subscription';
import { openDatabase, type Database } from '../../src/server/db/client';
import { attachments, counterReadings, files, notifications, structureSubscriptions, syncMutations } from '../../src/server/db/schema';
import { createRandom, type Random } from '../../src/server/db/seed/random';
import { insertCounter } from '../factories/notifications';
import { insertArea, insertEquipmentPool, insertSite } from '../factories/structure';
import type { TestUser } from '../factories/tenant';
import { Device, mirrorAndFreshView } from '../api/support/sync-device';
import { insertSyncPlant } from '../api/support/sync-plant';
import { onServer } from '../api/support/test-database';
import { startBalancerThread, type BalancerThread } from './balancer';
import { rssVerdict, summarizeLatency, type RssVerdict } from './measures';

/**
 * The soak: 200 simulated tablets — the real client sync code (outbox, sender, pull) on fake-indexeddb, the
 * `Device` of the sync suites — against TWO server processes (`src/server/main.ts`) on one PostgreSQL database
 * and one shared files directory, behind a round-robin balancer. For SOAK_SECONDS the tablets pull, queue
 * writes of every common kind (fault reports with and without a photo, status changes, counter readings, photos,
 * machine memos, follows and unfollows), go offline for a while and keep writing, and come back together in
 * reconnect storms. Then every outbox is drained and the checks run: no dead letter (but stale status changes,
 * refused on purpose: the first transition wins), no request answered with
 * anything but 2xx, every queued write in the server's mutation log exactly once and in order, every created
 * record once, each user's last dashboard selection on the server, a sample of mirrors equal to a fresh pull,
 * each instance's memory flat. It prints a summary, writes test-results/soak.json and exits 1 on any failure.
 *
 *   npm run soak                        # 60 s (what `npm test` runs when TEST_DATABASE_URL is set)
 *   SOAK_SECONDS=600 npm run soak       # the 10-minute run
 *
 * Traffic goes only to 127.0.0.1; every loop is bounded by the deadline, the whole run by a hard timeout.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const env = (name: string, fallback: number) => {
  const value = Number(process.env[name]?.trim() || fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};
const SECONDS = env('SOAK_SECONDS', 60);
const DEVICES = env('SOAK_DEVICES', 200);
/** Tenants (plants): devices are spread over them as over the customers of one installation. */
const PLANTS = env('SOAK_PLANTS', 10);
/** A device's pause between two actions, drawn from [THINK_MS/2, THINK_MS·1.5]. */
const THINK_MS = env('SOAK_THINK_MS', 4_000);
/** Every this many seconds a third of the devices goes offline together and comes back together. */
const STORM_EVERY_S = env('SOAK_STORM_EVERY', 20);
/** Mirrors compared with a fresh pull at the end (each costs a full pull). */
const MIRROR_SAMPLE = env('SOAK_MIRROR_SAMPLE', 20);
const SEED = env('SOAK_SEED', 1);
const RSS_EVERY_MS = 2_000;
const SERVER_URL = process.env.SOAK_DATABASE_URL?.trim() || process.env.TEST_DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/postgres';
const REPORT = join(root, 'test-results', 'soak.json');
/** Whole-run ceiling: start, the run, draining 200 outboxes and the checks on a busy machine. */
const HARD_TIMEOUT_MS = (SECONDS + 600) * 1000;

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

interface Instance {
  name: string;
  url: string;
  child: ChildProcess;
  rssKb: number[];
  exited: string | null;
}

interface Written {
  clientId: string;
  mutationId: number;
  action: string;
  method: string;
  path: string;
  nodeid: string;
}

interface SoakPlant {
  legalentitynodeid: string;
  machines: string[];
  counters: string[];
  site: string;
  areas: string[];
  pool: string;
  siteOfArea: Map<string, string>;
}

interface Tablet {
  index: number;
  device: Device;
  user: TestUser;
  plant: SoakPlant;
  random: Random;
  /** Writes without syncing until then (an offline gap or a storm). */
  offlineUntil: number;
  /** One thing at a time per tablet, as the engine's Web Lock does in a browser. */
  queue: Promise<unknown>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The server processes of this run, so that even the hard timeout stops them. */
const running: Instance[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startInstance(name: string, environment: Record<string, string>, logDir: string): Promise<Instance> {
  const port = await freePort();
  // why node --import tsx and not the tsx binary: tsx's CLI runs the program in a child process, and the RSS
  // sampled must be the server's own.
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/server/main.ts')], {
    cwd: root,
    env: { ...process.env, ...environment, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(join(logDir, `${name}.log`));
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const instance: Instance = { name, url: `http://127.0.0.1:${port}`, child, rssKb: [], exited: null };
  child.on('exit', (code, signal) => (instance.exited = `exit ${code ?? signal}`));
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    if (instance.exited) throw new Error(`${name} stopped while starting (${instance.exited}); log: ${join(logDir, `${name}.log`)}`);
    const healthy = await fetch(`${instance.url}/api/health`).then((r) => r.ok, () => false);
    if (healthy) return instance;
    await sleep(250);
  }
  throw new Error(`${name} did not become healthy in 120 s`);
}

async function sampleRss(instance: Instance): Promise<void> {
  if (instance.exited || instance.child.pid === undefined) return;
  const status = await readFile(`/proc/${instance.child.pid}/status`, 'utf8').catch(() => '');
  const match = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  if (match) instance.rssKb.push(Number(match[1]));
}

async function stopInstance(instance: Instance): Promise<void> {
  if (instance.exited) return;
  const exited = new Promise((resolve) => instance.child.once('exit', resolve));
  instance.child.kill('SIGTERM');
  await Promise.race([exited, sleep(20_000)]);
  if (!instance.exited) instance.child.kill('SIGKILL');
}

async function insertSoakPlants(database: Database, devices: number, plants: number): Promise<{ plant: SoakPlant; users: TestUser[] }[]> {
  const result: { plant: SoakPlant; users: TestUser[] }[] = [];
  for (let p = 0; p < plants; p++) {
    const users = Math.floor(devices / plants) + (p < devices % plants ? 1 : 0);
    const base = await insertSyncPlant(database.db, users);
    const le = base.tenant.legalEntity.nodeid;
    const counters = [base.counter, (await insertCounter(database.db, { legalentitynodeid: le, equipmentnodeid: base.machines[1]! })).nodeid];
    const site = (await insertSite(database.db, { legalentitynodeid: le })).nodeid;
    const areas = [(await insertArea(database.db, { legalentitynodeid: le, sitenodeid: site })).nodeid, (await insertArea(database.db, { legalentitynodeid: le, sitenodeid: site })).nodeid];
    const pool = (await insertEquipmentPool(database.db, { legalentitynodeid: le })).nodeid;
    result.push({
      plant: { legalentitynodeid: le, machines: base.machines, counters, site, areas, pool, siteOfArea: new Map(areas.map((area) => [area, site])) },
      users: base.technicians,
    });
  }
  return result;
}

/** Runs `work` on the tablet after what it is doing now, so a tablet never sends or pulls twice at once. */
function onTablet<T>(tablet: Tablet, work: () => Promise<T>): Promise<T> {
  const run = tablet.queue.then(work, work);
  tablet.queue = run.catch(() => undefined);
  return run;
}

async function main(): Promise<number> {
  const checks: Check[] = [];
  const check = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail });
  const random = createRandom(SEED);
  const dbName = `anl_soak_${randomBytes(6).toString('hex')}`;
  const databaseUrl = (() => {
    const url = new URL(SERVER_URL);
    url.pathname = `/${dbName}`;
    return url.toString();
  })();
  const dataDir = await mkdtemp(join(tmpdir(), 'anlagenbuch-soak-'));
  const logDir = join(root, 'test-results', 'soak-logs');
  await mkdir(logDir, { recursive: true });
  const instances = running;
  let balancer: BalancerThread | undefined;
  let database: Database | undefined;
  const tablets: Tablet[] = [];
  const written: Written[] = [];
  const lastSelection = new Map<string, SubscriptionSelection>();
  const actionErrors: string[] = [];
  const syncAnomalies: string[] = [];
  const counts = { writes: 0, syncs: 0, pulls: 0, offlineGaps: 0, storms: 0, stormDevices: 0 };
  const lag = monitorEventLoopDelay({ resolution: 20 });
  const started = Date.now();
  let rssTimer: NodeJS.Timeout | undefined;

  console.log(`soak: ${DEVICES} tablets, ${PLANTS} plants, ${SECONDS} s, two instances on PostgreSQL (${dbName})`);
  await onServer(SERVER_URL, `CREATE DATABASE "${dbName}"`);
  try {
    const common = {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      // why: all 200 tablets log in from 127.0.0.1 within seconds; in production they come from many addresses.
      LOGIN_RATE_LIMIT: '100000/100000',
      // why: the 200 tablets are new devices of the demo's few users.
      NEW_DEVICES_PER_DAY: '1000000',
      CLIENT_DIST: join(dataDir, 'no-client-build'),
    };
    // The first instance migrates and loads the demo plant; the second then starts on the migrated database.
    instances.push(await startInstance('instance-a', { ...common, SEED_DEMO: 'true' }, logDir));
    instances.push(await startInstance('instance-b', { ...common, SEED_DEMO: 'false' }, logDir));
    balancer = await startBalancerThread(instances.map((instance) => instance.url));
    database = await openDatabase({ databaseUrl, poolSize: 4 });
    const plants = await insertSoakPlants(database, DEVICES, PLANTS);

    // Every tablet logs in and pulls at once: the first reconnect storm.
    let index = 0;
    for (const { plant, users } of plants) {
      for (const user of users) {
        tablets.push({ index: index++, device: new Device({ baseUrl: balancer.url, timeoutMs: 60_000 }), user, plant, random: createRandom(SEED * 100_000 + index), offlineUntil: 0, queue: Promise.resolve() });
      }
    }
    await Promise.all(
      tablets.map(async (tablet) => {
        await tablet.device.login(tablet.user);
        await tablet.device.pull();
      }),
    );
    console.log(`soak: ${tablets.length} tablets logged in and pulled (${((Date.now() - started) / 1000).toFixed(0)} s)`);

    // The load phase: latency, memory and event-loop lag are measured from here to its end (the logins and
    // first pulls above are the start-up storm, reported apart).
    const loginRequests = await balancer.count();
    const loadStarted = Date.now();
    const deadline = loadStarted + SECONDS * 1000;
    for (const instance of instances) await sampleRss(instance);
    rssTimer = setInterval(() => void Promise.all(instances.map(sampleRss)), RSS_EVERY_MS);
    lag.enable();

    /** Records the outbox entries a user action just queued (mutation ids above `before`); returns the last id. */
    async function record(tablet: Tablet, before: number): Promise<number> {
      const clientId = await tablet.device.clientId();
      const entries: OutboxEntry[] = (await pendingEntries(tablet.device.db, clientId)).filter((entry) => entry.mutationId > before);
      for (const entry of entries) written.push({ clientId, mutationId: entry.mutationId, action: entry.action, method: entry.method, path: entry.path, nodeid: entry.nodeid });
      return Math.max(before, ...entries.map((entry) => entry.mutationId));
    }
    /** Per tablet, the last mutation id already recorded. */
    const lastWritten = new Map<number, number>();

    async function userWrites(tablet: Tablet): Promise<void> {
      const { device, plant, random: r } = tablet;
      const context = device.context();
      const before = lastWritten.get(tablet.index) ?? 0;
      const known = await device.db.mirror('notifications').toArray();
      const photo = () => ({ bytes: jpegBytes(r), mimetype: 'image/jpeg', name: 'foto.jpg' });
      const roll = r.int(0, 99);
      if (roll < 30 || known.length === 0) {
        await createNotification(context, { type: r.pick([0, 1, 2] as const), title: `Soak ${tablet.index}-${counts.writes}`, equipmentnodeid: r.pick(plant.machines), ...(r.chance(0.3) ? { photo: photo() } : {}) });
      } else if (roll < 50) {
        const notification = r.pick(known);
        const status = r.pick(([0, 1, 2] as NotificationStatus[]).filter((s) => s !== notification.status));
        await updateNotificationStatus(context, notification, status);
      } else if (roll < 70) {
        await addCounterReading(context, { counternodeid: r.pick(plant.counters), value: r.int(1, 1_000_000) });
      } else if (roll < 80) {
        await attachPhoto(context, photo(), { isattachmentof: r.pick(known).nodeid, title: 'Foto' });
      } else if (roll < 90) {
        const machine = r.pick(plant.machines);
        await mutate(context, updateEquipmentMemo, { params: { id: machine }, body: { lang: 'de', equipmentnodeid: machine, memo: `Notiz von Tablet ${tablet.index} um ${Date.now()}` } });
      } else {
        const pickSome = (ids: string[]) => new Set(ids.filter(() => r.chance(0.5)));
        const desired = { sites: pickSome([plant.site]), areas: pickSome(plant.areas), equipmentpools: pickSome([plant.pool]) };
        await saveSubscriptions(context, desired, plant.siteOfArea);
        lastSelection.set(context.usernodeid, normalizeSelection(desired, plant.siteOfArea));
      }
      counts.writes += 1;
      lastWritten.set(tablet.index, await record(tablet, before));
    }

    async function sync(tablet: Tablet): Promise<void> {
      counts.syncs += 1;
      const { drain, pulled, pullError } = await tablet.device.sync();
      if (drain.outcome.type !== 'idle') {
        const head = (await tablet.device.pending())[0];
        syncAnomalies.push(`tablet ${tablet.index}: ${JSON.stringify(drain.outcome)} at ${head?.action ?? '?'} (${head?.lastError ?? ''})`);
      }
      if (!pulled) syncAnomalies.push(`tablet ${tablet.index}: pull failed: ${describeError(pullError)}`);
      // Dead letters are judged at the end, each by its refusal ('no dead letters but stale status changes').
    }

    async function tabletLoop(tablet: Tablet): Promise<void> {
      const r = tablet.random;
      // Tablets do not start in lockstep.
      await sleep(r.int(0, THINK_MS));
      while (Date.now() < deadline) {
        await onTablet(tablet, async () => {
          const offline = Date.now() < tablet.offlineUntil;
          const roll = r.int(0, 99);
          try {
            if (roll < 60) {
              await userWrites(tablet);
              // Online, the engine sends at once after a write.
              if (!offline) await sync(tablet);
            } else if (roll < 95) {
              if (!offline) {
                counts.pulls += 1;
                await sync(tablet);
              }
            } else if (!offline) {
              counts.offlineGaps += 1;
              tablet.offlineUntil = Date.now() + r.int(5_000, 20_000);
            }
          } catch (error) {
            actionErrors.push(`tablet ${tablet.index}: ${error instanceof Error ? error.message : String(error)}`);
          }
        });
        await sleep(r.int(THINK_MS / 2, (THINK_MS * 3) / 2));
      }
    }

    /** A third of the tablets lose the network together (a Wi-Fi outage in a hall) and come back together. */
    async function storms(): Promise<void> {
      while (Date.now() + STORM_EVERY_S * 1000 < deadline) {
        await sleep(STORM_EVERY_S * 1000 - 5_000);
        const group = tablets.filter(() => random.chance(1 / 3));
        const backAt = Date.now() + 5_000;
        for (const tablet of group) tablet.offlineUntil = Math.max(tablet.offlineUntil, backAt);
        await sleep(5_000);
        counts.storms += 1;
        counts.stormDevices += group.length;
        await Promise.all(
          group.map((tablet) =>
            onTablet(tablet, () => sync(tablet)).catch((error: unknown) => {
              actionErrors.push(`tablet ${tablet.index} (storm): ${error instanceof Error ? error.message : String(error)}`);
            }),
          ),
        );
      }
    }

    await Promise.all([...tablets.map(tabletLoop), storms()]);
    const loadSeconds = (Date.now() - loadStarted) / 1000;
    lag.disable();
    clearInterval(rssTimer);
    rssTimer = undefined;
    const loadEnd = await balancer.count();
    const loadRequests = loadEnd - loginRequests;
    console.log(`soak: load phase over after ${loadSeconds.toFixed(0)} s: ${counts.writes} user actions, ${loadRequests} requests; draining`);

    // Drain: everyone online, every outbox sent, then one more pull each (other tablets' last writes).
    for (const tablet of tablets) tablet.offlineUntil = 0;
    const drainErrors: string[] = [];
    await inBatches(tablets, 25, (tablet) => tablet.device.syncUntilIdle(20).catch((error: unknown) => void drainErrors.push(`tablet ${tablet.index}: ${String(error)}`)));
    await inBatches(tablets, 25, (tablet) => tablet.device.pull().catch((error: unknown) => void drainErrors.push(`tablet ${tablet.index} pull: ${String(error)}`)));

    // ---- checks
    const { exchanges, upstreamErrors } = await balancer.snapshot();
    const outboxLeft = (await Promise.all(tablets.map((tablet) => tablet.device.db.outbox.count()))).reduce((a, b) => a + b, 0);
    const letters = (await Promise.all(tablets.map((tablet) => tablet.device.db.deadLetters.toArray()))).flat();
    check('every outbox drained', outboxLeft === 0 && drainErrors.length === 0, `${outboxLeft} entries left${drainErrors.length ? `; ${drainErrors.slice(0, 3).join('; ')}` : ''}`);
    // A status change made against a status another tablet has since left, that would take the notification back,
    // is refused on purpose (409, the first transition wins: docs/sync.md § Conflicts); the tablets pick their
    // status changes at random over shared notifications, so some are stale. Anything else refused is a failure.
    const staleStatus = letters.filter((letter) => letter.action === 'updateNotificationStatus' && letter.status === 409 && isStaleStatusRefusal(letter.error));
    const otherLetters = letters.filter((letter) => !staleStatus.includes(letter));
    check('no dead letters but stale status changes', otherLetters.length === 0, `${otherLetters.length} other${otherLetters.length ? `: ${otherLetters.slice(0, 5).map((l) => `${l.action} ${l.status} ${JSON.stringify(l.error)}`).join('; ')}` : ''}; ${staleStatus.length} stale status changes refused (409, first transition wins)`);
    const non2xx = exchanges.filter((e) => e.status < 200 || e.status >= 300);
    check('every request answered 2xx', non2xx.length === 0 && upstreamErrors.length === 0, `${non2xx.length} non-2xx, ${upstreamErrors.length} unanswered${non2xx.length ? `: ${[...new Set(non2xx.map((e) => `${e.status} ${e.kind}`))].slice(0, 8).join(', ')}` : ''}`);
    check('no failed user action or sync', actionErrors.length === 0 && syncAnomalies.length === 0, `${actionErrors.length} failed actions, ${syncAnomalies.length} failed syncs of ${counts.syncs}${[...actionErrors, ...syncAnomalies].length ? `: ${[...actionErrors, ...syncAnomalies].slice(0, 5).join('; ')}` : ''}`);
    check('both instances served requests', instances.every((_, i) => exchanges.some((e) => e.target === i)), instances.map((instance, i) => `${instance.name}: ${exchanges.filter((e) => e.target === i).length}`).join(', '));
    check('both instances still running', instances.every((instance) => !instance.exited), instances.map((instance) => `${instance.name}: ${instance.exited ?? 'running'}`).join(', '));

    // Exactly once, in order: the server's mutation log holds exactly the queued writes, each under its id.
    const clientIds = [...new Set(written.map((w) => w.clientId))];
    const logs: { clientid: string; mid: number; method: string; path: string; status: number; body: unknown }[] = [];
    for (let i = 0; i < clientIds.length; i += 50) {
      logs.push(
        ...(await database.db
          .select({ clientid: syncMutations.clientid, mid: syncMutations.mutationId, method: syncMutations.method, path: syncMutations.path, status: syncMutations.status, body: syncMutations.body })
          .from(syncMutations)
          .where(inArray(syncMutations.clientid, clientIds.slice(i, i + 50)))
          .orderBy(asc(syncMutations.clientid), asc(syncMutations.mutationId))),
      );
    }
    const key = (clientid: string, mid: number) => `${clientid}#${mid}`;
    const expected = new Map(written.map((w) => [key(w.clientId, w.mutationId), `${w.method} /api/${w.path}`]));
    const seen = new Map<string, number>();
    let mismatched = 0;
    let refused = 0;
    for (const row of logs) {
      const k = key(row.clientid, row.mid);
      seen.set(k, (seen.get(k) ?? 0) + 1);
      if (expected.get(k) !== `${row.method} ${row.path}`) mismatched += 1;
      if (row.status >= 400 && !(row.status === 409 && isStaleStatusRefusal(row.body))) refused += 1;
    }
    const missing = [...expected.keys()].filter((k) => !seen.has(k)).length;
    const duplicated = [...seen.values()].filter((n) => n > 1).length;
    check('every queued write in the server log exactly once', missing === 0 && duplicated === 0 && mismatched === 0 && logs.length === written.length, `${written.length} queued, ${logs.length} logged, ${missing} missing, ${duplicated} duplicated, ${mismatched} not the queued request`);
    check('no write refused by the server but stale status changes', refused === 0, `${refused} other stored refusals`);

    // Applied once: every created record exists once, uploads are complete, no record nobody queued.
    const tables = { createNotification: notifications, uploadFile: files, attachFile: attachments, addCounterReading: counterReadings } as const;
    let absent = 0;
    let extra = 0;
    for (const [action, table] of Object.entries(tables)) {
      const ids = written.filter((w) => w.action === action).map((w) => w.nodeid);
      const found = new Set<string>();
      for (let i = 0; i < ids.length; i += 500) for (const row of await database.db.select({ nodeid: table.nodeid }).from(table).where(inArray(table.nodeid, ids.slice(i, i + 500)))) found.add(row.nodeid);
      absent += ids.filter((id) => !found.has(id)).length;
      const soakTenants = plants.map((p) => p.plant.legalentitynodeid);
      const all = await database.db.select({ nodeid: table.nodeid }).from(table).where(inArray(table.legalentitynodeid, soakTenants));
      const fromFactories = action === 'createNotification' ? plants.length : 0;
      extra += Math.max(0, all.length - fromFactories - new Set(ids).size);
    }
    const uploads = written.filter((w) => w.action === 'uploadFile').map((w) => w.nodeid);
    const incomplete = uploads.length ? (await database.db.select({ status: files.status }).from(files).where(inArray(files.nodeid, uploads))).filter((r) => r.status !== 'complete').length : 0;
    check('every created record exists once, uploads complete', absent === 0 && extra === 0 && incomplete === 0, `${absent} missing, ${extra} unexpected, ${incomplete} incomplete uploads of ${uploads.length}`);

    let wrongSelections = 0;
    for (const [usernodeid, selection] of lastSelection) {
      const rows = await database.db.select().from(structureSubscriptions).where(eq(structureSubscriptions.usernodeid, usernodeid));
      if (!isDeepStrictEqual(selectionOf(rows), selection)) wrongSelections += 1;
    }
    check("each user's last dashboard selection on the server", wrongSelections === 0, `${wrongSelections} of ${lastSelection.size} differ`);

    // Converge: a sample of mirrors equals a fresh full pull of the same user.
    const step = Math.max(1, Math.floor(tablets.length / MIRROR_SAMPLE));
    const sample = tablets.filter((_, i) => i % step === 0).slice(0, MIRROR_SAMPLE);
    const diverged: string[] = [];
    for (const tablet of sample) {
      const { mirror, fresh } = await mirrorAndFreshView(tablet.device, tablet.user, balancer.url);
      if (!isDeepStrictEqual(mirror, fresh)) diverged.push(`tablet ${tablet.index}: ${Object.keys(fresh).filter((kind) => !isDeepStrictEqual(mirror[kind], fresh[kind])).join(',')}`);
    }
    check('sampled mirrors equal a fresh pull', diverged.length === 0, `${sample.length} compared${diverged.length ? `; differ: ${diverged.slice(0, 5).join('; ')}` : ''}`);

    const rss: Record<string, RssVerdict> = {};
    for (const instance of instances) rss[instance.name] = rssVerdict(instance.rssKb);
    check('server memory flat (last third within 15 % of the second)', Object.values(rss).every((v) => v.flat), Object.entries(rss).map(([name, v]) => `${name}: ${v.secondThirdMeanMb} → ${v.lastThirdMeanMb} MB (${(v.growth * 100).toFixed(1)} %)`).join(', '));

    // ---- figures
    const load = exchanges.slice(loginRequests, loadEnd);
    const startupStorm = exchanges.slice(0, loginRequests);
    const byKind: Record<string, ReturnType<typeof summarizeLatency>> = {};
    for (const kind of [...new Set(load.map((e) => e.kind))].sort()) byKind[kind] = summarizeLatency(load.filter((e) => e.kind === kind).map((e) => e.ms));
    const byAction: Record<string, number> = {};
    for (const w of written) byAction[w.action] = (byAction[w.action] ?? 0) + 1;
    const passed = checks.filter((c) => c.ok).length;
    const failed = checks.length - passed;
    const report = {
      finishedAt: new Date().toISOString(),
      seconds: SECONDS,
      devices: tablets.length,
      plants: PLANTS,
      instances: instances.length,
      seed: SEED,
      thinkMs: THINK_MS,
      loadSeconds: Math.round(loadSeconds),
      requests: { startupStorm: loginRequests, load: loadRequests, total: exchanges.length, perSecond: Math.round((loadRequests / loadSeconds) * 10) / 10 },
      userActions: counts.writes,
      queuedWrites: written.length,
      writesByAction: byAction,
      activity: counts,
      latencyMs: {
        all: summarizeLatency(load.map((e) => e.ms)),
        byKind,
        startupStorm: { login: summarizeLatency(startupStorm.filter((e) => e.kind === 'POST /api/auth/login').map((e) => e.ms)), firstPull: summarizeLatency(startupStorm.filter((e) => e.kind === 'GET /api/sync/pull').map((e) => e.ms)) },
      },
      rss,
      soakProcessEventLoopLagMs: { p50: Math.round(lag.percentile(50) / 1e6), p99: Math.round(lag.percentile(99) / 1e6), max: Math.round(lag.max / 1e6) },
      checks,
      passed,
      failed,
    };
    await mkdir(join(root, 'test-results'), { recursive: true });
    await writeFile(REPORT, `${JSON.stringify(report, null, 2)}\n`);
    printSummary(report);
    return failed === 0 ? 0 : 1;
  } finally {
    if (rssTimer) clearInterval(rssTimer);
    for (const tablet of tablets) await tablet.device.close().catch(() => undefined);
    await balancer?.close();
    await Promise.all(instances.map(stopInstance));
    await database?.close().catch(() => undefined);
    // why FORCE: a crashed instance may leave a connection behind; the run's database must go regardless.
    await onServer(SERVER_URL, `DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch((error: unknown) => console.error(`could not drop ${dbName}: ${String(error)}`));
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** An error with its causes (fetch's "fetch failed" says nothing without its cause). */
function describeError(error: unknown): string {
  const parts: string[] = [];
  for (let current = error, depth = 0; current && depth < 4; current = (current as { cause?: unknown }).cause, depth++) {
    parts.push(current instanceof Error ? `${current.name}: ${current.message}` : String(current));
  }
  return parts.join(' ← ');
}

/** A small JPEG as a camera would store it: the SOI marker, random bytes, EOI. */
function jpegBytes(r: Random): ArrayBuffer {
  const size = r.int(2_000, 30_000);
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = r.int(0, 255);
  bytes.set([0xff, 0xd8, 0xff, 0xe0], 0);
  bytes.set([0xff, 0xd9], size - 2);
  return bytes.buffer;
}

async function inBatches<T>(items: readonly T[], size: number, work: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

function printSummary(report: {
  devices: number;
  seconds: number;
  requests: { load: number; perSecond: number };
  queuedWrites: number;
  latencyMs: { all: { p50: number; p95: number; p99: number }; byKind: Record<string, { count: number; p50: number; p95: number; p99: number }>; startupStorm: { login: { p99: number }; firstPull: { p99: number } } };
  rss: Record<string, RssVerdict>;
  soakProcessEventLoopLagMs: { p99: number };
  checks: Check[];
  passed: number;
  failed: number;
}): void {
  const lines = [
    '',
    `soak: ${report.devices} tablets, ${report.seconds} s, ${report.requests.load} requests (${report.requests.perSecond}/s), ${report.queuedWrites} queued writes`,
    `latency all: p50 ${report.latencyMs.all.p50} ms, p95 ${report.latencyMs.all.p95} ms, p99 ${report.latencyMs.all.p99} ms`,
    `start-up storm (every tablet logs in and pulls at once): login p99 ${report.latencyMs.startupStorm.login.p99} ms, first pull p99 ${report.latencyMs.startupStorm.firstPull.p99} ms`,
    ...Object.entries(report.latencyMs.byKind).map(([kind, s]) => `  ${kind.padEnd(44)} ${String(s.count).padStart(6)}  p50 ${s.p50}  p95 ${s.p95}  p99 ${s.p99}`),
    ...Object.entries(report.rss).map(([name, v]) => `rss ${name}: start ${v.startMb} MB, end ${v.endMb} MB, max ${v.maxMb} MB, 2nd third ${v.secondThirdMeanMb} → last third ${v.lastThirdMeanMb} MB`),
    `soak process event-loop lag p99: ${report.soakProcessEventLoopLagMs.p99} ms`,
    ...report.checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`),
    `soak: ${report.passed} checks passed, ${report.failed} failed (report: test-results/soak.json)`,
  ];
  console.log(lines.join('\n'));
}

const hardTimeout = setTimeout(() => {
  console.error(`soak: did not finish within ${HARD_TIMEOUT_MS / 1000} s`);
  for (const instance of running) instance.child.kill('SIGKILL');
  process.exit(1);
}, HARD_TIMEOUT_MS);
hardTimeout.unref();

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('soak failed:', error);
    process.exit(1);
  },
);
