/**
 * Where an attachment of a notification or of one of its measures shows from: while the server does not have the
 * file yet its bytes are on this device (and a copy goes into the file cache); once synced from the cache, or, the
 * first time on this device and online, once from its signed download (then kept). `unavailable` when none of these
 * has it. The object URL is revoked when the attachment, its source or the connection changes.
 */
import { useEffect, useState } from 'react';
import { fileDownloadSchema } from '../../../shared/api/files';
import { api } from '../../lib/api';
import { keepLocalFile } from '../../lib/file-cache';
import { cachedPhoto, downloadPhoto } from '../../lib/photo-cache';
import type { AttachmentWithFile } from '../../sync/offline-files';

export type AttachmentSource = { state: 'loading' } | { state: 'ready'; url: string } | { state: 'unavailable' };

/** The attachment's object URL, or that it is loading or not on this device and not reachable. */
export function useAttachmentSource(item: AttachmentWithFile, online: boolean): AttachmentSource {
  const [source, setSource] = useState<{ key: string; value: AttachmentSource } | null>(null);
  const { local, filenodeid, pending } = item;
  const key = `${filenodeid ?? item.nodeid}:${local ? 'local' : 'server'}:${online}`;

  useEffect(() => {
    let objectUrl: string | null = null;
    const controller = new AbortController();
    const show = (blob: Blob | null) => {
      if (controller.signal.aborted) return;
      objectUrl = blob ? URL.createObjectURL(blob) : null;
      setSource({ key, value: objectUrl ? { state: 'ready', url: objectUrl } : { state: 'unavailable' } });
    };
    const load = async (): Promise<Blob | null> => {
      if (local) {
        // The upload frees these bytes once the server has them: a copy in the cache keeps the file offline.
        if (filenodeid) void keepLocalFile(filenodeid, local.bytes, local.mimetype);
        return new Blob([local.bytes], { type: local.mimetype });
      }
      if (!filenodeid) return null;
      const kept = await cachedPhoto(filenodeid);
      if (kept || !online || pending) return kept;
      try {
        const file = await api.get(`files/${filenodeid}/download`, { schema: fileDownloadSchema, signal: controller.signal });
        return await downloadPhoto(filenodeid, file.url, controller.signal);
      } catch {
        return null;
      }
    };
    void load().then(show);
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [key, local, filenodeid, online, pending]);

  return source && source.key === key ? source.value : { state: 'loading' };
}
