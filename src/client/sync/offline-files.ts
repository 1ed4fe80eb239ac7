/**
 * Files on the device (docs/client.md § Files on the device): which files a machine has (read from the mirror),
 * "Offline verfügbar machen" (download them all and pin them), the notification photos with their file ids, and
 * the live figures the sync panel shows. The cache itself is lib/file-cache.ts.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { fileDownloadSchema } from '../../shared/api/files';
import { getLocalDb, isQuotaExceeded, type LocalDatabase, type MirrorRow, type OfflineMachine } from '../db/local-db';
import { api } from '../lib/api';
import { freeSpace, hasCachedFile, OFFLINE_RESERVE, pinMachineFiles, readFileCacheUsage, unpinMachine, downloadToCache, type FileCacheUsage, type StorageEstimateLike } from '../lib/file-cache';
import { readAttachments, type AttachmentItem } from './machine-mirror';

export interface MachineFile {
  /** The file's nodeid (what GET /api/files/{nodeid}/download and the cache are keyed by). */
  nodeid: string;
  /** From the mirror's file row; null when the server did not say. */
  size: number | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

async function attachmentsOf(db: LocalDatabase, owners: string[]): Promise<MirrorRow[]> {
  return owners.length === 0 ? [] : db.mirror('attachments').where('isattachmentof').anyOf(owners).toArray();
}

/**
 * Every file a technician may need at the machine: its photo and nameplate, its documents of every category, the
 * files of its FAQs, and the photos of its notifications (with their reports and workflow steps). Only files the
 * server has completely; bytes still waiting for their upload are on the device already (fileBytes).
 */
export async function collectMachineFiles(db: LocalDatabase, machine: string): Promise<MachineFile[]> {
  const row = await db.mirror('equipment').get(machine);
  if (!row) return [];
  const [notifications, faqs] = await Promise.all([db.notificationsOfMachine(machine).toArray(), db.mirror('faqs').where('equipmentnodeid').equals(machine).toArray()]);
  const notificationIds = notifications.map((n) => n.nodeid);
  const [reports, workflows] = await Promise.all([
    notificationIds.length ? db.mirror('reports').where('notificationnodeid').anyOf(notificationIds).toArray() : [],
    notificationIds.length ? db.mirror('workflows').where('notificationnodeid').anyOf(notificationIds).toArray() : [],
  ]);
  const steps = workflows.length ? await db.mirror('workflowsteps').where('workflownodeid').anyOf(workflows.map((w) => w.nodeid)).toArray() : [];
  const owners = [machine, ...notificationIds, ...faqs.map((f) => f.nodeid), ...reports.map((r) => r.nodeid), ...steps.map((s) => s.nodeid)];
  const attachments = (await attachmentsOf(db, owners)).filter((a) => a.pendingdelete !== true);
  const ids = [text(row.imagefilenodeid), text(row.typenameplatefilenodeid), ...attachments.map((a) => text(a.filenodeid))].filter((id): id is string => id !== null);
  const unique = [...new Set(ids)];
  const files = await db.mirror('files').bulkGet(unique);
  return unique.flatMap((nodeid, index) => {
    const file = files[index];
    if (!file || file.status !== 'complete') return [];
    return [{ nodeid, size: typeof file.size === 'number' ? file.size : null }];
  });
}

export interface OfflineProgress {
  done: number;
  total: number;
}

export interface OfflineResult {
  /** Files of the machine now on the device. */
  available: number;
  total: number;
  /** Files that could not be fetched (network, removed on the server). */
  failed: number;
  bytes: number;
}

/** Not enough room on the device for the machine's files (nothing was downloaded). */
export class NotEnoughSpaceError extends Error {
  override readonly name = 'NotEnoughSpaceError';
  constructor(
    readonly needed: number,
    readonly free: number,
  ) {
    super(`${needed} bytes needed, ${free} free`);
  }
}

/** The device's storage is full (the browser's quota error, however it was wrapped). */
export function isStorageFull(error: unknown): boolean {
  return isQuotaExceeded(error);
}

const PARALLEL_DOWNLOADS = 3;

/**
 * Downloads every file of the machine the device does not have yet, pins them all for the machine and records
 * it as available offline (a second run fetches what was added since and drops what was removed). Refuses before
 * downloading when the browser says the files will not fit.
 */
export async function makeMachineOffline(
  machine: string,
  options: { onProgress?(progress: OfflineProgress): void; signal?: AbortSignal; estimate?: () => Promise<StorageEstimateLike | null> } = {},
): Promise<OfflineResult> {
  const db = getLocalDb();
  const files = await collectMachineFiles(db, machine);
  const present = await Promise.all(files.map((file) => hasCachedFile(db, file.nodeid)));
  const missing = files.filter((_, index) => !present[index]);
  const needed = missing.reduce((sum, file) => sum + (file.size ?? 0), 0);
  const free = freeSpace(await (options.estimate ?? storageEstimate)());
  if (free !== null && needed > 0 && needed + OFFLINE_RESERVE > free) throw new NotEnoughSpaceError(needed, free);

  let done = files.length - missing.length;
  let failed = 0;
  options.onProgress?.({ done, total: files.length });
  const queue = [...missing];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      if (options.signal?.aborted) return;
      try {
        const download = await api.get(`files/${file.nodeid}/download`, { schema: fileDownloadSchema, signal: options.signal });
        await downloadToCache(file.nodeid, download.url, { signal: options.signal, pinFor: machine });
      } catch (error) {
        // A full disk stops everything; a single missing file does not.
        if (isQuotaExceeded(error)) throw error;
        failed += 1;
      }
      done += 1;
      options.onProgress?.({ done, total: files.length });
    }
  };
  const wasOffline = (await db.offlineMachines.get(machine)) !== undefined;
  try {
    await Promise.all(Array.from({ length: Math.min(PARALLEL_DOWNLOADS, missing.length) }, worker));
    if (options.signal?.aborted) throw options.signal.reason ?? new DOMException('aborted', 'AbortError');
  } catch (error) {
    // Files fetched so far were pinned as they came: a machine that was not offline before must not keep pins
    // nobody can release; one that was keeps its (now partly refreshed) set.
    if (wasOffline) await pinMachineFiles(db, machine, files.map((file) => file.nodeid));
    else await unpinMachine(db, machine);
    throw error;
  }
  const summary = await pinMachineFiles(db, machine, files.map((file) => file.nodeid));
  return { available: summary.files, total: files.length, failed, bytes: summary.bytes };
}

let refreshing: Promise<void> | null = null;
let refreshAgain = false;

/**
 * Brings every machine kept offline up to date with the mirror: files added since are fetched and pinned, removed
 * ones released (makeMachineOffline's second run). One refresh at a time; a call during one runs once more after
 * it. A machine that does not fit any more, or a file that cannot be fetched now, is left as it is: the next pull
 * with changes tries again, and the machine menu shows what is on the device.
 */
export function refreshOfflineMachines(): Promise<void> {
  if (refreshing) {
    refreshAgain = true;
    return refreshing;
  }
  refreshing = (async () => {
    const db = getLocalDb();
    try {
      do {
        refreshAgain = false;
        for (const { nodeid: machine } of await db.offlineMachines.toArray()) {
          if (typeof navigator !== 'undefined' && !navigator.onLine) return;
          // A machine deleted on the server: its pins go with it.
          if (!(await db.mirror('equipment').get(machine))) await unpinMachine(db, machine);
          else await makeMachineOffline(machine).catch((error: unknown) => console.warn('offline machine not refreshed', machine, error));
        }
      } while (refreshAgain);
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/** "Nicht mehr offline halten": the machine's files become ordinary entries the budget may evict. */
export function releaseMachine(machine: string): Promise<void> {
  return unpinMachine(getLocalDb(), machine);
}

export async function storageEstimate(): Promise<StorageEstimateLike | null> {
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
  return (await storage?.estimate?.().catch(() => null)) ?? null;
}

/** The machine's offline record, null when it is not kept offline; undefined while loading. */
export function useOfflineMachine(machine: string): OfflineMachine | null | undefined {
  return useLiveQuery(async () => (await getLocalDb().offlineMachines.get(machine)) ?? null, [machine]);
}

export function useFileCacheUsage(): FileCacheUsage | undefined {
  return useLiveQuery(() => readFileCacheUsage(getLocalDb()), []);
}

/** The browser's storage estimate, read again whenever `refresh` changes (e.g. when the panel opens or files change). */
export function useStorageEstimate(refresh: unknown): StorageEstimateLike | null | undefined {
  const [estimate, setEstimate] = useState<StorageEstimateLike | null | undefined>(undefined);
  useEffect(() => {
    let cancelled = false;
    void storageEstimate().then((value) => !cancelled && setEstimate(value));
    return () => {
      cancelled = true;
    };
  }, [refresh]);
  return estimate;
}

/** Asks again for persistent storage (a click counts as the engagement some browsers want); updates the sync status. */
export async function askPersistentStorage(): Promise<void> {
  await (await import('./app-sync-runtime')).requestPersistentStorage();
}

export interface AttachmentWithFile extends AttachmentItem {
  filenodeid: string | null;
}

/** A record's attachments (machine-mirror's reader) with the file each names, so its bytes can be kept and found offline. */
export async function readAttachmentsWithFiles(db: LocalDatabase, isattachmentof: string | null): Promise<AttachmentWithFile[]> {
  const items = await readAttachments(db, isattachmentof);
  const rows = await db.mirror('attachments').bulkGet(items.map((item) => item.nodeid));
  return items.map((item, index) => ({ ...item, filenodeid: text(rows[index]?.filenodeid) }));
}

export function useAttachmentsWithFiles(isattachmentof: string | null): AttachmentWithFile[] | undefined {
  return useLiveQuery(() => readAttachmentsWithFiles(getLocalDb(), isattachmentof), [isattachmentof]);
}
