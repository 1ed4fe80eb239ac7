/**
 * The uploader rules the FAQ, solution and notification forms share (spec part 1 §5), pure so they are unit-tested:
 * which files the uploader takes (images, videos and documents incl. Apple Pages/Numbers/Keynote —
 * `src/shared/domain/upload-types.ts`, the same list the server checks again by the bytes), splitting picked files
 * into taken and rejected, the attachment title made from a file name, and a picked file as upload input.
 */
import { isAllowedUploadExtension, normalizeExtension, UPLOAD_TYPES, uploadTypeOf } from '../../shared/domain/upload-types';

/** The file chooser's `accept`: every upload extension of §5, and the camera's images and videos. */
export const UPLOAD_ACCEPT = ['image/*', 'video/*', ...Object.keys(UPLOAD_TYPES).map((extension) => `.${extension}`)].join(',');

/** The camera button's `accept`: what a tablet camera records. */
export const CAMERA_ACCEPT = 'image/*,video/*';

export interface PickedFile {
  name: string;
  /** The browser's MIME type; '' or absent when it does not know one. */
  type?: string;
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
 * Splits picked files into the ones the uploader takes and the rejected ones (listed with their type and skipped,
 * §5). An empty file is rejected too: the server refuses it.
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

/** A picked file as upload input: its bytes, the canonical MIME type of its extension, its name and title. */
export async function uploadOfFile(file: File): Promise<{ bytes: ArrayBuffer; mimetype: string; name: string; title: string }> {
  // The canonical type of the extension (Pages, Numbers and Keynote files come without one from most browsers).
  const mimetype = uploadTypeOf(extensionOf(file.name))?.mimetype ?? file.type;
  return { bytes: await file.arrayBuffer(), mimetype, name: file.name, title: attachmentTitle(file.name) };
}

/** Picked files with a key each for the list (the same name may be picked twice). */
export function keyedFiles<F extends { name: string }>(files: readonly F[], now = Date.now()): { key: string; file: F }[] {
  return files.map((file, index) => ({ key: `${now}-${index}-${file.name}`, file }));
}
