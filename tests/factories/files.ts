import { deflateSync } from 'node:zlib';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../../src/server/db/client';
import { files } from '../../src/server/db/schema';
import { fileStorageKey } from '../../src/server/storage/local-storage';
import { insertRow, type Tenant } from './insert';

// Builders and inserters for registered files; see structure.ts for the conventions.

export type FileInsert = typeof files.$inferInsert;

/** A pending PDF, version 1, in the local bucket, unless overridden. */
export function buildFile(overrides: Partial<FileInsert> & Tenant): FileInsert {
  const fileid = overrides.fileid ?? uuidv7();
  const fileversion = overrides.fileversion ?? 1;
  const extension = overrides.extension ?? 'pdf';
  return {
    nodeid: uuidv7(),
    fileid,
    fileversion,
    bucketid: 'local',
    storagekey: fileStorageKey({ legalentitynodeid: overrides.legalentitynodeid, fileid, fileversion, extension }),
    mimetype: 'application/pdf',
    extension,
    status: 'pending',
    ...overrides,
  };
}

export async function insertFile(db: Db, overrides: Partial<FileInsert> & Tenant) {
  return insertRow(db, files, buildFile(overrides));
}

/** A few bytes that start like a PDF. */
export function pdfBytes(text = 'Betriebsanleitung'): Buffer {
  return Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real PNG: `width`×`height` grey pixels (8-bit greyscale), as any image viewer decodes it. */
export function pngBytes(width = 2, height = 2): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const rows = Buffer.concat(Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(width, 0x80)])));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(rows)), pngChunk('IEND', Buffer.alloc(0))]);
}

/** The start of a JPEG (SOI + JFIF APP0), enough for a content sniffer. */
export function jpegBytes(): Buffer {
  return Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9]);
}

/** An uncompressed ("stored") ZIP archive of the given entries. */
function zipBytes(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const nameBytes = Buffer.from(name, 'utf8');
    const data = Buffer.from(text, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt32LE(crc, 16);
    record.writeUInt32LE(data.length, 20);
    record.writeUInt32LE(data.length, 24);
    record.writeUInt16LE(nameBytes.length, 28);
    record.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    central.push(record, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const OOXML_MAIN = {
  docx: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml', 'word/document.xml'],
  xlsx: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml', 'xl/workbook.xml'],
} as const;

/** A minimal Office Open XML package (a ZIP with its content types), as Word or Excel write them. */
export function officeBytes(kind: keyof typeof OOXML_MAIN, text = 'Wartungsplan'): Buffer {
  const [mainType, mainPart] = OOXML_MAIN[kind];
  const contentTypes = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/${mainPart}" ContentType="${mainType}"/></Types>`;
  return zipBytes({ '[Content_Types].xml': contentTypes, [mainPart]: `<root>${text}</root>` });
}
