/**
 * The documentation tab's reader (spec part 1 §2.1): a machine's documents, live from the local mirror, grouped by
 * attachment category. An attachment without a category (a photo hung on the machine) is no document of the tab.
 * A document uploaded on this device carries its bytes until the server has them, so it opens offline at once.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { ATTACHMENT_CATEGORIES, isAttachmentCategory, type AttachmentCategory } from '../../shared/domain/attachment';
import { getLocalDb, type LocalDatabase } from '../db/local-db';
import { isLive } from './mirror-fields';
import { pendingEntriesOfKind } from './outbox';

export interface MachineDocument {
  nodeid: string;
  title: string;
  description: string | null;
  category: AttachmentCategory;
  /** The file row's nodeid: key of the device's bytes and of GET /api/files/{nodeid}/download. */
  filenodeid: string;
  mimetype: string | null;
  extension: string | null;
  size: number | null;
  /** A write of it (upload, edit) still waits in the outbox. */
  pending: boolean;
  /** The bytes chosen on this device, kept until the server has the attachment. */
  local: { bytes: ArrayBuffer; mimetype: string; name: string } | null;
}

export type DocumentsByCategory = Record<AttachmentCategory, MachineDocument[]>;

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

export async function readMachineDocuments(db: LocalDatabase, equipmentnodeid: string, language: string): Promise<DocumentsByCategory> {
  const [rows, entries] = await Promise.all([
    db.mirror('attachments').where('isattachmentof').equals(equipmentnodeid).toArray(),
    pendingEntriesOfKind(db, 'attachments'),
  ]);
  const pending = new Set(entries.map((entry) => entry.nodeid));
  const grouped = Object.fromEntries(ATTACHMENT_CATEGORIES.map((category) => [category, [] as MachineDocument[]])) as DocumentsByCategory;
  const documents = await Promise.all(
    rows
      .filter((row) => isLive(row) && isAttachmentCategory(row.specifier))
      .map(async (row): Promise<MachineDocument> => {
        const filenodeid = text(row.filenodeid) ?? '';
        const [stored, file] = filenodeid ? await Promise.all([db.fileBytes.get(filenodeid), db.mirror('files').get(filenodeid)]) : [undefined, undefined];
        return {
          nodeid: row.nodeid,
          title: text(row.title) ?? '',
          description: text(row.description),
          category: row.specifier as AttachmentCategory,
          filenodeid,
          mimetype: text(file?.mimetype) ?? stored?.mimetype ?? null,
          extension: text(file?.extension),
          size: typeof file?.size === 'number' ? file.size : (stored?.size ?? null),
          pending: pending.has(row.nodeid),
          local: stored ? { bytes: stored.bytes, mimetype: stored.mimetype, name: stored.name } : null,
        };
      }),
  );
  for (const document of documents.sort((a, b) => a.title.localeCompare(b.title, language, { numeric: true }))) grouped[document.category].push(document);
  return grouped;
}

/** undefined while the mirror is read. */
export function useMachineDocuments(equipmentnodeid: string, language: string): DocumentsByCategory | undefined {
  return useLiveQuery(() => readMachineDocuments(getLocalDb(), equipmentnodeid, language), [equipmentnodeid, language]);
}
