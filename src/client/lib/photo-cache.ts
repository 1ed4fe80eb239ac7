/**
 * Photos seen online stay viewable offline. The mirror names a machine's photo file but holds no bytes, and the
 * server hands out only short-lived signed URLs; so the bytes of a photo once shown are kept in the browser's
 * Cache Storage under the file's id (not the expiring URL). Like the mirror, it is kept across logouts.
 */
const CACHE_NAME = 'anlagenbuch-photos-v1';

const keyOf = (fileid: string) => new Request(`${self.location.origin}/__photo-cache/${encodeURIComponent(fileid)}`);

function available(): boolean {
  return typeof caches !== 'undefined';
}

/** The stored photo, or null when it was never shown on this device (or the browser has no Cache Storage). */
export async function cachedPhoto(fileid: string): Promise<Blob | null> {
  if (!available()) return null;
  try {
    const response = await (await caches.open(CACHE_NAME)).match(keyOf(fileid));
    return response ? await response.blob() : null;
  } catch {
    return null;
  }
}

/** Downloads the photo from its signed URL, keeps it for offline use and returns it. */
export async function downloadPhoto(fileid: string, url: string, signal?: AbortSignal): Promise<Blob> {
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(`photo download failed: ${response.status}`);
  const blob = await response.blob();
  if (available()) {
    // A full disk must not cost the user the photo on screen: keeping it is best effort.
    await caches
      .open(CACHE_NAME)
      .then((cache) => cache.put(keyOf(fileid), new Response(blob, { headers: { 'content-type': blob.type } })))
      .catch(() => undefined);
  }
  return blob;
}
