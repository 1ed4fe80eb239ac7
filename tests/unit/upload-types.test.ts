import { describe, expect, it } from 'vitest';
import {
  DOCUMENTATION_UPLOAD_GROUPS,
  UPLOAD_GROUPS,
  UPLOAD_TYPES,
  isAllowedUploadExtension,
  isAllowedUploadMimetype,
  isGenericMimetype,
  registeredMimetype,
  UPLOAD_PERMISSIONS,
  isInlineMimetype,
  normalizeExtension,
  sniffedTypeProblem,
  TextContentCheck,
  textContentProblem,
} from '../../src/shared/domain/upload-types';
import { ALL, NONE, permits, READ_ONLY, type PermissionSubject } from '../../src/shared/permissions';

describe('upload types (§5)', () => {
  it.each(UPLOAD_GROUPS.map((group) => [group]))('group %s has at least one extension', (group) => {
    expect(Object.values(UPLOAD_TYPES).some((t) => t.group === group)).toBe(true);
  });

  it.each(Object.entries(UPLOAD_TYPES))('%s is allowed with its type %j', (extension, { mimetype, group }) => {
    expect(isAllowedUploadExtension(extension)).toBe(true);
    expect(isAllowedUploadExtension(`.${extension.toUpperCase()}`)).toBe(true);
    expect(isAllowedUploadMimetype(`${mimetype}; charset=utf-8`)).toBe(true);
    expect(isAllowedUploadExtension(extension, DOCUMENTATION_UPLOAD_GROUPS)).toBe(DOCUMENTATION_UPLOAD_GROUPS.includes(group));
  });

  it.each(['exe', 'js', 'html', 'zip', '', 'constructor', '__proto__'])('%j is refused', (extension) => {
    expect(isAllowedUploadExtension(extension)).toBe(false);
  });

  it.each([
    ['jpg', 'image/jpeg', 'image/jpeg'],
    ['JPG', 'Image/JPEG; q=1', 'image/jpeg'],
    ['png', 'image/jpeg', 'image/jpeg'],
    ['mov', 'video/mp4', 'video/mp4'],
    ['csv', 'text/plain', 'text/plain'],
    ['pdf', undefined, 'application/pdf'],
    ['pdf', 'application/octet-stream', 'application/pdf'],
    // Another group's type is not taken: the bytes are checked against the extension, so the type follows it.
    ['txt', 'image/png', 'text/plain'],
    ['csv', 'application/vnd.ms-excel', 'text/csv'],
    ['csv', 'video/mp4', 'text/csv'],
    ['docx', 'application/pdf', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ])('a .%s declared %j is stored as %s', (extension, declared, stored) => {
    expect(registeredMimetype(extension, declared)).toBe(stored);
  });

  it('treats octet-stream and a missing type as generic', () => {
    expect(isGenericMimetype(undefined)).toBe(true);
    expect(isGenericMimetype('application/octet-stream')).toBe(true);
    expect(isGenericMimetype('application/pdf')).toBe(false);
    expect(isAllowedUploadMimetype('application/x-msdownload')).toBe(false);
    expect(normalizeExtension(' .PDF ')).toBe('pdf');
  });

  it.each(Object.entries(UPLOAD_TYPES).filter(([, type]) => type.sniffed.length > 0))('.%s takes the sniffed types of its own format only', (extension, type) => {
    for (const sniffed of type.sniffed) expect(sniffedTypeProblem(extension, sniffed)).toBeUndefined();
    expect(sniffedTypeProblem(extension, undefined)).toMatch(/^Ungültiger Dateityp!/);
    expect(sniffedTypeProblem(extension, 'text/html')).toMatch(/^Ungültiger Dateityp!/);
    expect(sniffedTypeProblem(extension, 'application/x-msdownload')).toMatch(/^Ungültiger Dateityp!/);
  });

  it('checks the sniffed type against the extension', () => {
    expect(sniffedTypeProblem('pdf', 'image/png')).toBe('Ungültiger Dateityp! The content is image/png, not application/pdf as .pdf says');
    expect(sniffedTypeProblem('png', 'image/jpeg')).toMatch(/image\/jpeg, not image\/png/);
    expect(sniffedTypeProblem('DOCX', 'application/zip')).toBeUndefined();
    expect(sniffedTypeProblem('txt', undefined)).toBeUndefined();
    expect(sniffedTypeProblem('csv', 'application/xml')).toMatch(/not text/);
    expect(sniffedTypeProblem('svg', 'application/xml')).toMatch(/not an upload type/);
  });
});

describe('text uploads', () => {
  it.each([
    ['plain text', 'Prüfprotokoll\nDruck i. O.\n'],
    ['a BOM before the text', '\uFEFFDatum;Wert\n'],
    ['an angle bracket that is no markup', '< 5 bar, > 2 bar\n'],
    ['markup later in the text', 'Hinweis: <html> im Text\n'],
    ['a zero-width space before text', '\u200BPrüfprotokoll\n'],
    ['a zero-width space before an angle bracket that is no markup', '\u200B< 5 bar\n'],
    ['nothing', ''],
  ])('takes %s', (_name, text) => {
    expect(textContentProblem(Buffer.from(text))).toBeUndefined();
  });

  it.each([
    ['<html>', '<html><body></body></html>'],
    ['<!DOCTYPE after whitespace', '\n\t  <!DOCTYPE html>'],
    ['<script after a BOM', '\uFEFF<script>alert(1)</script>'],
    ['upper-case <SCRIPT', '<SCRIPT>alert(1)</SCRIPT>'],
    ['<svg', '<svg xmlns="http://www.w3.org/2000/svg"/>'],
    ['<?xml', '<?xml version="1.0"?><x/>'],
    // Invisible characters before the markup: all of category Cf and the other default-ignorable code points.
    ['<html after a zero-width space (U+200B)', '\u200B<html>'],
    ['<script after ZWNJ (U+200C)', '\u200C<script>alert(1)</script>'],
    ['<html after ZWJ (U+200D)', '\u200D<html>'],
    ['<svg after a word joiner (U+2060)', '\u2060<svg/>'],
    ['<html after a BOM and a zero-width space', '\uFEFF\u200B<html>'],
    ['<html after a soft hyphen (U+00AD)', '\u00AD<html>'],
    ['<html after a left-to-right mark (U+200E, Cf)', '\u200E<html>'],
    ['<html after a tag character (U+E0001, Cf)', '\u{E0001}<html>'],
    ['<html after a Hangul filler (U+3164, default-ignorable)', '\u3164<html>'],
    ['<html after a variation selector (U+FE0F, default-ignorable)', '\uFE0F<html>'],
    ['<!DOCTYPE after invisible characters mixed with whitespace', ' \u200B\n\u2060\t\u00AD<!DOCTYPE html>'],
  ])('refuses markup at the start: %s', (_name, text) => {
    expect(textContentProblem(Buffer.from(text))).toMatch(/must not be HTML/);
  });

  it('refuses NUL characters and bytes that are not UTF-8', () => {
    expect(textContentProblem(Buffer.from('a\u0000b'))).toMatch(/NUL/);
    expect(textContentProblem(Buffer.from([0x61, 0xc3]))).toMatch(/UTF-8/);
    expect(textContentProblem(Buffer.from([0x61, 0xff, 0x62]))).toMatch(/UTF-8/);
  });

  it('takes a character split across chunks and finds markup split across chunks', () => {
    const umlaut = Buffer.from('ä');
    const split = new TextContentCheck();
    expect(split.push(umlaut.subarray(0, 1))).toBeUndefined();
    expect(split.push(umlaut.subarray(1))).toBeUndefined();
    expect(split.end()).toBeUndefined();
    const markup = new TextContentCheck();
    expect(markup.push(Buffer.from('  <scr'))).toBeUndefined();
    expect(markup.push(Buffer.from('ipt>'))).toMatch(/must not be HTML/);
    // A zero-width space split across chunks (UTF-8 E2 80 8B), then the markup.
    const zeroWidth = Buffer.from('\u200B<html>');
    const invisible = new TextContentCheck();
    expect(invisible.push(zeroWidth.subarray(0, 2))).toBeUndefined();
    expect(invisible.push(zeroWidth.subarray(2))).toMatch(/must not be HTML/);
  });
});

describe('serving and uploading', () => {
  it.each(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'IMAGE/PNG; charset=binary'])('%s may be shown inline', (mimetype) => {
    expect(isInlineMimetype(mimetype)).toBe(true);
  });

  it.each(['image/svg+xml', 'text/html', 'text/plain', 'text/csv', 'application/xml', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'video/mp4'])('%s is only a download', (mimetype) => {
    expect(isInlineMimetype(mimetype)).toBe(false);
  });

  it('needs one permission a file is uploaded for', () => {
    const canUpload = (subject: PermissionSubject) => permits(subject, { anyOf: UPLOAD_PERMISSIONS });
    expect(canUpload({ admin: true, features: {} })).toBe(true);
    expect(canUpload({ admin: false, features: { equipment: READ_ONLY, notification: READ_ONLY, 'equipment.attachment': READ_ONLY } })).toBe(false);
    expect(canUpload({ admin: false, features: { 'equipment.attachment': [true, true, false, false] } })).toBe(true);
    expect(canUpload({ admin: false, features: { notification: [true, false, false, false] } })).toBe(true);
    expect(canUpload({ admin: false, features: { site: ALL, user: ALL, equipment: NONE } })).toBe(false);
  });
});
