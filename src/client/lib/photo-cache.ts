/**
 * Photos (and any other file) seen online stay viewable offline. The mirror names a file but holds no bytes, and
 * the server hands out only short-lived signed URLs; so the bytes of a file once shown are kept on the device
 * under the file's nodeid (not the expiring URL) in the device's file cache (lib/file-cache.ts: a budget with
 * least-recently-used eviction; files of machines made available offline are never evicted). Like the mirror,
 * it is kept across logouts. These two calls are what screens use; their signatures stay as they were.
 */
import { getLocalDb } from '../db/local-db';
import { downloadToCache, keepLocalFile, readCachedFile } from './file-cache';

/** Before v4 of the local database photos were kept in Cache Storage; they are fetched again when next shown. */
const LEGACY_CACHE_NAME = 'anlagenbuch-photos-v1';
let legacyDropped = false;

function dropLegacyCache(): void {
  if (legacyDropped || typeof caches === 'undefined') return;
  legacyDropped = true;
  void caches.delete(LEGACY_CACHE_NAME).catch(() => undefined);
}

/** The stored file, or null when it was never shown on this device (or the device cannot keep files). */
export async function cachedPhoto(fileid: string): Promise<Blob | null> {
  dropLegacyCache();
  try {
    return await readCachedFile(getLocalDb(), fileid);
  } catch {
    return null;
  }
}

/** Downloads the file from its signed URL, keeps it for offline use and returns it. */
export async function downloadPhoto(fileid: string, url: string, signal?: AbortSignal): Promise<Blob> {
  dropLegacyCache();
  return downloadToCache(fileid, url, { signal });
}

/**
 * Keeps bytes the device already has (a document uploaded or opened from its own unsent copy) under the file's id,
 * so they stay readable offline after the upload's bytes are dropped from the outbox. Best effort like the rest.
 */
export async function keepFileCopy(fileid: string, blob: Blob): Promise<void> {
  await keepLocalFile(fileid, await blob.arrayBuffer(), blob.type.split(';')[0]?.trim() || 'application/octet-stream');
}
