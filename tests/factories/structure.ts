import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../../src/server/db/client';
import { areas, brands, equipment, equipmentPools, equipmentTypes, legalEntities, sites } from '../../src/server/db/schema';
import { insertRow, parentOf, type Overrides, type Tenant } from './insert';

// Builders and inserters for the plant structure. `buildX` returns a plain insert object with defaults,
// `insertX` writes it and returns the row; parents that are not given are created on the way, in the same
// tenant. Rows keep the schema's default version (0): they are written outside the change feed, so a test that
// pulls them passes `version` explicitly.

let sequence = 0;
/** A number unique within the test process, for readable unique names. */
export function nextSequence(): number {
  sequence += 1;
  return sequence;
}

export type ManufacturerInsert = typeof legalEntities.$inferInsert;

/** A manufacturer (brand owner): a legal entity recorded by the tenant. */
export function buildManufacturer(overrides: Partial<ManufacturerInsert> & Tenant): ManufacturerInsert {
  const { legalentitynodeid, ...rest } = overrides;
  const n = nextSequence();
  return { nodeid: uuidv7(), name: `Hersteller ${n} GmbH`, clientid: `manufacturer-${n}-${uuidv7()}`, clienttype: 'machinebuilder', ownerlegalentitynodeid: legalentitynodeid, ...rest };
}

export async function insertManufacturer(db: Db, overrides: Partial<ManufacturerInsert> & Tenant) {
  return insertRow(db, legalEntities, buildManufacturer(overrides));
}

export type SiteInsert = typeof sites.$inferInsert;

export function buildSite(overrides: Overrides<SiteInsert>): SiteInsert {
  const n = nextSequence();
  return { nodeid: uuidv7(), name: `Werk ${n}`, street: `Industriestraße ${n}`, siteid: null, zipcode: '70469', city: 'Stuttgart', country: 'DE', ...overrides };
}

export async function insertSite(db: Db, overrides: Overrides<SiteInsert>) {
  return insertRow(db, sites, buildSite(overrides));
}

export type AreaInsert = typeof areas.$inferInsert;

export function buildArea(overrides: Overrides<AreaInsert> & { sitenodeid: string }): AreaInsert {
  return { nodeid: uuidv7(), name: `Halle ${nextSequence()}`, ...overrides };
}

/** Creates a site first when `sitenodeid` is not given. */
export async function insertArea(db: Db, overrides: Overrides<AreaInsert>) {
  const sitenodeid = await parentOf(db, overrides.sitenodeid, overrides, insertSite);
  return insertRow(db, areas, buildArea({ ...overrides, sitenodeid }));
}

export type EquipmentPoolInsert = typeof equipmentPools.$inferInsert;

export function buildEquipmentPool(overrides: Overrides<EquipmentPoolInsert>): EquipmentPoolInsert {
  const n = nextSequence();
  return { nodeid: uuidv7(), name: { de: `Pool ${n}`, en: `Pool ${n}` }, ...overrides };
}

export async function insertEquipmentPool(db: Db, overrides: Overrides<EquipmentPoolInsert>) {
  return insertRow(db, equipmentPools, buildEquipmentPool(overrides));
}

export type BrandInsert = typeof brands.$inferInsert;

export function buildBrand(overrides: Overrides<BrandInsert> & { manufacturernodeid: string }): BrandInsert {
  return { nodeid: uuidv7(), name: `Marke ${nextSequence()}`, ...overrides };
}

/** Creates a manufacturer first when `manufacturernodeid` is not given. */
export async function insertBrand(db: Db, overrides: Overrides<BrandInsert>) {
  const manufacturernodeid = await parentOf(db, overrides.manufacturernodeid, overrides, insertManufacturer);
  return insertRow(db, brands, buildBrand({ ...overrides, manufacturernodeid }));
}

export type EquipmentTypeInsert = typeof equipmentTypes.$inferInsert;

export function buildEquipmentType(overrides: Overrides<EquipmentTypeInsert> & { brandnodeid: string }): EquipmentTypeInsert {
  return { nodeid: uuidv7(), model: `Modell ${nextSequence()}`, ...overrides };
}

/** Creates a brand (and its manufacturer) first when `brandnodeid` is not given. */
export async function insertEquipmentType(db: Db, overrides: Overrides<EquipmentTypeInsert>) {
  const brandnodeid = await parentOf(db, overrides.brandnodeid, overrides, insertBrand);
  return insertRow(db, equipmentTypes, buildEquipmentType({ ...overrides, brandnodeid }));
}

export type EquipmentInsert = typeof equipment.$inferInsert;

/** A machine with every form field filled; membership (area/pool) only when given. */
export function buildEquipment(overrides: Overrides<EquipmentInsert> & { equipmenttypenodeid: string }): EquipmentInsert {
  const n = nextSequence();
  return {
    nodeid: uuidv7(),
    name: `Maschine ${n}`,
    equipmentid: `EQ-${n}`,
    inventoryid: `INV-${100000 + n}`,
    manufacturerserialnumber: `SN-${n}`,
    constructiondate: new Date(Date.UTC(2018, 0, 1)),
    commissioningdate: new Date(Date.UTC(2018, 5, 1)),
    costcenter: { de: '4110 Zerspanung', en: '4110 Machining' },
    inspectionbooknumber: null,
    dimensions: [2000, 2500, 1800],
    electricalpower: 15,
    mediasupply: [{ de: 'Druckluft 6 bar', en: 'Compressed air 6 bar' }],
    controllerinformation: { manufacturer: 'Siemens', type: 'SINUMERIK 840D sl', softwareversion: '4.95' },
    hourlyrate: 85,
    memo: null,
    useareashiftmodel: true,
    ...overrides,
  };
}

/** Creates the type chain (manufacturer, brand, type) first when `equipmenttypenodeid` is not given. */
export async function insertEquipment(db: Db, overrides: Overrides<EquipmentInsert>) {
  const equipmenttypenodeid = await parentOf(db, overrides.equipmenttypenodeid, overrides, insertEquipmentType);
  return insertRow(db, equipment, buildEquipment({ ...overrides, equipmenttypenodeid }));
}
