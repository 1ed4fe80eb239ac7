import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../../src/server/db/schema';
import { FILE_READERS, FILE_REFERENCES } from '../../src/server/services/file-service';

const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => value instanceof PgTable);

/** `table.column` of every foreign key to `files` whose delete rule passes `onDelete`. */
function foreignKeysToFiles(onDelete: (rule: string | undefined) => boolean): string[] {
  return tables.flatMap((table) => {
    const config = getTableConfig(table);
    return config.foreignKeys
      .filter((key) => onDelete(key.onDelete) && key.reference().foreignTable === schema.files)
      .flatMap((key) => key.reference().columns.map((column) => `${config.name}.${column.name}`));
  });
}

/**
 * Columns whose name says file, picture or document but that name no row of `files`, each with why. A new column
 * matching FILE_LIKE must be in FILE_READERS or here, so whoever adds one decides who may download its file.
 */
const NOT_NAMING_A_FILE: Record<string, string> = {
  'files.fileid': 'the file table itself',
  'files.fileversion': 'the file table itself',
  'files.storagekey': 'the file table itself',
  'reports.authorsignature': 'the typed name of a signature, text',
  'support_documents.storagekey': 'global help documents in their own store (spec s3Path), not a tenant file',
  'orders.documentsdueat': 'a date',
};
// why the lookbehinds: `profileid` and `autologoutweb` are no files.
const FILE_LIKE = /(?<!pro)file|image|photo|picture|avatar|(?<!auto)logo|signature|nameplate|document|scan|storage/i;

describe('columns naming a file', () => {
  it('every foreign key to files that lets go of it on delete is one the file cleanup unsets', () => {
    const inSchema = foreignKeysToFiles((rule) => rule === 'set null').sort();
    const known = FILE_REFERENCES.flatMap(({ table, columns }) => columns.map((column) => `${getTableConfig(table).name}.${column.name}`)).sort();
    expect(inSchema).toEqual(known);
    expect(known).toEqual(['equipment.imagefilenodeid', 'equipment.typenameplatefilenodeid', 'reports.authorsignatureimagefilenodeid']);
  });

  /**
   * GET /api/files/{nodeid}/download signs a URL only for a file that a record the caller may read names
   * (file-service.ts `FILE_READERS`); a column naming a file that the list does not know would make its files
   * unreadable to everyone but their uploader, and, worse, a list kept elsewhere would drift from it.
   */
  it('every column that names a file is in FILE_READERS, with the read permission it needs', () => {
    const named = tables.flatMap((table) => {
      const config = getTableConfig(table);
      return config.columns.filter((column) => FILE_LIKE.test(column.name)).map((column) => `${config.name}.${column.name}`);
    });
    const inSchema = [...new Set([...foreignKeysToFiles(() => true), ...named])].filter((column) => !(column in NOT_NAMING_A_FILE)).sort();
    const known = FILE_READERS.flatMap(({ table, columns }) => columns.map((column) => `${getTableConfig(table).name}.${column.name}`)).sort();
    expect(inSchema).toEqual(known);
    expect(known).toEqual(['attachments.filenodeid', 'equipment.imagefilenodeid', 'equipment.typenameplatefilenodeid', 'reports.authorsignatureimagefilenodeid', 'users.image']);
    // Every exception is still a column of the schema (a renamed one must be looked at again).
    const columns = new Set(tables.flatMap((table) => getTableConfig(table).columns.map((column) => `${getTableConfig(table).name}.${column.name}`)));
    expect(Object.keys(NOT_NAMING_A_FILE).filter((column) => !columns.has(column))).toEqual([]);
  });

  it('each reader belongs to a table of the tenant and names files by its own columns', () => {
    for (const { table, columns } of FILE_READERS) {
      const config = getTableConfig(table);
      expect(config.columns.map((column) => column.name)).toContain('legalentitynodeid');
      for (const column of columns) expect(config.columns).toContain(column);
    }
  });
});
