/**
 * The FAQ form's rules (spec part 1 §2.3, §4.3, §5), pure so they are unit-tested: which files the uploader takes
 * (images, videos and documents incl. Apple Pages/Numbers/Keynote — `src/shared/domain/upload-types.ts`, the same
 * list the server checks again by the bytes), the attachment title made from a file name, and when save is
 * possible. §5 sets no length rules for question or answer; the question is what a FAQ is, so it is required.
 */
import { isAllowedUploadExtension, normalizeExtension, UPLOAD_TYPES } from '../../../shared/domain/upload-types';

/** The file chooser's `accept`: every extension the FAQ uploader takes, and the camera's images and videos. */
export const FAQ_UPLOAD_ACCEPT = ['image/*', 'video/*', ...Object.keys(UPLOAD_TYPES).map((extension) => `.${extension}`)].join(',');

export interface PickedFile {
  name: string;
  type: string;
  size: number;
}

export interface RejectedFile {
  name: string;
  /** What the file is, for the list of skipped files: its extension, else its MIME type, else '?'. */
  type: string;
}

/** The file's extension, lower case, or '' when it has none. */
export function extensionOf(name: string): string {
  const match = /\.([^./\\]+)$/.exec(name);
  return match?.[1] ? normalizeExtension(match[1]) : '';
}

/**
 * Splits picked files into the ones the FAQ uploader takes and the rejected ones (listed with their type and
 * skipped, as §5 says for the documentation uploader). An empty file is rejected too: the server refuses it.
 */
export function sortPickedFiles<F extends PickedFile>(files: readonly F[]): { accepted: F[]; rejected: RejectedFile[] } {
  const accepted: F[] = [];
  const rejected: RejectedFile[] = [];
  for (const file of files) {
    const extension = extensionOf(file.name);
    if (extension && isAllowedUploadExtension(extension) && file.size > 0) accepted.push(file);
    else rejected.push({ name: file.name, type: extension ? `.${extension}` : file.type || '?' });
  }
  return { accepted, rejected };
}

/** The attachment's title: the file name without its extension (the documentation dialog's default too). */
export function attachmentTitle(name: string): string {
  const base = name.replace(/\.[^./\\]+$/, '').trim();
  return base || name;
}

export interface FaqFormValues {
  question: string;
  answer: string;
}

/** Save: disabled while saving, without a question, and in edit mode while nothing changed. */
export function canSaveFaq(values: FaqFormValues, options: { saving: boolean; initial: FaqFormValues | null; newFiles: number }): boolean {
  if (options.saving || values.question.trim() === '') return false;
  if (!options.initial) return true;
  return values.question.trim() !== options.initial.question.trim() || values.answer.trim() !== options.initial.answer.trim() || options.newFiles > 0;
}
