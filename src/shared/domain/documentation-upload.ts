import { DOCUMENTATION_UPLOAD_GROUPS, isGenericMimetype, normalizeExtension, uploadTypeOf, UPLOAD_TYPES } from './upload-types';

/**
 * The machine documentation's upload rule (spec part 1 §5): only text, PDF, Word and Excel. The device checks a
 * chosen file by its name's extension and the type the browser declares for it; the server checks the file it
 * stored, whose extension its bytes were sniffed against (src/server/services/file-service.ts), so a renamed
 * file fails there even when the device let it through.
 */

/** MIME types of the allowed groups (a browser may declare a .csv as Excel, Windows does). */
const DOCUMENT_MIMETYPES: ReadonlySet<string> = new Set(
  Object.values(UPLOAD_TYPES)
    .filter((type) => DOCUMENTATION_UPLOAD_GROUPS.includes(type.group))
    .map((type) => type.mimetype),
);

const bare = (mimetype: string | undefined) => (mimetype ?? '').split(';')[0]!.trim().toLowerCase();

/** The lower-case extension of a file name ('' when it has none). */
export function extensionOfName(name: string): string {
  const match = /\.([^./\\]{1,16})$/.exec(name.trim());
  return match ? normalizeExtension(match[1]!) : '';
}

/**
 * The name without its extension: the default title of an uploaded document ("Handbuch.v2.pdf" → "Handbuch.v2";
 * dots left before the extension go too: "Schaltplan..pdf" → "Schaltplan").
 */
export function titleFromFileName(name: string): string {
  const trimmed = name.trim();
  const extension = extensionOfName(trimmed);
  const base = extension ? trimmed.slice(0, trimmed.length - extension.length - 1) : trimmed;
  return base.replace(/[.\s]+$/, '') || trimmed;
}

/**
 * Why a stored file may not be a documentation attachment, or undefined when it may: its extension must be of
 * a document group, and its stored type must not say otherwise.
 */
export function documentationFileProblem(extension: string, mimetype: string | undefined): string | undefined {
  const type = uploadTypeOf(extension);
  if (!type || !DOCUMENTATION_UPLOAD_GROUPS.includes(type.group)) {
    return `Ungültiger Dateityp! Es sind nur (Text, PDF, Word, Excel) Dateien zulässig, nicht .${normalizeExtension(extension) || '?'}`;
  }
  if (!isGenericMimetype(mimetype) && !DOCUMENT_MIMETYPES.has(bare(mimetype))) {
    return `Ungültiger Dateityp! Es sind nur (Text, PDF, Word, Excel) Dateien zulässig, nicht ${bare(mimetype)}`;
  }
  return undefined;
}

/** What the device knows of a chosen file (a DOM File has both). */
export interface ChosenFile {
  name: string;
  /** The type the browser declares ('' when it knows none). */
  type: string;
}

export interface RejectedFile<F extends ChosenFile> {
  file: F;
  /** What to show as its type: the declared MIME type, else `.ext`, else '?'. */
  type: string;
}

/** Splits chosen files into those the documentation accepts and those it skips, in their order. */
export function sortDocumentationFiles<F extends ChosenFile>(chosen: readonly F[]): { accepted: F[]; rejected: RejectedFile<F>[] } {
  const accepted: F[] = [];
  const rejected: RejectedFile<F>[] = [];
  for (const file of chosen) {
    const extension = extensionOfName(file.name);
    if (documentationFileProblem(extension, file.type) === undefined) accepted.push(file);
    else rejected.push({ file, type: bare(file.type) || (extension ? `.${extension}` : '?') });
  }
  return { accepted, rejected };
}
