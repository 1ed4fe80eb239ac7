/**
 * Upload types of spec part 1 §5. The solution/FAQ/report uploader takes images, videos and documents (pdf,
 * word, excel, powerpoint, text, Apple pages/numbers/keynote); the machine documentation uploader only text,
 * PDF, Word and Excel. Keyed by lower-case file extension; the MIME type is what the server stores and
 * serves. The server accepts the union (it cannot know which dialog a file came from); the documentation
 * dialog checks the narrower list itself.
 */
export const UPLOAD_GROUPS = ['image', 'video', 'pdf', 'word', 'excel', 'powerpoint', 'text', 'apple'] as const;
export type UploadGroup = (typeof UPLOAD_GROUPS)[number];

export const UPLOAD_TYPES: Readonly<Record<string, { mimetype: string; group: UploadGroup }>> = {
  jpg: { mimetype: 'image/jpeg', group: 'image' },
  jpeg: { mimetype: 'image/jpeg', group: 'image' },
  png: { mimetype: 'image/png', group: 'image' },
  gif: { mimetype: 'image/gif', group: 'image' },
  webp: { mimetype: 'image/webp', group: 'image' },
  heic: { mimetype: 'image/heic', group: 'image' },
  heif: { mimetype: 'image/heif', group: 'image' },
  bmp: { mimetype: 'image/bmp', group: 'image' },
  tif: { mimetype: 'image/tiff', group: 'image' },
  tiff: { mimetype: 'image/tiff', group: 'image' },
  mp4: { mimetype: 'video/mp4', group: 'video' },
  m4v: { mimetype: 'video/x-m4v', group: 'video' },
  mov: { mimetype: 'video/quicktime', group: 'video' },
  webm: { mimetype: 'video/webm', group: 'video' },
  avi: { mimetype: 'video/x-msvideo', group: 'video' },
  '3gp': { mimetype: 'video/3gpp', group: 'video' },
  pdf: { mimetype: 'application/pdf', group: 'pdf' },
  doc: { mimetype: 'application/msword', group: 'word' },
  docx: { mimetype: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', group: 'word' },
  xls: { mimetype: 'application/vnd.ms-excel', group: 'excel' },
  xlsx: { mimetype: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', group: 'excel' },
  ppt: { mimetype: 'application/vnd.ms-powerpoint', group: 'powerpoint' },
  pptx: { mimetype: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', group: 'powerpoint' },
  txt: { mimetype: 'text/plain', group: 'text' },
  csv: { mimetype: 'text/csv', group: 'text' },
  pages: { mimetype: 'application/vnd.apple.pages', group: 'apple' },
  numbers: { mimetype: 'application/vnd.apple.numbers', group: 'apple' },
  key: { mimetype: 'application/vnd.apple.keynote', group: 'apple' },
};

/** The documentation tab's uploader: "only (Text, PDF, Word, Excel)". */
export const DOCUMENTATION_UPLOAD_GROUPS: readonly UploadGroup[] = ['text', 'pdf', 'word', 'excel'];
export const INVALID_EXTENSION_MESSAGE = 'Ungültige Dateiextension!';
export const INVALID_FILE_TYPE_MESSAGE = 'Ungültiger Dateityp!';

/** 'PDF', '.pdf', ' pdf ' → 'pdf'. */
export function normalizeExtension(extension: string): string {
  return extension.trim().replace(/^\./, '').toLowerCase();
}

export function uploadTypeOf(extension: string): { mimetype: string; group: UploadGroup } | undefined {
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
 * The type a registered file is stored under: the one the device declared (parameters dropped), or — when it
 * declared none or a generic one — the type of its extension.
 */
export function registeredMimetype(extension: string, declared: string | undefined): string {
  if (declared && !isGenericMimetype(declared)) return declared.split(';')[0]!.trim().toLowerCase();
  return uploadTypeOf(extension)?.mimetype ?? 'application/octet-stream';
}
