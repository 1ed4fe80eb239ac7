// why: the client's Dexie database runs in Node against fake-indexeddb, a full in-memory IndexedDB.
import 'fake-indexeddb/auto';
import { asc, eq } from 'drizzle-orm';
import { sessionSchema, type Session } from '../../../src/shared/api/auth';
import { MIRROR_KIND_NAMES, LocalDatabase, type MirrorKind, type MirrorRow } from '../../../src/client/db/local-db';
import { createApiClient, type ApiClient } from '../../../src/client/lib/api-client';
import { getClientId, pendingEntries, type WriteContext } from '../../../src/client/sync/outbox';
import { ensureMirrorOwner, pull, type PullResult } from '../../../src/client/sync/pull';
import { createSender, type DrainResult, type Sender } from '../../../src/client/sync/sender';
import type { Db } from '../../../src/server/db/client';
import { syncClients, syncMutations } from '../../../src/server/db/schema';
import { memoryTokens } from '../../unit/support/memory-tokens';

/**
 * A simulated tablet for the client-against-real-server sync tests: its own IndexedDB (fake-indexeddb, a unique
 * name), the real ApiClient (bearer + one shared refresh on 401), the real sender and pull. `sync()` is one run
 * of the engine (sync-engine.ts `runOnce`: send the outbox, then pull unless the session ended); the engine's
 * browser triggers, Web Lock and timers are left out, and backoff delays are not waited for (the test decides
 * when the next run happens), so every run is deterministic.
 */
export interface DeviceOptions {
  /** Where the device's requests go: the fault proxy's URL, or the server's. */
  baseUrl: string;
  /** The device's clock (createdAt of entries, device time stamps); default Date.now. */
  now?: () => number;
  /** Size of the acknowledged-writes log kept for a server restored from a backup. */
  ackedLogSize?: number;
  /** Reuse the IndexedDB of a device that was "killed". */
  dbName?: string;
  timeoutMs?: number;
}

export interface Credentials {
  email: string;
  password: string;
}

let deviceCounter = 0;

export class Device {
  readonly dbName: string;
  db: LocalDatabase;
  api: ApiClient;
  sender: Sender;
  session: Session | null = null;
  baseUrl: string;
  private readonly options: DeviceOptions;

  constructor(options: DeviceOptions) {
    this.options = options;
    this.baseUrl = options.baseUrl;
    this.dbName = options.dbName ?? `device-${process.pid}-${++deviceCounter}-${Math.random().toString(36).slice(2)}`;
    this.db = new LocalDatabase(this.dbName);
    this.api = this.createApi();
    this.sender = this.createSender();
  }

  // The session's pair as the device holds it; tests read it and hand it from one tab to another.
  private readonly tokens = memoryTokens(null, null);
  get access(): string | null { return this.tokens.access; }
  set access(token: string | null) { this.tokens.access = token; }
  get refresh(): string | null { return this.tokens.refresh; }
  set refresh(token: string | null) { this.tokens.refresh = token; }

  private createApi(): ApiClient {
    return createApiClient({ baseUrl: `${this.baseUrl}/api`, tokens: this.tokens.source, timeout: this.options.timeoutMs ?? 10_000 });
  }

  private createSender(): Sender {
    return createSender({
      db: this.db,
      api: this.api,
      getUser: () => (this.access ? (this.session?.usernodeid ?? null) : null),
      origin: this.baseUrl,
      random: () => 0.5,
      ...(this.options.now ? { now: this.options.now } : {}),
      ...(this.options.ackedLogSize !== undefined ? { ackedLogSize: this.options.ackedLogSize } : {}),
      timeoutMs: this.options.timeoutMs ?? 10_000,
    });
  }

  /** Sends the device's traffic somewhere else (a restarted server behind a new proxy). */
  retarget(baseUrl: string): void {
    this.baseUrl = baseUrl;
    this.api = this.createApi();
    this.sender = this.createSender();
  }

  get usernodeid(): string {
    if (!this.session) throw new Error('device has no session');
    return this.session.usernodeid;
  }

  /** The real login route; a new user on this device gets its own client id (outbox.ts getClientId). */
  async login(user: Credentials): Promise<Session> {
    const session = await this.api.post('auth/login', { json: { email: user.email, password: user.password }, auth: false, schema: sessionSchema });
    this.session = session;
    this.access = session.accesstoken;
    this.refresh = session.refreshtoken;
    return session;
  }

  /** Ends the session locally, as a dead refresh token does. The outbox stays. */
  logoutLocally(): void {
    this.access = null;
    this.refresh = null;
  }

  context(): WriteContext {
    return { db: this.db, usernodeid: this.usernodeid, ...(this.options.now ? { now: this.options.now } : {}) };
  }

  clientId(): Promise<string> {
    return getClientId(this.db, this.usernodeid);
  }

  async pending() {
    return pendingEntries(this.db, await this.clientId());
  }

  send(): Promise<DrainResult> {
    return this.sender.drain();
  }

  async pull(): Promise<PullResult> {
    await ensureMirrorOwner(this.db, this.usernodeid);
    return pull({ db: this.db, api: this.api, clientId: await this.clientId(), ...(this.options.now ? { now: this.options.now } : {}) });
  }

  /** One engine run: send, then pull (also after a backoff, as runOnce does); a failed pull is reported (`pullError`), not thrown. */
  async sync(): Promise<{ drain: DrainResult; pulled: boolean; pullError?: unknown }> {
    const drain = await this.send();
    if (drain.outcome.type === 'session-expired' || drain.outcome.type === 'no-session') return { drain, pulled: false };
    try {
      await this.pull();
      return { drain, pulled: true };
    } catch (pullError) {
      return { drain, pulled: false, pullError };
    }
  }

  /** Runs until the outbox is empty and a pull went through; fails after `rounds` runs. */
  async syncUntilIdle(rounds = 10): Promise<void> {
    for (let i = 0; i < rounds; i++) {
      const { drain, pulled } = await this.sync();
      if (drain.outcome.type === 'idle' && pulled) return;
    }
    throw new Error(`device did not get idle in ${rounds} runs: ${JSON.stringify((await this.pending()).map((e) => [e.mutationId, e.action, e.lastError]))}`);
  }

  /** The tab is killed: the database connection goes away; `revive()` opens the same IndexedDB again. */
  kill(): void {
    this.db.close();
  }

  revive(): void {
    this.db = new LocalDatabase(this.dbName);
    this.sender = this.createSender();
  }

  /** Every mirror table, rows sorted by nodeid. */
  async mirror(kinds: readonly MirrorKind[] = MIRROR_KIND_NAMES): Promise<Record<string, MirrorRow[]>> {
    const result: Record<string, MirrorRow[]> = {};
    for (const kind of kinds) result[kind] = (await this.db.mirror(kind).toArray()).sort((a, b) => a.nodeid.localeCompare(b.nodeid));
    return result;
  }

  async close(): Promise<void> {
    this.db.close();
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.deleteDatabase(this.dbName);
      request.onsuccess = () => resolve();
      request.onerror = () => reject(request.error as Error);
      request.onblocked = () => resolve();
    });
  }
}

/** What the server's mutation log holds for one client: mutation id, method, path and stored status, in order. */
export async function serverLog(db: Db, clientid: string): Promise<{ mid: number; method: string; path: string; status: number }[]> {
  const rows = await db
    .select({ mid: syncMutations.mutationId, method: syncMutations.method, path: syncMutations.path, status: syncMutations.status })
    .from(syncMutations)
    .where(eq(syncMutations.clientid, clientid))
    .orderBy(asc(syncMutations.mutationId));
  return rows;
}

export async function serverLastMutationId(db: Db, clientid: string): Promise<number | undefined> {
  const [row] = await db.select({ last: syncClients.lastMutationId }).from(syncClients).where(eq(syncClients.clientid, clientid));
  return row?.last;
}

/**
 * Invariant 4 (converge): the device's mirror equals what a device that never saw a fault gets from a full pull
 * for the same user right now. Returns both so the test can expect them equal (a readable diff).
 */
export async function mirrorAndFreshView(device: Device, user: Credentials, baseUrl: string): Promise<{ mirror: Record<string, MirrorRow[]>; fresh: Record<string, MirrorRow[]> }> {
  const fresh = new Device({ baseUrl });
  try {
    await fresh.login(user);
    await fresh.pull();
    return { mirror: await device.mirror(), fresh: await fresh.mirror() };
  } finally {
    await fresh.close();
  }
}
