/**
 * Server files kept on the device, so a machine's manual or a fault's photo opens in a hall without Wi-Fi
 * (docs/client.md § Files on the device). A file is kept under its nodeid (one immutable version) in the local
 * database (tables `cachedFiles` + `cachedFileBytes`, schema v4), never under its signed URL, which expires.
 *
 * Budget: files kept because they were opened are evicted least recently used first once they take more than
 * `fileCacheBudget()`; files of a machine made available offline (pinned) are never evicted. The bytes of unsynced
 * work are not here at all: they live in `fileBytes` with their outbox entries, which this module never touches.
 */
import { getLocalDb, type CachedFileMeta, type LocalDatabase } from '../db/local-db';

const MiB = 1024 * 1024;
/** The most that files kept only because they were opened may take. */
export const FILE_CACHE_CAP = 256 * MiB;
/** Their share of the browser's quota where the quota is real (Safari, Firefox, a persisted Chromium origin). */
export const FILE_CACHE_QUOTA_SHARE = 0.2;
/** Chromium reports `usage + 10 GiB` as the quota of a non-persisted origin, against fingerprinting. */
export const CHROMIUM_QUOTA_PAD = 10 * 1024 * MiB;
/** Kept free beside a machine's files when it is made available offline (the mirror and the outbox grow too). */
export const OFFLINE_RESERVE = 50 * MiB;

export interface StorageEstimateLike {
  quota?: number;
  usage?: number;
}

/** Whether the reported quota says how much the device can hold, or is Chromium's padding (usage + 10 GiB). */
export function isQuotaMeaningful(estimate: StorageEstimateLike | null | undefined): boolean {
  if (!estimate || estimate.quota === undefined || estimate.usage === undefined) return false;
  return Math.abs(estimate.quota - estimate.usage - CHROMIUM_QUOTA_PAD) > MiB;
}

/** Bytes that files kept after opening may take: a share of a real quota, at most FILE_CACHE_CAP. */
export function fileCacheBudget(estimate: StorageEstimateLike | null | undefined): number {
  if (!estimate?.quota) return FILE_CACHE_CAP;
  return Math.min(FILE_CACHE_CAP, Math.floor(estimate.quota * FILE_CACHE_QUOTA_SHARE));
}

/** Free room the browser admits to, or null when it does not say (no Storage API). */
export function freeSpace(estimate: StorageEstimateLike | null | undefined): number | null {
  if (!estimate || estimate.quota === undefined || estimate.usage === undefined) return null;
  return Math.max(0, estimate.quota - estimate.usage);
}

/**
 * Which files to evict so the unpinned ones fit the budget: least recently used first (ties by nodeid, so the
 * order is stable); pinned files neither count against the budget nor go. `keep` is never chosen (the file
 * being stored right now, when it alone is larger than the budget, is still shown; it is evicted next time).
 */
export function planEviction(entries: readonly Pick<CachedFileMeta, 'nodeid' | 'size' | 'lastUsed' | 'pinnedBy'>[], budget: number, keep?: string): string[] {
  const unpinned = entries.filter((entry) => entry.pinnedBy.length === 0);
  let total = unpinned.reduce((sum, entry) => sum + entry.size, 0);
  const evict: string[] = [];
  const oldestFirst = [...unpinned].sort((a, b) => a.lastUsed - b.lastUsed || (a.nodeid < b.nodeid ? -1 : 1));
  for (const entry of oldestFirst) {
    if (total <= budget) break;
    if (entry.nodeid === keep) continue;
    evict.push(entry.nodeid);
    total -= entry.size;
  }
  return evict;
}

async function estimate(): Promise<StorageEstimateLike | null> {
  const storage = globalThis.navigator?.storage;
  return (await storage?.estimate?.().catch(() => null)) ?? null;
}

/** The kept file as a Blob, or null; a hit counts as a use (it moves to the back of the eviction order). */
export async function readCachedFile(db: LocalDatabase, nodeid: string, now = Date.now()): Promise<Blob | null> {
  const [meta, stored] = await Promise.all([db.cachedFiles.get(nodeid), db.cachedFileBytes.get(nodeid)]);
  if (!meta || !stored) return null;
  await db.cachedFiles.update(nodeid, { lastUsed: now });
  return new Blob([stored.bytes], { type: meta.mimetype });
}

/** Whether the file is on the device (without counting it as a use). */
export async function hasCachedFile(db: LocalDatabase, nodeid: string): Promise<boolean> {
  return (await db.cachedFiles.get(nodeid)) !== undefined;
}

export interface StoreOptions {
  /** The machine that makes this file available offline: the file is pinned for it. */
  pinFor?: string;
  /** The unpinned files' budget (default from the storage estimate). */
  budget?: number;
  now?: number;
}

/**
 * Keeps a file's bytes, then evicts the least recently used unpinned files beyond the budget — all in one
 * transaction, so metadata and bytes never disagree. A file kept again keeps its pins.
 */
export async function storeCachedFile(db: LocalDatabase, file: { nodeid: string; bytes: ArrayBuffer; mimetype: string }, options: StoreOptions = {}): Promise<void> {
  const now = options.now ?? Date.now();
  const budget = options.budget ?? fileCacheBudget(await estimate());
  await db.transaction('rw', [db.cachedFiles, db.cachedFileBytes], async () => {
    const previous = await db.cachedFiles.get(file.nodeid);
    const pinnedBy = [...new Set([...(previous?.pinnedBy ?? []), ...(options.pinFor ? [options.pinFor] : [])])];
    await db.cachedFileBytes.put({ nodeid: file.nodeid, bytes: file.bytes });
    await db.cachedFiles.put({ nodeid: file.nodeid, mimetype: file.mimetype, size: file.bytes.byteLength, lastUsed: now, cachedAt: previous?.cachedAt ?? now, pinnedBy });
    const evict = planEviction(await db.cachedFiles.toArray(), budget, file.nodeid);
    await db.cachedFiles.bulkDelete(evict);
    await db.cachedFileBytes.bulkDelete(evict);
  });
}

/**
 * Pins exactly `fileids` for the machine (files it no longer has lose its pin and become ordinary, evictable
 * entries) and records the machine as available offline. Files not on the device are ignored.
 */
export async function pinMachineFiles(db: LocalDatabase, machine: string, fileids: readonly string[], now = Date.now()): Promise<{ files: number; bytes: number }> {
  return db.transaction('rw', [db.cachedFiles, db.offlineMachines], async () => {
    const wanted = new Set(fileids);
    const before = await db.cachedFiles.where('pinnedBy').equals(machine).toArray();
    for (const meta of before) if (!wanted.has(meta.nodeid)) await db.cachedFiles.update(meta.nodeid, { pinnedBy: meta.pinnedBy.filter((id) => id !== machine) });
    const present = (await db.cachedFiles.bulkGet([...wanted])).filter((meta): meta is CachedFileMeta => meta !== undefined);
    for (const meta of present) if (!meta.pinnedBy.includes(machine)) await db.cachedFiles.update(meta.nodeid, { pinnedBy: [...meta.pinnedBy, machine] });
    const summary = { files: present.length, bytes: present.reduce((sum, meta) => sum + meta.size, 0) };
    await db.offlineMachines.put({ nodeid: machine, refreshedAt: now, ...summary });
    return summary;
  });
}

/** The machine is no longer kept offline: its files stay, as ordinary entries the budget may evict. */
export async function unpinMachine(db: LocalDatabase, machine: string, budget?: number): Promise<void> {
  const limit = budget ?? fileCacheBudget(await estimate());
  await db.transaction('rw', [db.cachedFiles, db.cachedFileBytes, db.offlineMachines], async () => {
    const pinned = await db.cachedFiles.where('pinnedBy').equals(machine).toArray();
    for (const meta of pinned) await db.cachedFiles.update(meta.nodeid, { pinnedBy: meta.pinnedBy.filter((id) => id !== machine) });
    await db.offlineMachines.delete(machine);
    const evict = planEviction(await db.cachedFiles.toArray(), limit);
    await db.cachedFiles.bulkDelete(evict);
    await db.cachedFileBytes.bulkDelete(evict);
  });
}

export interface FileCacheUsage {
  files: number;
  bytes: number;
  pinnedBytes: number;
  machines: number;
}

export async function readFileCacheUsage(db: LocalDatabase): Promise<FileCacheUsage> {
  const [metas, machines] = await Promise.all([db.cachedFiles.toArray(), db.offlineMachines.count()]);
  return {
    files: metas.length,
    bytes: metas.reduce((sum, meta) => sum + meta.size, 0),
    pinnedBytes: metas.filter((meta) => meta.pinnedBy.length > 0).reduce((sum, meta) => sum + meta.size, 0),
    machines,
  };
}

/** Downloads a file from its signed URL and returns it; keeping it is best effort (a full disk must not cost the user the file on screen). */
export async function downloadToCache(nodeid: string, url: string, options: { signal?: AbortSignal; pinFor?: string } = {}): Promise<Blob> {
  const response = await fetch(url, { signal: options.signal });
  if (!response.ok) throw new Error(`file download failed: ${response.status}`);
  const blob = await response.blob();
  const mimetype = blob.type.split(';')[0]?.trim() || 'application/octet-stream';
  const stored = storeCachedFile(getLocalDb(), { nodeid, bytes: await blob.arrayBuffer(), mimetype }, { pinFor: options.pinFor });
  if (options.pinFor) await stored;
  else await stored.catch(() => undefined);
  return new Blob([blob], { type: mimetype });
}

/** Keeps bytes already on the device (a photo taken here, before its upload frees them) for offline reading. */
export async function keepLocalFile(nodeid: string, bytes: ArrayBuffer, mimetype: string): Promise<void> {
  const db = getLocalDb();
  if (await hasCachedFile(db, nodeid)) return;
  await storeCachedFile(db, { nodeid, bytes, mimetype }).catch(() => undefined);
}
