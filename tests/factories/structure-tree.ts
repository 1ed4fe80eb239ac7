/**
 * Pure builders for the structure tree the client reads (GET /api/allsitesareasequipments). Plain objects with
 * overrides and no database, so unit tests of client code use the same shapes the API tests check.
 */
import { v7 as uuidv7 } from 'uuid';
import type { EquipmentSummary, StructureTree } from '../../src/shared/api/structure';

type Site = StructureTree['sites'][number];
type Area = Site['areas'][number];
type Pool = StructureTree['equipmentpools'][number];

export function buildEquipmentSummary(overrides: Partial<EquipmentSummary> = {}): EquipmentSummary {
  return { nodeid: uuidv7(), name: 'Hydraulikpresse HP-200', equipmentid: 'EQ-1001', inventoryid: 'INV-1001', brand: 'Schuler', model: 'HP-200', imageurl: null, ...overrides };
}

export function buildArea(overrides: Partial<Area> = {}): Area {
  return { nodeid: uuidv7(), name: 'Halle 1 – Zerspanung', equipment: [], ...overrides };
}

export function buildSiteNode(overrides: Partial<Site> = {}): Site {
  return { nodeid: uuidv7(), name: 'Werk Stuttgart', street: 'Siemensstraße 42', siteid: null, zipcode: '70469', city: 'Stuttgart', country: 'DE', areas: [], ...overrides };
}

export function buildPoolNode(overrides: Partial<Pool> = {}): Pool {
  return { nodeid: uuidv7(), name: 'Flurförderzeuge', equipment: [], ...overrides };
}

export function buildStructureTree(overrides: Partial<StructureTree> = {}): StructureTree {
  return { sites: [], equipmentpools: [], unlinked: [], ...overrides };
}
