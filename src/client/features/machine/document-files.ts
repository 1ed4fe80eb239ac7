/**
 * The bytes of a machine document, wherever the device can get them: its own unsent copy (outbox), the copy kept
 * after it was uploaded or opened once (lib/photo-cache.ts), or — online — the server's signed download, which is
 * then kept too. So a document opened once stays readable offline.
 */
import { fileDownloadSchema } from '../../../shared/api/files';
import { api } from '../../lib/api';
import { cachedPhoto, downloadPhoto, keepFileCopy } from '../../lib/photo-cache';
import type { MachineDocument } from '../../sync/machine-documents';

export async function documentBlob(document: MachineDocument, online: boolean, signal?: AbortSignal): Promise<Blob | null> {
  if (document.local) {
    const blob = new Blob([document.local.bytes], { type: document.local.mimetype });
    await keepFileCopy(document.filenodeid, blob);
    return blob;
  }
  if (!document.filenodeid) return null;
  if (online) {
    try {
      const file = await api.get(`files/${document.filenodeid}/download`, { schema: fileDownloadSchema, signal });
      return await downloadPhoto(document.filenodeid, file.url, signal);
    } catch {
      // The connection is worse than the status says: a copy kept earlier is better than nothing.
      if (signal?.aborted) return null;
    }
  }
  return cachedPhoto(document.filenodeid);
}

export function isPdf(document: Pick<MachineDocument, 'mimetype' | 'extension'>): boolean {
  return document.mimetype === 'application/pdf' || document.extension?.toLowerCase() === 'pdf';
}

/** The name a download is saved under: the title with the file's extension. */
export function downloadName(document: Pick<MachineDocument, 'title' | 'extension' | 'local'>): string {
  const extension = document.extension ?? /\.([a-z0-9]{1,8})$/i.exec(document.local?.name ?? '')?.[1] ?? '';
  const base = document.title.replace(/[\\/:*?"<>|]+/g, '_').trim() || 'dokument';
  return extension && !base.toLowerCase().endsWith(`.${extension.toLowerCase()}`) ? `${base}.${extension}` : base;
}

