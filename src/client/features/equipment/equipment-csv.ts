/**
 * Equipment as CSV (/export): one row per machine with every field of the equipment form, names instead of ids
 * for catalogue and assignment (a person edits the file in Excel), numbers and decimals in the form's language.
 * Import plans first (dry run): each row is checked with the form's shared rules and says whether it creates a
 * machine, changes one (its `nodeid` column names a known machine) or changes nothing; nothing is written
 * until the user confirms the plan.
 */
import { isFutureYear, yearToEpochMs, type CatalogSelection } from '../../../shared/domain/equipment';
import { localized } from '../../../shared/domain/text';
import { newNodeId } from '../../sync/outbox';
import type { MirrorRow } from '../../sync/use-mirror';
import {
  checkForm,
  controllerFrom,
  formatAmount,
  formatDecimal,
  formStateFromRow,
  hourlyRateAmount,
  mediaSupplyTexts,
  mirrorCatalogLookup,
  type EquipmentFormState,
} from './equipment-form-model';

/** Column keys in file order; headers are their translations (`csv.columns.<key>`), matched in de and en. */
export const EQUIPMENT_CSV_COLUMNS = [
  'nodeid',
  'name',
  'equipmentid',
  'inventoryid',
  'manufacturer',
  'brand',
  'type',
  'costcenter',
  'commissioningyear',
  'inspectionbooknumber',
  'constructionyear',
  'serialnumber',
  'width',
  'height',
  'depth',
  'electricalpower',
  'mediasupply',
  'controllermanufacturer',
  'controllertype',
  'controllersoftwareversion',
  'pool',
  'site',
  'area',
  'hourlyrate',
  'equipmentclass',
] as const;
export type EquipmentCsvColumn = (typeof EQUIPMENT_CSV_COLUMNS)[number];

/** Media connections share one cell. */
export const MEDIA_SEPARATOR = ' | ';

export interface CsvMirror {
  equipment: MirrorRow[];
  manufacturers: MirrorRow[];
  brands: MirrorRow[];
  equipmenttypes: MirrorRow[];
  equipmentclasses: MirrorRow[];
  sites: MirrorRow[];
  areas: MirrorRow[];
  equipmentpools: MirrorRow[];
}

const nameIn = (rows: readonly MirrorRow[], id: unknown, lang: string, field = 'name') => {
  const row = rows.find((candidate) => candidate.nodeid === id);
  return row ? localized(row[field], lang) ?? '' : '';
};

/** One machine as the file's cells. */
export function equipmentCsvRow(machine: MirrorRow, mirror: CsvMirror, lang: string): Record<EquipmentCsvColumn, string> {
  const lookup = mirrorCatalogLookup(mirror.brands, mirror.equipmenttypes);
  const state = formStateFromRow(machine, { lang, lookup, areas: mirror.areas, shifts: [] });
  const controller = controllerFrom(machine.controllerinformation);
  return {
    nodeid: machine.nodeid,
    name: state.name,
    equipmentid: state.equipmentid,
    inventoryid: state.inventoryid,
    manufacturer: nameIn(mirror.manufacturers, state.catalog.legalentity?.nodeid, lang),
    brand: nameIn(mirror.brands, state.catalog.brand?.nodeid, lang),
    type: nameIn(mirror.equipmenttypes, state.catalog.equipmenttype?.nodeid, lang, 'model'),
    costcenter: state.costcenter,
    commissioningyear: state.commissioningyear === null ? '' : String(state.commissioningyear),
    inspectionbooknumber: state.inspectionbooknumber,
    constructionyear: state.constructionyear === null ? '' : String(state.constructionyear),
    serialnumber: state.manufacturerserialnumber,
    width: state.dimensions[0],
    height: state.dimensions[1],
    depth: state.dimensions[2],
    electricalpower: formatDecimal(hourlyRateAmount(machine.electricalpower), lang),
    mediasupply: mediaSupplyTexts(machine.mediasupply, lang).join(MEDIA_SEPARATOR),
    controllermanufacturer: controller.manufacturer,
    controllertype: controller.type,
    controllersoftwareversion: controller.softwareversion,
    pool: nameIn(mirror.equipmentpools, machine.equipmentpoolnodeid, lang),
    site: nameIn(mirror.sites, state.sitenodeid, lang),
    area: nameIn(mirror.areas, machine.areanodeid, lang),
    hourlyrate: formatAmount(hourlyRateAmount(machine.hourlyrate), lang),
    equipmentclass: nameIn(mirror.equipmentclasses, machine.equipmentclassnodeid, lang),
  };
}

/** The whole file's rows: header (translated) then every machine, sorted by name. */
export function equipmentCsvRows(mirror: CsvMirror, lang: string, header: (column: EquipmentCsvColumn) => string): string[][] {
  const machines = [...mirror.equipment].sort((a, b) => (localized(a.name, lang) ?? '').localeCompare(localized(b.name, lang) ?? '', lang));
  return [EQUIPMENT_CSV_COLUMNS.map(header), ...machines.map((machine) => EQUIPMENT_CSV_COLUMNS.map((column) => equipmentCsvRow(machine, mirror, lang)[column]))];
}

// ---------------------------------------------------------------- import

/** Why a row cannot be imported; the screen translates `csv.errors.<code>` with `value`. */
export interface RowError {
  code:
    | 'nameRequired'
    | 'brandRequired'
    | 'typeRequired'
    | 'manufacturerRequired'
    | 'brandNotOfManufacturer'
    | 'constructionYearRequired'
    | 'invalidYear'
    | 'futureYear'
    | 'invalidNumberFormat'
    | 'belowMinimum'
    | 'aboveMaximum'
    | 'tooBig'
    | 'tooLong'
    | 'assignmentRequired'
    | 'unknownPool'
    | 'unknownSite'
    | 'unknownArea'
    | 'unknownClass'
    | 'unknownColumn';
  column?: EquipmentCsvColumn | string;
  value?: string;
  /** tooBig, tooLong: the limit. */
  max?: number;
}

export type PlannedRow =
  | { line: number; action: 'create' | 'update'; name: string; state: EquipmentFormState; nodeid: string; machine?: MirrorRow; errors: [] }
  | { line: number; action: 'unchanged'; name: string; nodeid: string; errors: [] }
  | { line: number; action: 'error'; name: string; errors: RowError[] };

export interface ImportPlan {
  rows: PlannedRow[];
  /** Header cells that match no column (ignored, shown as a warning). */
  unknownHeaders: string[];
  missingHeaders: EquipmentCsvColumn[];
}

const norm = (text: string) => text.trim().toLocaleLowerCase('de');

/**
 * Plans the import of parsed CSV rows (first row = header). `headerNames` gives, per column, the header texts
 * that name it (both languages and the key). New manufacturers, brands and types are made once per name.
 */
export function planEquipmentImport(rows: readonly string[][], mirror: CsvMirror, lang: string, headerNames: (column: EquipmentCsvColumn) => string[], now: number = Date.now()): ImportPlan {
  const [header = [], ...body] = rows;
  const columnIndex = new Map<EquipmentCsvColumn, number>();
  const unknownHeaders: string[] = [];
  header.forEach((cell, index) => {
    const column = EQUIPMENT_CSV_COLUMNS.find((candidate) => headerNames(candidate).some((name) => norm(name) === norm(cell)));
    if (column && !columnIndex.has(column)) columnIndex.set(column, index);
    else if (cell.trim()) unknownHeaders.push(cell);
  });
  const missingHeaders = EQUIPMENT_CSV_COLUMNS.filter((column) => column !== 'nodeid' && !columnIndex.has(column));

  const lookup = mirrorCatalogLookup(mirror.brands, mirror.equipmenttypes);
  const byName = (list: readonly MirrorRow[], text: string, field = 'name') => list.find((row) => norm(localized(row[field], lang) ?? '') === norm(text));
  // New catalogue entries made by this import, by name, so two rows naming the same new brand share it.
  const newManufacturers = new Map<string, string>();
  const newBrands = new Map<string, { nodeid: string; manufacturer: string }>();
  const newTypes = new Map<string, string>();
  const currentYear = new Date(now).getUTCFullYear();

  const planned = body.map((cells, index): PlannedRow => {
    const line = index + 2;
    const cell = (column: EquipmentCsvColumn) => {
      const at = columnIndex.get(column);
      return at === undefined ? '' : (cells[at] ?? '').trim();
    };
    const errors: RowError[] = [];
    const name = cell('name');
    if (!name) errors.push({ code: 'nameRequired', column: 'name' });

    // Catalogue: names → existing records, or new ones (§4 rules decide what may be combined).
    const manufacturerName = cell('manufacturer');
    const brandName = cell('brand');
    const typeName = cell('type');
    let catalog: CatalogSelection = { legalentity: null, brand: null, equipmenttype: null };
    const existingBrand = brandName ? byName(mirror.brands, brandName) : undefined;
    const existingManufacturer = manufacturerName ? byName(mirror.manufacturers, manufacturerName) : undefined;
    if (!brandName) errors.push({ code: 'brandRequired', column: 'brand' });
    if (!typeName) errors.push({ code: 'typeRequired', column: 'type' });
    if (existingBrand) {
      const owner = String(existingBrand.manufacturernodeid ?? '');
      if (manufacturerName && existingManufacturer?.nodeid !== owner) errors.push({ code: 'brandNotOfManufacturer', column: 'manufacturer', value: manufacturerName });
      catalog = { legalentity: { isnew: false, nodeid: owner }, brand: { isnew: false, nodeid: existingBrand.nodeid, isbrandof: owner }, equipmenttype: null };
      const existingType = mirror.equipmenttypes.find((type) => type.brandnodeid === existingBrand.nodeid && norm(localized(type.model, lang) ?? '') === norm(typeName));
      const typeKey = `${existingBrand.nodeid}/${norm(typeName)}`;
      if (existingType) catalog.equipmenttype = { isnew: false, nodeid: existingType.nodeid, brandnodeid: existingBrand.nodeid };
      else if (typeName) catalog.equipmenttype = { isnew: true, nodeid: newTypes.get(typeKey) ?? newNodeId(), model: typeName, brandnodeid: existingBrand.nodeid };
    } else if (brandName) {
      if (!manufacturerName) errors.push({ code: 'manufacturerRequired', column: 'manufacturer' });
      const manufacturer = existingManufacturer
        ? { isnew: false, nodeid: existingManufacturer.nodeid }
        : { isnew: true, nodeid: newManufacturers.get(norm(manufacturerName)) ?? newNodeId(), name: manufacturerName };
      const known = newBrands.get(norm(brandName));
      const brandId = known?.nodeid ?? newNodeId();
      const typeKey = `${brandId}/${norm(typeName)}`;
      catalog = {
        legalentity: manufacturer,
        brand: { isnew: true, nodeid: brandId, name: brandName, isbrandof: manufacturer.nodeid },
        equipmenttype: typeName ? { isnew: true, nodeid: newTypes.get(typeKey) ?? newNodeId(), model: typeName, brandnodeid: brandId } : null,
      };
    }

    const year = (column: 'constructionyear' | 'commissioningyear'): number | null => {
      const text = cell(column);
      if (!text) return null;
      if (!/^\d{4}$/.test(text)) {
        errors.push({ code: 'invalidYear', column, value: text });
        return null;
      }
      const value = Number(text);
      if (isFutureYear(yearToEpochMs(value), now) || value > currentYear) errors.push({ code: 'futureYear', column, value: text });
      return value;
    };
    const constructionyear = year('constructionyear');
    if (!cell('constructionyear')) errors.push({ code: 'constructionYearRequired', column: 'constructionyear' });
    const commissioningyear = year('commissioningyear');

    const pool = cell('pool') ? byName(mirror.equipmentpools, cell('pool')) : undefined;
    if (cell('pool') && !pool) errors.push({ code: 'unknownPool', column: 'pool', value: cell('pool') });
    const site = cell('site') ? byName(mirror.sites, cell('site')) : undefined;
    if (cell('site') && !site) errors.push({ code: 'unknownSite', column: 'site', value: cell('site') });
    const area = cell('area') ? mirror.areas.find((row) => (!site || row.sitenodeid === site.nodeid) && norm(localized(row.name, lang) ?? '') === norm(cell('area'))) : undefined;
    if (cell('area') && !area) errors.push({ code: 'unknownArea', column: 'area', value: cell('area') });
    const equipmentClass = cell('equipmentclass') ? byName(mirror.equipmentclasses, cell('equipmentclass')) : undefined;
    if (cell('equipmentclass') && !equipmentClass) errors.push({ code: 'unknownClass', column: 'equipmentclass', value: cell('equipmentclass') });

    const existing = cell('nodeid') ? mirror.equipment.find((row) => row.nodeid === cell('nodeid')) : undefined;
    const mode = existing ? 'edit' : 'add';
    const base = existing ? formStateFromRow(existing, { lang, lookup, areas: mirror.areas, shifts: [] }) : null;
    const state: EquipmentFormState = {
      catalog,
      name,
      equipmentid: cell('equipmentid'),
      inventoryid: cell('inventoryid'),
      costcenter: cell('costcenter'),
      commissioningyear,
      inspectionbooknumber: cell('inspectionbooknumber'),
      constructionyear,
      manufacturerserialnumber: cell('serialnumber'),
      dimensions: [cell('width'), cell('height'), cell('depth')],
      electricalpower: cell('electricalpower'),
      mediasupply: cell('mediasupply') ? cell('mediasupply').split('|') : [],
      controller: { manufacturer: cell('controllermanufacturer'), type: cell('controllertype'), softwareversion: cell('controllersoftwareversion') },
      equipmentpoolnodeid: pool?.nodeid ?? (existing ? (base?.equipmentpoolnodeid ?? null) : null),
      sitenodeid: site?.nodeid ?? (area ? String(area.sitenodeid) : null),
      areanodeid: area?.nodeid ?? (existing ? (base?.areanodeid ?? null) : null),
      hourlyrate: cell('hourlyrate'),
      equipmentclassnodeid: equipmentClass?.nodeid ?? null,
      // The file has no operating times: an update keeps the machine's, a new machine takes its area's.
      useareashiftmodel: base?.useareashiftmodel ?? true,
      shifts: base?.shifts ?? [],
    };
    const check = checkForm(state, mode, lang, lookup);
    check.dimensionErrors.forEach((error, at) => {
      const column = (['width', 'height', 'depth'] as const)[at]!;
      if (error) errors.push({ code: error, column, value: cell(column) });
    });
    if (check.electricalpowerInvalid) errors.push({ code: 'invalidNumberFormat', column: 'electricalpower', value: cell('electricalpower') });
    if (check.hourlyrateInvalid) errors.push({ code: 'invalidNumberFormat', column: 'hourlyrate', value: cell('hourlyrate') });
    if (check.electricalpowerTooBig !== undefined) errors.push({ code: 'tooBig', column: 'electricalpower', value: cell('electricalpower'), max: check.electricalpowerTooBig });
    if (check.hourlyrateTooBig !== undefined) errors.push({ code: 'tooBig', column: 'hourlyrate', value: cell('hourlyrate'), max: check.hourlyrateTooBig });
    for (const [column, max] of Object.entries(check.tooLong)) errors.push({ code: 'tooLong', column, max });
    if (check.fieldIssues.includes('area')) errors.push({ code: 'assignmentRequired', column: 'pool' });
    if (errors.length > 0) return { line, action: 'error', name, errors };

    // Remember new catalogue entries only for rows that will be written.
    if (catalog.legalentity?.isnew) newManufacturers.set(norm(manufacturerName), catalog.legalentity.nodeid);
    if (catalog.brand?.isnew) newBrands.set(norm(brandName), { nodeid: catalog.brand.nodeid, manufacturer: catalog.legalentity!.nodeid });
    if (catalog.equipmenttype?.isnew) newTypes.set(`${catalog.brand!.nodeid}/${norm(typeName)}`, catalog.equipmenttype.nodeid);

    if (existing && base) {
      const unchanged = JSON.stringify(comparable(base)) === JSON.stringify(comparable(state));
      if (unchanged) return { line, action: 'unchanged', name, nodeid: existing.nodeid, errors: [] };
      return { line, action: 'update', name, state, nodeid: existing.nodeid, machine: existing, errors: [] };
    }
    return { line, action: 'create', name, state, nodeid: newNodeId(), errors: [] };
  });
  return { rows: planned, unknownHeaders, missingHeaders };
}

/** What an import can change, for "unchanged": the assignment is not edited by an update (§7). */
function comparable(state: EquipmentFormState) {
  const { sitenodeid: _site, areanodeid: _area, equipmentpoolnodeid: _pool, shifts: _shifts, catalog, mediasupply, ...rest } = state;
  return { ...rest, type: catalog.equipmenttype?.nodeid ?? null, mediasupply: mediasupply.map((text) => text.trim()).filter(Boolean) };
}

/**
 * For the second and later rows that use a catalogue entry this import creates: the entry exists by then, so
 * it is referred to as existing (the repository creates only `isnew` entries).
 */
export function catalogForExecution(catalog: CatalogSelection, created: Set<string>): CatalogSelection {
  const seen = (choice: { isnew: boolean; nodeid: string } | null | undefined) => {
    if (!choice?.isnew) return choice;
    if (created.has(choice.nodeid)) return { ...choice, isnew: false };
    created.add(choice.nodeid);
    return choice;
  };
  return {
    legalentity: seen(catalog.legalentity) ?? null,
    brand: (seen(catalog.brand) as CatalogSelection['brand']) ?? null,
    equipmenttype: (seen(catalog.equipmenttype) as CatalogSelection['equipmenttype']) ?? null,
  };
}
