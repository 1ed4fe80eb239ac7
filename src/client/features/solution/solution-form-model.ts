/**
 * The solution form's rules (spec part 1 §2.3, §4.3, §5), pure so they are unit-tested: which files the uploader
 * takes (images, videos and documents incl. Apple Pages/Numbers/Keynote — src/shared/domain/upload-types.ts, the
 * list the server checks again by the bytes), the attachment title made from a file name, and when save is
 * possible. §5 sets no length rules for the title, and a solution without a title is shown as "Maßnahme ohne
 * Titel"; an empty solution (no title, no description, no file) documents nothing, so it cannot be saved.
 */
import { isAllowedUploadExtension, normalizeExtension, UPLOAD_TYPES } from '../../../shared/domain/upload-types';

/** The file chooser's `accept`: every extension the uploader takes, and the camera's images and videos. */
export const SOLUTION_UPLOAD_ACCEPT = ['image/*', 'video/*', ...Object.keys(UPLOAD_TYPES).map((extension) => `.${extension}`)].join(',');

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

/** Splits picked files into the ones the uploader takes and the rejected ones (listed and skipped, §5). An empty file is refused by the server, so here too. */
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

/** The attachment's title: the file name without its extension. */
export function attachmentTitle(name: string): string {
  const base = name.replace(/\.[^./\\]+$/, '').trim();
  return base || name;
}

export interface SolutionFormValues {
  title: string;
  description: string;
}

/**
 * Save: disabled while saving; in add mode when nothing would be documented (no title, description or file); in
 * edit mode while nothing changed, or when the change would leave the solution empty.
 */
export function canSaveSolution(values: SolutionFormValues, options: { saving: boolean; initial: SolutionFormValues | null; newFiles: number; existingFiles?: number }): boolean {
  if (options.saving) return false;
  const hasContent = values.title.trim() !== '' || values.description.trim() !== '' || options.newFiles > 0 || (options.existingFiles ?? 0) > 0;
  if (!hasContent) return false;
  if (!options.initial) return true;
  return values.title.trim() !== options.initial.title.trim() || values.description.trim() !== options.initial.description.trim() || options.newFiles > 0;
}
