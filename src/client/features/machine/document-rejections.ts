/** The documentation uploader's refusal (spec part 1 §5, §8): the toast "Ungültiger Dateityp!" with its hint, 6 s. */
import type { TFunction } from 'i18next';
import type { RejectedFile } from '../../../shared/domain/documentation-upload';
import { toaster } from '../../lib/toaster';

/** What the file chooser offers (a hint to the device; the check itself is sortDocumentationFiles). */
export const DOCUMENT_ACCEPT = '.txt,.csv,.pdf,.doc,.docx,.xls,.xlsx,text/plain,text/csv,application/pdf';

export const REJECTION_TOAST_MS = 6000;

export function announceRejected(rejected: readonly RejectedFile<File>[], t: TFunction): void {
  if (rejected.length === 0) return;
  toaster.create({ type: 'error', title: t('machineDocs.upload.invalidType'), description: t('machineDocs.upload.invalidTypeHint'), duration: REJECTION_TOAST_MS, closable: true });
}
