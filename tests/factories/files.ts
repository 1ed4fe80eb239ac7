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
