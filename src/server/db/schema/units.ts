import { jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import type { LocalizedText } from './core';

/** Display names of a unit: the spec's `displayName.plural` per language. */
export interface UnitDisplayName {
  plural: LocalizedText;
  singular?: LocalizedText;
}

/**
 * Units of measure for cost types and counter types (GET /units). Global reference data, not owned by a tenant:
 * `unitid` is the code inside its `namespace` (EUR in ISO 4217, HUR for hours in UN/ECE Recommendation 20).
 */
export const units = pgTable('units', {
  nodeid: uuid('nodeid').primaryKey(),
  unitid: text('unitid').notNull(),
  namespace: text('namespace').notNull(),
  /** Short sign for tables ('€', 'h', 'kWh'). */
  symbol: text('symbol').notNull(),
  displayName: jsonb('display_name').$type<UnitDisplayName>().notNull(),
  ...timestamps,
}, (t) => [uniqueIndex('units_namespace_unitid_uq').on(t.namespace, t.unitid)]);
