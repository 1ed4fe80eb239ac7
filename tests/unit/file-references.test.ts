import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../../src/server/db/schema';
import { FILE_REFERENCES } from '../../src/server/services/file-service';

/**
 * The file cleanup unsets every column that names a file with `on delete set null` itself, with its change version
 * (file-service.ts `FILE_REFERENCES`); a column it does not know would be cleared by the database without one, and
 * devices would keep a file that is gone.
 */
describe('columns naming a file', () => {
  it('every foreign key to files that lets go of it on delete is one the file cleanup unsets', () => {
    const inSchema = (Object.values(schema) as unknown[])
      .filter((value): value is PgTable => value instanceof PgTable)
      .flatMap((table) => {
        const config = getTableConfig(table);
        return config.foreignKeys
          .filter((key) => key.onDelete === 'set null' && key.reference().foreignTable === schema.files)
          .flatMap((key) => key.reference().columns.map((column) => `${config.name}.${column.name}`));
      })
      .sort();
    const known = FILE_REFERENCES.flatMap(({ table, columns }) => columns.map((column) => `${getTableConfig(table).name}.${column.name}`)).sort();
    expect(inSchema).toEqual(known);
    expect(known).toEqual(['equipment.imagefilenodeid', 'equipment.typenameplatefilenodeid', 'reports.authorsignatureimagefilenodeid']);
  });
});
