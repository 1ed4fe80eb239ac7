/**
 * The device's offline database (docs/sync.md § Client side): a mirror table per synced entity kind, the
 * outbox of writes not yet acknowledged by the server, dead letters, stored file bytes and the sync state.
 *
 * Versioned: every schema change is a new entry in SCHEMA_VERSIONS with an upgrade function that MIGRATES the
 * outbox and dead letters (invariant 1: a local DB upgrade never drops a write). Mirror tables may be cleared
 * by an upgrade (a full resync refills them); outbox, deadLetters, fileBytes and syncState never are.
 */
import Dexie, { type Collection, type Table, type Transaction } from 'dexie';
import { v4 as uuidv4 } from 'uuid';
import type { SyncKind } from '../../shared/api/sync';

export const LOCAL_DATABASE_NAME = 'anlagenbuch-data';

/**
 * A mirror table per kind of the sync contract (SYNC_KINDS, src/shared/api/sync.ts): `satisfies` makes a kind
 * added there without a table here a compile error. Values are the secondary indexes the screens query by, as
 * the latest schema version has them (a change here is a new entry in SCHEMA_VERSIONS, which declares it).
 *
 * Every index is written on every put, so the first sync of a big plant pays for each one (docs/decisions.md,
 * "Mirror indexes: only what a screen queries"): a query by the first fields of a compound index uses that index
 * (Dexie's virtual indexes) instead of an index of its own — `where('equipmentnodeid')` and
 * `where('[equipmentnodeid+status]')` on notifications run on `[equipmentnodeid+status+created]`. A compound
 * index holds only rows with every one of its fields set; the feed's rows always have them (src/shared/rows).
 */
export const MIRROR_KINDS = {
  units: '',
  attachmentcategories: '',
  manufacturers: '',
  users: '',
  sites: '',
  shiftmodels: '',
  shifts: 'shiftmodelnodeid',
  areas: 'sitenodeid',
  equipmentpools: '',
  subscriptions: 'usernodeid',
  brands: '',
  equipmenttypes: 'brandnodeid',
  equipmentclasses: '',
  files: '',
  equipment: 'areanodeid, equipmentpoolnodeid, equipmenttypenodeid',
  countertypes: '',
  counters: 'equipmentnodeid',
  counterreadings: '[counternodeid+takenat]',
  maintenancecategories: '',
  maintenancetasks: 'equipmentnodeid',
  notifications: '[status+created], [status+type+created], [equipmentnodeid+status+created]',
  notificationassignments: 'notificationnodeid, usernodeid',
  workflows: 'notificationnodeid, maintenancetasknodeid',
  workflowsteps: 'workflownodeid',
  faqs: 'equipmentnodeid',
  reports: 'notificationnodeid',
  costtypes: '',
  costs: 'notificationnodeid',
  attachments: 'isattachmentof',
  chatrooms: 'notificationnodeid',
  chatmessages: 'chatroomnodeid',
} as const satisfies Record<SyncKind, string>;

export type MirrorKind = keyof typeof MIRROR_KINDS;
export const MIRROR_KIND_NAMES = Object.keys(MIRROR_KINDS) as MirrorKind[];

export function isMirrorKind(value: string): value is MirrorKind {
  return Object.hasOwn(MIRROR_KINDS, value);
}

/** A mirrored record: the server's fields as the API sends them, plus its change-feed version. */
export interface MirrorRow {
  nodeid: string;
  version?: number;
  [field: string]: unknown;
}

export type HttpMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A write waiting for the server. Headers are NOT stored: X-Client-Id, X-Mutation-Id and the bearer are built at send time. */
export interface OutboxEntry {
  seq?: number;
  /** Per-client sequence (1, 2, 3, …) taken from the counter in the same transaction as the write. */
  mutationId: number;
  /** The client id (device + user) the mutation id belongs to. */
  clientId: string;
  /** Whose write it is: only that user's session sends it. */
  usernodeid: string;
  /** What the user did, for the sync panel ("createNotification", "updateNotificationStatus", ...). */
  action: string;
  method: HttpMethod;
  /** API path below /api, e.g. "notifications" or "notifications/<id>". */
  path: string;
  body: unknown;
  /** The mirror record this write changes. */
  kind: MirrorKind;
  nodeid: string;
  /** Field names this write changed; a pull never overwrites them while the entry is pending. */
  fields: string[];
  /** The values written to the mirror (re-applied after a full resync so the optimistic view survives it). */
  values: Record<string, unknown>;
  /** The mirror's values of those fields before the write: restored when the server refuses it (dead letter). */
  previous: Record<string, unknown>;
  /** Whether the write created the record (then the mirror row is this entry's alone until acknowledged). */
  creates: boolean;
  /** Stored file bytes this write needs (fileBytes keys): uploaded after registration, kept until attached. */
  dependsOn: string[];
  /** Set on a file registration: after the server acknowledged it, PUT these stored bytes to the signed URL. */
  upload?: { fileid: string };
  /**
   * The user action this request is part of: the mutation id (same client id) of the entry that describes it. A
   * report with a photo is three requests (the report, the file's registration, the attachment) but one thing the
   * user did; the app bar counts and the sync panel lists user actions. Not indexed (no schema change); entries
   * queued before it existed have none and count as one action each.
   */
  userAction?: number;
  /** Device time of the user's action: shown in the sync panel, never used for ordering. */
  createdAt: number;
  /** Failed send attempts (network, 408, 429, 5xx); a 401 refresh is not one. */
  attempts: number;
  lastError: string | null;
  /**
   * The names of the record the entry is about (a report's machine), as the device had them when the server
   * refused it: set on a dead letter, and kept when it is sent again, because the record may be gone from the
   * device by then (a deleted machine, taken off by the pull after the refusal).
   */
  subjectNames?: SubjectNames;
}

/**
 * What the screens call a record (a mirror row's `name`, `title` or `model`; plain or per language), and the name of
 * the machine it hangs on when its text names that too (`describe.machine`: a counter).
 */
export type SubjectNames = Partial<Record<'name' | 'title' | 'model' | 'machine', unknown>>;

export interface DeadLetter extends Omit<OutboxEntry, 'seq'> {
  id?: number;
  /** When the server refused it (device time, display only). */
  failedAt: number;
  status: number;
  /** The server's error body: {statusCode, error, message, details?}. */
  error: unknown;
}

/** An acknowledged write kept for a while, so a server restored from a backup can be given it again (scenario 15). */
export interface AckedEntry extends Omit<OutboxEntry, 'seq'> {
  ackedAt: number;
}

/** File content chosen on the device. ArrayBuffer + MIME type, not Blob: Safari loses Blobs in IndexedDB. */
export interface StoredFileBytes {
  fileid: string;
  /** What POST /files answered for it (bucketid, fileversion, url); the attachment's body needs it. */
  registered?: Record<string, unknown>;
  bytes: ArrayBuffer;
  mimetype: string;
  name: string;
  size: number;
  createdAt: number;
}

/**
 * A server file kept on the device so it opens offline (lib/file-cache.ts): its metadata, read without the bytes
 * for the budget and the eviction order. Keyed by the file's nodeid (one immutable version).
 */
export interface CachedFileMeta {
  nodeid: string;
  mimetype: string;
  size: number;
  /** Last time a screen showed or opened it (device time): eviction goes oldest first. */
  lastUsed: number;
  cachedAt: number;
  /** Machines made available offline that need this file; while any does, the file is never evicted. */
  pinnedBy: string[];
}

/** The bytes of a cached file: ArrayBuffer, not Blob (Safari loses Blobs in IndexedDB), in a table of their own. */
export interface CachedFileBytes {
  nodeid: string;
  bytes: ArrayBuffer;
}

/** A machine the user made available offline ("Offline verfügbar machen"). */
export interface OfflineMachine {
  nodeid: string;
  /** When its files were last fetched (device time). */
  refreshedAt: number;
  files: number;
  bytes: number;
}

export interface SyncStateRow {
  key: string;
  value: unknown;
}

interface SchemaVersion {
  version: number;
  stores: Record<string, string | null>;
  upgrade?: (tx: Transaction) => Promise<void>;
}

const storeOf = (indexes: string) => (indexes ? `nodeid, ${indexes}` : 'nodeid');
const mirrorStore = (kind: MirrorKind) => storeOf(MIRROR_KINDS[kind]);

/**
 * The mirror tables and their indexes as v1 shipped them. Released versions are frozen: Dexie upgrades an
 * installed database by the difference between the version it has and the next, so a released entry that
 * followed MIRROR_KINDS would hide a later change of an index from that difference.
 */
const V1_MIRROR_INDEXES: Record<string, string> = {
  units: '',
  attachmentcategories: '',
  manufacturers: '',
  users: '',
  sites: '',
  shiftmodels: '',
  shifts: 'shiftmodelnodeid',
  areas: 'sitenodeid',
  equipmentpools: '',
  brands: '',
  equipmenttypes: 'brandnodeid',
  equipmentclasses: '',
  files: 'fileid',
  equipment: 'areanodeid, equipmentpoolnodeid, equipmenttypenodeid',
  countertypes: '',
  counters: 'equipmentnodeid',
  counterreadings: 'counternodeid, [counternodeid+takenat]',
  maintenancecategories: '',
  maintenancetasks: 'equipmentnodeid',
  notifications: 'equipmentnodeid, status, [equipmentnodeid+status], maintenancetasknodeid',
  notificationassignments: 'notificationnodeid, usernodeid',
  workflows: 'notificationnodeid, maintenancetasknodeid',
  workflowsteps: 'workflownodeid',
  faqs: 'equipmentnodeid',
  reports: 'notificationnodeid',
  costtypes: '',
  costs: 'notificationnodeid',
  attachments: 'isattachmentof, filenodeid',
  chatrooms: 'notificationnodeid',
  chatmessages: 'chatroomnodeid',
};
const v1MirrorStores = Object.fromEntries(Object.entries(V1_MIRROR_INDEXES).map(([kind, indexes]) => [kind, storeOf(indexes)]));

/**
 * The schema history. Never edit a released entry; add the next one. Each upgrade must keep every outbox entry.
 */
export const SCHEMA_VERSIONS: readonly SchemaVersion[] = [
  {
    // v1: first release of the offline core.
    version: 1,
    stores: {
      ...v1MirrorStores,
      outbox: '++seq, mutationId, [kind+nodeid]',
      deadLetters: '++id',
      fileBytes: 'fileid',
      syncState: 'key',
    },
  },
  {
    // v2: outbox entries carry their client id (a device shared by two users keeps one mutation sequence per
    // user, because the server binds a client id to one user), plus the acknowledged-writes log for a server
    // restored from a backup. Existing entries get the client id stored in v1's sync state.
    version: 2,
    stores: {
      outbox: '++seq, mutationId, [kind+nodeid], [clientId+mutationId]',
      deadLetters: '++id, clientId',
      acked: '[clientId+mutationId]',
    },
    async upgrade(tx) {
      const syncState = tx.table<SyncStateRow, string>('syncState');
      const legacy = await syncState.get('clientId');
      const clientId = typeof legacy?.value === 'string' ? legacy.value : 'legacy';
      await tx
        .table<OutboxEntry, number>('outbox')
        .toCollection()
        .modify((entry) => {
          entry.clientId ??= clientId;
          entry.dependsOn ??= [];
          entry.values ??= {};
          entry.fields ??= [];
          entry.previous ??= {};
        });
      await tx
        .table<DeadLetter, number>('deadLetters')
        .toCollection()
        .modify((entry) => {
          entry.clientId ??= clientId;
        });
      await adoptLegacyClientId(tx, clientId);
    },
  },
  {
    // v3: the user's subscriptions (which plants, areas and pools the dashboard shows) are mirrored. Their rows
    // are older than a filled mirror's cursor, so the next pull starts again from 0 (rows are put again over
    // the same rows; nothing is dropped, the outbox is untouched).
    version: 3,
    stores: { subscriptions: 'nodeid, usernodeid' },
    async upgrade(tx) {
      const syncState = tx.table<SyncStateRow, string>('syncState');
      if ((await syncState.get('cursor')) !== undefined) await syncState.put({ key: 'pullFrom', value: 0 });
    },
  },
  {
    // v4: files kept for offline reading (lib/file-cache.ts): metadata by last use and by the machines that pin
    // them, the bytes apart (the budget reads metadata only), and the machines made available offline. New
    // tables only: nothing to migrate, the outbox and fileBytes are untouched.
    version: 4,
    stores: { cachedFiles: 'nodeid, lastUsed, *pinnedBy', cachedFileBytes: 'nodeid', offlineMachines: 'nodeid' },
  },
  {
    // v5: the notifications dashboard (sync/notifications-dashboard.ts) pages newest first by index instead of
    // reading 100,000 rows: by status, by status and type, by machine and status, each ending in `created` so a
    // date range is part of the key range. Indexes only: IndexedDB builds them over the rows already stored;
    // the outbox and every other table are untouched.
    version: 5,
    stores: {
      notifications:
        'nodeid, equipmentnodeid, status, [equipmentnodeid+status], maintenancetasknodeid, [status+created], [status+type+created], [equipmentnodeid+status+created]',
    },
  },
  {
    // v6: indexes no screen needs of their own are dropped, so the first sync of a big plant writes over half fewer
    // index entries (docs/decisions.md, "Mirror indexes: only what a screen queries"). Notifications keep the
    // dashboard's three compound indexes (machine and status queries use their first fields), counter readings
    // their compound one; the attachments' file index, the files' fileid index and the unqueried notification
    // indexes go. Indexes only: the rows, the outbox and every other table are untouched.
    version: 6,
    stores: {
      notifications: mirrorStore('notifications'),
      counterreadings: mirrorStore('counterreadings'),
      attachments: mirrorStore('attachments'),
      files: mirrorStore('files'),
    },
  },
  {
    // v7: the outbox by the files its entries need (`*dependsOn`): a batch's acknowledgement frees a photo's bytes
    // only when no pending entry still needs them, and read that from the whole outbox — a thousand entries
    // cloned for each batch of a long replay. An index only: IndexedDB builds it over the entries already stored.
    version: 7,
    stores: { outbox: '++seq, mutationId, [kind+nodeid], [clientId+mutationId], *dependsOn' },
  },
];

/**
 * v1 kept one client id and one counter per device; v2 looks them up per user (`clientId:<user>`,
 * `mutationCounter:<client id>`, outbox.ts). Without this the migrated entries would wait under an id nobody
 * sends for (scenario 13). The legacy id goes to the user of the oldest pending write, the counter continues
 * after the highest id used. v1 could not send another user's writes under that id (the server binds a client
 * id to one user), so their entries get a client id of their own, numbered from 1.
 */
async function adoptLegacyClientId(tx: Transaction, legacyId: string): Promise<void> {
  const syncState = tx.table<SyncStateRow, string>('syncState');
  const outbox = tx.table<OutboxEntry, number>('outbox');
  const entries = (await outbox.toArray()).filter((entry) => entry.clientId === legacyId).sort((a, b) => a.mutationId - b.mutationId);
  const letters = (await tx.table<DeadLetter, number>('deadLetters').toArray()).filter((letter) => letter.clientId === legacyId);
  const owner = entries[0]?.usernodeid ?? letters[0]?.usernodeid;
  if (!owner) return;
  const ownerKey = `clientId:${owner}`;
  if (!(await syncState.get(ownerKey))) await syncState.put({ key: ownerKey, value: legacyId });
  const counter = (await syncState.get('mutationCounter'))?.value;
  const highest = Math.max(typeof counter === 'number' ? counter : 0, ...entries.map((e) => e.mutationId), ...letters.map((l) => l.mutationId));
  await syncState.put({ key: `mutationCounter:${legacyId}`, value: highest });
  const others = new Map<string, OutboxEntry[]>();
  for (const entry of entries) if (entry.usernodeid !== owner) others.set(entry.usernodeid, [...(others.get(entry.usernodeid) ?? []), entry]);
  for (const [user, own] of others) {
    const id = uuidv4();
    await syncState.put({ key: `clientId:${user}`, value: id });
    await syncState.put({ key: `mutationCounter:${id}`, value: own.length });
    for (const [index, entry] of own.entries()) await outbox.update(entry.seq!, { clientId: id, mutationId: index + 1 });
  }
}

export const LATEST_SCHEMA_VERSION = SCHEMA_VERSIONS[SCHEMA_VERSIONS.length - 1]!.version;

export class LocalDatabase extends Dexie {
  outbox!: Table<OutboxEntry, number>;
  deadLetters!: Table<DeadLetter, number>;
  acked!: Table<AckedEntry, [string, number]>;
  fileBytes!: Table<StoredFileBytes, string>;
  syncState!: Table<SyncStateRow, string>;
  cachedFiles!: Table<CachedFileMeta, string>;
  cachedFileBytes!: Table<CachedFileBytes, string>;
  offlineMachines!: Table<OfflineMachine, string>;

  /** `upToVersion` exists for the upgrade test (open an old schema, then the current one). */
  constructor(name: string = LOCAL_DATABASE_NAME, options: { upToVersion?: number } = {}) {
    super(name);
    for (const schema of SCHEMA_VERSIONS) {
      if (options.upToVersion !== undefined && schema.version > options.upToVersion) break;
      const version = this.version(schema.version).stores(schema.stores);
      if (schema.upgrade) version.upgrade(schema.upgrade);
    }
  }

  mirror(kind: MirrorKind): Table<MirrorRow, string> {
    return this.table(kind);
  }

  mirrorTables(): Table<MirrorRow, string>[] {
    return MIRROR_KIND_NAMES.map((kind) => this.mirror(kind));
  }

  /**
   * A machine's notifications, read by the machine's part of `[equipmentnodeid+status+created]` (the table has no
   * index of the machine alone, MIRROR_KINDS). Bounds of two fields: `[machine, minKey]` sorts before and
   * `[machine, maxKey]` after every `[machine, status, created]`. why not `where('equipmentnodeid')`: Dexie's
   * virtual index pads that to three fields with one `maxKey` array twice, a key the IndexedDB specification's
   * conversion refuses (fake-indexeddb does; browsers that follow it would too).
   */
  notificationsOfMachine(equipmentnodeid: string): Collection<MirrorRow, string> {
    return this.mirror('notifications').where('[equipmentnodeid+status+created]').between([equipmentnodeid, Dexie.minKey], [equipmentnodeid, Dexie.maxKey], true, true);
  }
}

let appDatabase: LocalDatabase | null = null;
let outdated = false;
const outdatedListeners = new Set<() => void>();

/**
 * Another tab opened the database with a newer schema (the app was updated there). Dexie's default would close
 * and, on the next write, silently reopen the newer database with this tab's old code; so this tab stops using
 * it for good and the user is asked to reload (called at once if that already happened).
 */
export function onLocalDbOutdated(listener: () => void): () => void {
  outdatedListeners.add(listener);
  if (outdated) listener();
  return () => outdatedListeners.delete(listener);
}

/** The app's database, created on first use (so importing this module in Node does not open IndexedDB). */
export function getLocalDb(): LocalDatabase {
  if (!appDatabase) {
    const db = new LocalDatabase();
    db.on('versionchange', () => {
      db.close({ disableAutoOpen: true });
      outdated = true;
      outdatedListeners.forEach((listener) => listener());
      return false; // why: keeps Dexie's default handler (close, then auto-reopen) from running
    });
    appDatabase = db;
  }
  return appDatabase;
}

/** True for the browser's "disk full / over quota" error, however the engine wraps it. */
export function isQuotaExceeded(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const name = (current as { name?: unknown }).name;
    if (name === 'QuotaExceededError' || name === 'QuotaExceeded') return true;
    current = (current as { inner?: unknown; cause?: unknown }).inner ?? (current as { cause?: unknown }).cause;
  }
  return false;
}
