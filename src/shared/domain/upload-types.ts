import type { FeatureFlag } from '../permissions';

/**
 * Upload types of spec part 1 §5. The solution/FAQ/report uploader takes images, videos and documents (pdf,
 * word, excel, powerpoint, text, Apple pages/numbers/keynote); the machine documentation uploader only text,
 * PDF, Word and Excel. Keyed by lower-case file extension; the MIME type is what the server stores and
 * serves. The server accepts the union (it cannot know which dialog a file came from); the documentation
 * dialog checks the narrower list itself.
 */
export const UPLOAD_GROUPS = ['image', 'video', 'pdf', 'word', 'excel', 'powerpoint', 'text', 'apple'] as const;
export type UploadGroup = (typeof UPLOAD_GROUPS)[number];

/**
 * `sniffed`: what a content sniffer (npm file-type) reports for genuine bytes of the type. Office formats of
 * 2007+ and Apple's iWork are ZIP containers, so plain ZIP counts for them; the old Office formats are OLE
 * compound files (`application/x-cfb`). An empty list means no magic number: the bytes must be plain text
 * (textContentProblem).
 */
export interface UploadType {
  mimetype: string;
  group: UploadGroup;
  sniffed: readonly string[];
}

const ZIP = 'application/zip';
const CFB = 'application/x-cfb';

export const UPLOAD_TYPES: Readonly<Record<string, UploadType>> = {
  jpg: { mimetype: 'image/jpeg', group: 'image', sniffed: ['image/jpeg'] },
  jpeg: { mimetype: 'image/jpeg', group: 'image', sniffed: ['image/jpeg'] },
  png: { mimetype: 'image/png', group: 'image', sniffed: ['image/png'] },
  gif: { mimetype: 'image/gif', group: 'image', sniffed: ['image/gif'] },
  webp: { mimetype: 'image/webp', group: 'image', sniffed: ['image/webp'] },
  heic: { mimetype: 'image/heic', group: 'image', sniffed: ['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence'] },
  heif: { mimetype: 'image/heif', group: 'image', sniffed: ['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence'] },
  bmp: { mimetype: 'image/bmp', group: 'image', sniffed: ['image/bmp'] },
  tif: { mimetype: 'image/tiff', group: 'image', sniffed: ['image/tiff'] },
  tiff: { mimetype: 'image/tiff', group: 'image', sniffed: ['image/tiff'] },
  mp4: { mimetype: 'video/mp4', group: 'video', sniffed: ['video/mp4', 'video/x-m4v', 'video/quicktime'] },
  m4v: { mimetype: 'video/x-m4v', group: 'video', sniffed: ['video/mp4', 'video/x-m4v'] },
  mov: { mimetype: 'video/quicktime', group: 'video', sniffed: ['video/quicktime', 'video/mp4'] },
  webm: { mimetype: 'video/webm', group: 'video', sniffed: ['video/webm', 'video/x-matroska'] },
  avi: { mimetype: 'video/x-msvideo', group: 'video', sniffed: ['video/vnd.avi', 'video/x-msvideo'] },
  '3gp': { mimetype: 'video/3gpp', group: 'video', sniffed: ['video/3gpp', 'video/mp4'] },
  pdf: { mimetype: 'application/pdf', group: 'pdf', sniffed: ['application/pdf'] },
  doc: { mimetype: 'application/msword', group: 'word', sniffed: [CFB] },
  docx: { mimetype: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', group: 'word', sniffed: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', ZIP] },
  xls: { mimetype: 'application/vnd.ms-excel', group: 'excel', sniffed: [CFB] },
  xlsx: { mimetype: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', group: 'excel', sniffed: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ZIP] },
  ppt: { mimetype: 'application/vnd.ms-powerpoint', group: 'powerpoint', sniffed: [CFB] },
  pptx: { mimetype: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', group: 'powerpoint', sniffed: ['application/vnd.openxmlformats-officedocument.presentationml.presentation', ZIP] },
  txt: { mimetype: 'text/plain', group: 'text', sniffed: [] },
  csv: { mimetype: 'text/csv', group: 'text', sniffed: [] },
  pages: { mimetype: 'application/vnd.apple.pages', group: 'apple', sniffed: [ZIP] },
  numbers: { mimetype: 'application/vnd.apple.numbers', group: 'apple', sniffed: [ZIP] },
  key: { mimetype: 'application/vnd.apple.keynote', group: 'apple', sniffed: [ZIP] },
};

/** The documentation tab's uploader: "only (Text, PDF, Word, Excel)". */
export const DOCUMENTATION_UPLOAD_GROUPS: readonly UploadGroup[] = ['text', 'pdf', 'word', 'excel'];
export const INVALID_EXTENSION_MESSAGE = 'Ungültige Dateiextension!';
export const INVALID_FILE_TYPE_MESSAGE = 'Ungültiger Dateityp!';

/** 'PDF', '.pdf', ' pdf ' → 'pdf'. */
export function normalizeExtension(extension: string): string {
  return extension.trim().replace(/^\./, '').toLowerCase();
}

export function uploadTypeOf(extension: string): UploadType | undefined {
  return Object.hasOwn(UPLOAD_TYPES, normalizeExtension(extension)) ? UPLOAD_TYPES[normalizeExtension(extension)] : undefined;
}

export function isAllowedUploadExtension(extension: string, groups: readonly UploadGroup[] = UPLOAD_GROUPS): boolean {
  const type = uploadTypeOf(extension);
  return type !== undefined && groups.includes(type.group);
}

/** A MIME type (parameters ignored) the server accepts for an upload. */
export function isAllowedUploadMimetype(mimetype: string): boolean {
  const bare = mimetype.split(';')[0]!.trim().toLowerCase();
  return Object.values(UPLOAD_TYPES).some((t) => t.mimetype === bare);
}

/** Generic types a browser or the old client sends for any file: the registered extension decides then. */
export function isGenericMimetype(mimetype: string | undefined): boolean {
  const bare = (mimetype ?? '').split(';')[0]!.trim().toLowerCase();
  return bare === '' || bare === 'application/octet-stream' || bare === 'binary/octet-stream';
}

/**
 * The type a registered file is stored under, and served with: the one the device declared (parameters dropped)
 * when it is a type of the extension's group (a .jpg declared image/jpeg, a .mov video/mp4), otherwise the type of
 * its extension. The bytes are checked against the extension, so the stored type follows it: a .txt declared
 * image/png is served as text/plain, not inline as an image. None, a generic one or another group's (Windows
 * declares a .csv as application/vnd.ms-excel) all get the extension's type.
 */
export function registeredMimetype(extension: string, declared: string | undefined): string {
  const type = uploadTypeOf(extension);
  const bare = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  if (type && Object.values(UPLOAD_TYPES).some((other) => other.mimetype === bare && other.group === type.group)) return bare;
  return type?.mimetype ?? 'application/octet-stream';
}

/**
 * Why the bytes of a file registered as `extension` are refused, or undefined when they are what it claims.
 * `sniffed` is the content sniffer's MIME type for the file's first bytes (undefined: no known magic number).
 * Text types have no magic number; their bytes are checked by TextContentCheck instead.
 */
export function sniffedTypeProblem(extension: string, sniffed: string | undefined): string | undefined {
  const type = uploadTypeOf(extension);
  if (!type) return `${INVALID_FILE_TYPE_MESSAGE} .${normalizeExtension(extension)} is not an upload type`;
  if (type.sniffed.length === 0) {
    return sniffed === undefined ? undefined : `${INVALID_FILE_TYPE_MESSAGE} The content is ${sniffed}, not text as .${normalizeExtension(extension)} says`;
  }
  if (sniffed === undefined) return `${INVALID_FILE_TYPE_MESSAGE} The content is not a ${type.mimetype} file as .${normalizeExtension(extension)} says`;
  if (!type.sniffed.includes(sniffed)) return `${INVALID_FILE_TYPE_MESSAGE} The content is ${sniffed}, not ${type.mimetype} as .${normalizeExtension(extension)} says`;
  return undefined;
}

/** Markup a browser would run as a page (HTML, SVG, XML with scripts), as it may start a text file. */
const MARKUP_START = /^<(?:!doctype|html|head|body|script|iframe|svg|\?xml|!--|meta|style|object|embed|img|a\s|div|title)/i;

/**
 * What may stand before markup without showing: whitespace, every format character (category Cf: BOM, zero-width
 * space, ZWNJ, ZWJ, word joiner, soft hyphen, bidi marks, …) and the other default-ignorable code points (Hangul
 * fillers, variation selectors, the combining grapheme joiner). Only whitespace and the BOM were skipped, so a
 * single U+200B before `<html>` let a page through as text.
 */
const INVISIBLE_START = /^[\s\p{Cf}\p{Default_Ignorable_Code_Point}]+/u;

/**
 * Streaming check that bytes are plain text: valid UTF-8 (a BOM is allowed), no NUL character, and not
 * starting (after whitespace and invisible characters, INVISIBLE_START) with markup. Push every chunk, then call
 * end(); each answers the first problem. Only UTF-8 is read: markup in UTF-16 has a NUL byte in every ASCII character.
 */
export class TextContentCheck {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  private head = '';
  private problem: string | undefined;

  push(chunk: Uint8Array): string | undefined {
    if (this.problem) return this.problem;
    let text: string;
    try {
      text = this.decoder.decode(chunk, { stream: true });
    } catch {
      return (this.problem = `${INVALID_FILE_TYPE_MESSAGE} A text file must be UTF-8`);
    }
    if (text.includes('\u0000')) return (this.problem = `${INVALID_FILE_TYPE_MESSAGE} A text file must not contain NUL characters`);
    if (this.head.length < 64) {
      this.head = (this.head + text).replace(INVISIBLE_START, '').slice(0, 64);
      if (MARKUP_START.test(this.head)) return (this.problem = `${INVALID_FILE_TYPE_MESSAGE} A text file must not be HTML or other markup`);
    }
    return undefined;
  }

  end(): string | undefined {
    if (this.problem) return this.problem;
    try {
      this.decoder.decode();
    } catch {
      return (this.problem = `${INVALID_FILE_TYPE_MESSAGE} A text file must be UTF-8`);
    }
    return undefined;
  }
}

/** One-shot form of TextContentCheck. */
export function textContentProblem(bytes: Uint8Array): string | undefined {
  const check = new TextContentCheck();
  return check.push(bytes) ?? check.end();
}

/**
 * Types a browser may show inline from this origin: raster images and PDF. Everything else (SVG and HTML above
 * all, which can run script) is served as a download.
 */
const INLINE_MIMETYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp', 'image/avif', 'application/pdf']);

export function isInlineMimetype(mimetype: string): boolean {
  return INLINE_MIMETYPES.has(mimetype.split(';')[0]!.trim().toLowerCase());
}

/**
 * The writes a file is uploaded for: a machine's photo (create or edit a machine), a document on a machine, an
 * FAQ answer, a notification's photo or report. Registering an upload needs at least one of them, so a
 * read-only account cannot fill the disk with files nothing may ever reference. The registration's permission
 * (`uploadFile`, src/shared/mutations/files.ts: any one of them), checked before its body like every route's.
 */
export const UPLOAD_PERMISSIONS: readonly FeatureFlag[] = [
  { feature: 'equipment', flag: 'create' },
  { feature: 'equipment', flag: 'update' },
  { feature: 'equipment.attachment', flag: 'create' },
  { feature: 'equipment.faq', flag: 'create' },
  { feature: 'equipment.faq', flag: 'update' },
  { feature: 'notification', flag: 'create' },
  { feature: 'notification', flag: 'update' },
  { feature: 'notification.report', flag: 'create' },
];
