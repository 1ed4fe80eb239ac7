import type { CostTypeKey } from '../../../shared/domain/cost';
import type { Db, Tx } from '../client';
import { costTypes, counterTypes, maintenanceCategories } from '../schema';
import { UNIT_IDS } from './reference-data';

/**
 * What a new organisation starts with so its first report can book costs and its first counter has a type:
 * the five standard cost types in the spec's display order, operating hours as the built-in counter type, and
 * a few maintenance categories. Used by the demo seed; sign-up can insert the same rows.
 */
export interface TenantDefaults {
  costTypes: (typeof costTypes.$inferInsert)[];
  counterTypes: (typeof counterTypes.$inferInsert)[];
  maintenanceCategories: (typeof maintenanceCategories.$inferInsert)[];
  costTypeIds: Record<CostTypeKey, string>;
  operatingHoursCounterTypeId: string;
}

export interface TenantDefaultsOptions {
  legalentitynodeid: string;
  /** Id source: randomUUID / uuidv7 in production, the seeded generator in the demo. */
  newId: () => string;
  /** The tenant change version these rows are written under. */
  version: number;
  createdAt?: Date;
}

const COST_TYPES: { key: CostTypeKey; name: Record<string, string>; unit: string }[] = [
  { key: 'parts', name: { de: 'Ersatzteile', en: 'Spare parts' }, unit: UNIT_IDS.eur },
  { key: 'operatingmaterials', name: { de: 'Betriebsstoffe', en: 'Operating materials' }, unit: UNIT_IDS.eur },
  { key: 'externalservices', name: { de: 'Externe Dienstleister', en: 'External service providers' }, unit: UNIT_IDS.eur },
  { key: 'downtime', name: { de: 'Ausfallzeit', en: 'Downtime' }, unit: UNIT_IDS.hour },
  { key: 'internalhours', name: { de: 'Interne Personalstunden', en: 'Internal person hours' }, unit: UNIT_IDS.hour },
];

const MAINTENANCE_CATEGORIES: { name: Record<string, string>; colorcode: string }[] = [
  { name: { de: 'Inspektion', en: 'Inspection' }, colorcode: '#1E88E5' },
  { name: { de: 'Wartung', en: 'Servicing' }, colorcode: '#43A047' },
  { name: { de: 'Prüfung (gesetzlich)', en: 'Statutory inspection' }, colorcode: '#8E24AA' },
  { name: { de: 'Schmierung', en: 'Lubrication' }, colorcode: '#FB8C00' },
  { name: { de: 'Reinigung', en: 'Cleaning' }, colorcode: '#00ACC1' },
  { name: { de: 'Kalibrierung', en: 'Calibration' }, colorcode: '#6D4C41' },
];

export function buildTenantDefaults(options: TenantDefaultsOptions): TenantDefaults {
  const { legalentitynodeid, newId, version } = options;
  const createdAt = options.createdAt ?? new Date();
  const base = () => ({ nodeid: newId(), legalentitynodeid, version, createdAt, updatedAt: createdAt });

  const costTypeRows = COST_TYPES.map((type, i) => ({ ...base(), costtypeid: type.key, name: type.name, unitnodeid: type.unit, position: i + 1 }));
  const costTypeIds = Object.fromEntries(costTypeRows.map((row) => [row.costtypeid, row.nodeid])) as Record<CostTypeKey, string>;
  const operatingHours = { ...base(), name: 'Betriebsstunden', unitnodeid: UNIT_IDS.hour, builtin: true };

  return {
    costTypes: costTypeRows,
    counterTypes: [operatingHours],
    maintenanceCategories: MAINTENANCE_CATEGORIES.map((category) => ({ ...base(), ...category })),
    costTypeIds,
    operatingHoursCounterTypeId: operatingHours.nodeid,
  };
}

/** Inserts the defaults; the caller owns the transaction and the tenant's version bump. */
export async function insertTenantDefaults(db: Db | Tx, options: TenantDefaultsOptions): Promise<TenantDefaults> {
  const defaults = buildTenantDefaults(options);
  await db.insert(costTypes).values(defaults.costTypes);
  await db.insert(counterTypes).values(defaults.counterTypes);
  await db.insert(maintenanceCategories).values(defaults.maintenanceCategories);
  return defaults;
}
