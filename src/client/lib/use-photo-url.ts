/**
 * A photo file (machine photo, nameplate) as an object URL. The mirror names the file but has no bytes: online
 * the server signs a download URL and the bytes are kept on the device (photo-cache.ts), so a photo once seen
 * also shows offline. `undefined` while reading; `null` for no photo, or none available offline.
 */
import { useEffect, useState } from 'react';
import { fileDownloadSchema } from '../../shared/api/files';
import { api } from './api';
import { cachedPhoto, downloadPhoto } from './photo-cache';
import { useOnlineStatus } from './use-online-status';

export function usePhotoUrl(fileid: string | null): string | null | undefined {
  const online = useOnlineStatus();
  const [source, setSource] = useState<{ fileid: string; url: string | null } | null>(null);

  useEffect(() => {
    if (!fileid) return undefined;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    const show = (blob: Blob | null) => {
      if (controller.signal.aborted) return;
      objectUrl = blob && blob.type.startsWith('image/') ? URL.createObjectURL(blob) : null;
      setSource({ fileid, url: objectUrl });
    };
    const load = async (): Promise<Blob | null> => {
      if (!online) return cachedPhoto(fileid);
      try {
        const file = await api.get(`files/${fileid}/download`, { schema: fileDownloadSchema, signal: controller.signal });
        if (!file.mimetype.startsWith('image/')) return null;
        return await downloadPhoto(fileid, file.url, controller.signal);
      } catch {
        // The connection is worse than the status says: a copy kept earlier is better than nothing.
        return controller.signal.aborted ? null : cachedPhoto(fileid);
      }
    };
    void load().then(show);
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [fileid, online]);

  if (!fileid) return null;
  return source && source.fileid === fileid ? source.url : undefined;
}
