/**
 * Equipment as CSV (/export): one row per machine with every field of the equipment form, names instead of ids
 * for catalogue and assignment (a person edits the file in Excel), numbers and decimals in the form's language.
 * Import plans first (dry run): each row is checked with the form's shared rules and says whether it creates a
 * machine, changes one (its `nodeid` column names a known machine) or changes nothing; nothing is written
 * until the user confirms the plan.
 */
import { CONTROLLER_TEXT_MAX, MEDIA_SUPPLY_TEXT_MAX } from '../../../shared/api/equipment';
import { CATALOG_NAME_MAX, commissionedBeforeBuilt, EARLIEST_EQUIPMENT_YEAR, decimalSeparatorFor, isFutureYear, yearToEpochMs, type CatalogSelection } from '../../../shared/domain/equipment';
import { localized, matchKey, trimText } from '../../../shared/domain/text';
import { wholePartPattern } from '../../../shared/domain/decimal-text';
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
  parseDecimal,
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

/** The columns of the controller's entries and of the catalogue pickers, for an error that names the column. */
const CONTROLLER_COLUMNS = { manufacturer: 'controllermanufacturer', type: 'controllertype', softwareversion: 'controllersoftwareversion' } as const satisfies Record<string, EquipmentCsvColumn>;
const CATALOG_COLUMNS = { legalentity: 'manufacturer', brand: 'brand', equipmenttype: 'type' } as const satisfies Record<string, EquipmentCsvColumn>;

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

/** Why a row cannot be imported; the screen translates `csv.errors.<code>` with `value`, `name`, `lines`. */
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
    | 'commissionedBeforeBuilt'
    | 'yearTooEarly'
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
    | 'unknownColumn'
    | 'duplicateNodeid'
    | 'duplicateEquipmentId'
    | 'equipmentIdExists';
  column?: EquipmentCsvColumn | string;
  value?: string;
  /** tooBig, tooLong: the limit. */
  max?: number;
  /** equipmentIdExists: the name of the machine that has the Equipment-ID. */
  name?: string;
  /** duplicateNodeid, duplicateEquipmentId: the file's other lines with the same value. */
  lines?: number[];
}

export type PlannedRow =
  | { line: number; action: 'create'; name: string; state: EquipmentFormState; nodeid: string; errors: [] }
  /** `changes`: the columns whose values the update changes, in file order. */
  | { line: number; action: 'update'; name: string; state: EquipmentFormState; nodeid: string; machine: MirrorRow; changes: EquipmentCsvColumn[]; errors: [] }
  | { line: number; action: 'unchanged'; name: string; nodeid: string; errors: [] }
  | { line: number; action: 'error'; name: string; errors: RowError[] };

export interface ImportPlan {
  rows: PlannedRow[];
  /** The columns the header names (none: the file is no equipment CSV at all). */
  columns: EquipmentCsvColumn[];
  /** Header cells that match no column (ignored, shown as a warning). */
  unknownHeaders: string[];
  /** Columns not in the file: an update keeps the machine's value, a new machine leaves the field empty. */
  missingHeaders: EquipmentCsvColumn[];
  /** How the file writes decimals (decides "1.300" and "1,300"; see `readCsvNumber`). */
  decimalSeparator: DecimalSeparator;
}

/** A column's header text per language (`{de: 'Interner Name', en: 'Internal name'}`); the key itself is always accepted. */
export type CsvHeaderNames = (column: EquipmentCsvColumn) => Readonly<Record<string, string>>;

export type DecimalSeparator = ',' | '.';

const NUMBER_COLUMNS = ['width', 'height', 'depth', 'electricalpower', 'hourlyrate'] as const satisfies readonly EquipmentCsvColumn[];

// trimText as the schemas store names: "Schuler\u200B" in a cell is the brand "Schuler", not a new one.
const norm = matchKey;

type NumberShape =
  | { kind: 'none' }
  | { kind: 'integer' }
  /** One `.` or `,` with exactly three digits after it and one to three before ("1.300"): a decimal or a thousands group. */
  | { kind: 'ambiguous'; separator: DecimalSeparator }
  | { kind: 'decimal'; separator: DecimalSeparator }
  | { kind: 'grouped'; separator: DecimalSeparator };

/** What a number cell's separators say, before knowing the file's convention. */
function numberShape(text: string): NumberShape {
  if (/^\d+$/.test(text)) return { kind: 'integer' };
  const comma = text.includes(',');
  const dot = text.includes('.');
  if (comma && dot) return { kind: 'decimal', separator: text.lastIndexOf(',') > text.lastIndexOf('.') ? ',' : '.' };
  if (!comma && !dot) return { kind: 'none' };
  const separator: DecimalSeparator = comma ? ',' : '.';
  const parts = text.split(separator);
  if (parts.length > 2) return { kind: 'grouped', separator };
  const [whole = '', fraction = ''] = parts;
  return /^[1-9]\d{0,2}$/.test(whole) && /^\d{3}$/.test(fraction) ? { kind: 'ambiguous', separator } : { kind: 'decimal', separator };
}

// The forms' rule for a whole part (bare digits, or groups of three not starting with 0), by the group mark.
const WHOLE: Record<DecimalSeparator, RegExp> = { '.': new RegExp(`^${wholePartPattern('.')}$`), ',': new RegExp(`^${wholePartPattern(',')}$`) };

/**
 * A number cell written the German way (1300,25 · 1.300,25) or the English way (1300.25 · 1,300.25): the number,
 * null when empty, undefined when it is no number (a sign, letters, a misplaced group). Only a cell like "1.300" or
 * "1,300" (one separator, three digits after it, one to three before) can be read both ways; `convention` — the
 * file's decimal separator — decides it: in a German file "1.300" is 1300 and "1,300" is 1,3; in an English one
 * the other way round.
 */
export function readCsvNumber(cell: string, convention: DecimalSeparator): number | null | undefined {
  const text = cell.trim();
  if (text === '') return null;
  const shape = numberShape(text);
  if (shape.kind === 'none') return undefined;
  if (shape.kind === 'integer') return Number(text);
  const decimal = shape.kind === 'decimal' || (shape.kind === 'ambiguous' && shape.separator === convention) ? shape.separator : null;
  const group: DecimalSeparator = decimal === null ? shape.separator : decimal === ',' ? '.' : ',';
  const at = decimal === null ? -1 : text.lastIndexOf(decimal);
  const whole = at < 0 ? text : text.slice(0, at);
  const fraction = at < 0 ? '' : text.slice(at + 1);
  if (at >= 0 && !/^\d+$/.test(fraction)) return undefined;
  const digits = WHOLE[group].test(whole) ? whole.split(group).join('') : undefined;
  if (digits === undefined) return undefined;
  return Number(fraction ? `${digits}.${fraction}` : digits);
}

/** Which column each header cell names (the first cell naming a column wins), and the cells naming none. */
function matchHeader(header: readonly string[], headerNames: CsvHeaderNames) {
  const columnIndex = new Map<EquipmentCsvColumn, number>();
  const unknownHeaders: string[] = [];
  header.forEach((cell, index) => {
    const column = EQUIPMENT_CSV_COLUMNS.find((candidate) => [candidate, ...Object.values(headerNames(candidate))].some((name) => norm(name) === norm(cell)));
    if (column && !columnIndex.has(column)) columnIndex.set(column, index);
    else if (cell.trim()) unknownHeaders.push(cell);
  });
  return { columnIndex, unknownHeaders };
}

/**
 * The file's decimal separator: the language of its header (the export writes headers and numbers in the same
 * language), else what its unambiguous number cells use (more "12,5" than "12.5": a comma), else the UI language's.
 */
export function csvDecimalSeparator(rows: readonly string[][], headerNames: CsvHeaderNames, lang: string): DecimalSeparator {
  const [header = [], ...body] = rows;
  const votes = new Map<string, number>();
  for (const cell of header) {
    for (const column of EQUIPMENT_CSV_COLUMNS) {
      const languages = Object.entries(headerNames(column))
        .filter(([, text]) => norm(text) === norm(cell))
        .map(([language]) => language);
      // A header that reads the same in every language ("nodeid") says nothing about the file's language.
      if (languages.length === 1) votes.set(languages[0]!, (votes.get(languages[0]!) ?? 0) + 1);
    }
  }
  const ranked = [...votes.entries()].sort((a, b) => b[1] - a[1]);
  const [first, second] = ranked;
  if (first && (!second || first[1] > second[1])) return decimalSeparatorFor(first[0]);
  const { columnIndex } = matchHeader(header, headerNames);
  const count = { ',': 0, '.': 0 };
  for (const cells of body) {
    for (const column of NUMBER_COLUMNS) {
      const at = columnIndex.get(column);
      const shape = at === undefined ? null : numberShape((cells[at] ?? '').trim());
      if (shape?.kind === 'decimal') count[shape.separator] += 1;
    }
  }
  if (count[','] !== count['.']) return count[','] > count['.'] ? ',' : '.';
  return decimalSeparatorFor(lang);
}

/** Every text a stored localised value has (`{de, en}` → both; a plain string → itself). */
function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.values(value as Record<string, unknown>).filter((text): text is string => typeof text === 'string');
}

/**
 * Plans the import of parsed CSV rows (first row = header). `headerNames` gives, per column, its header text in
 * each language. New manufacturers, brands and types are made once per name. A row that updates a machine changes
 * only the columns the file has; a missing column keeps the machine's value.
 */
export function planEquipmentImport(
  rows: readonly string[][],
  mirror: CsvMirror,
  lang: string,
  headerNames: CsvHeaderNames,
  now: number = Date.now(),
  /** Each row's number in the file as Excel shows it (`parseCsvTable`); without it, row i is line i + 1. */
  rowNumbers?: readonly number[],
): ImportPlan {
  const [header = [], ...body] = rows;
  // The line the user finds the row on: blank rows the parser skipped still count in the file.
  const lineOf = (index: number) => rowNumbers?.[index + 1] ?? index + 2;
  const { columnIndex, unknownHeaders } = matchHeader(header, headerNames);
  const columns = EQUIPMENT_CSV_COLUMNS.filter((column) => columnIndex.has(column));
  const missingHeaders = EQUIPMENT_CSV_COLUMNS.filter((column) => column !== 'nodeid' && !columnIndex.has(column));
  const decimalSeparator = csvDecimalSeparator(rows, headerNames, lang);

  const lookup = mirrorCatalogLookup(mirror.brands, mirror.equipmenttypes);
  // A name in the UI language first, then in any language the record has (a file from the other language's UI).
  const byName = (list: readonly MirrorRow[], text: string, field = 'name') => {
    const wanted = norm(text);
    return list.find((row) => norm(localized(row[field], lang) ?? '') === wanted) ?? list.find((row) => textsOf(row[field]).some((name) => norm(name) === wanted));
  };
  // New catalogue entries made by this import, by name, so two rows naming the same new brand share it.
  const newManufacturers = new Map<string, string>();
  const newBrands = new Map<string, { nodeid: string; manufacturer: string }>();
  const newTypes = new Map<string, string>();
  const currentYear = new Date(now).getUTCFullYear();

  const fileCell = (cells: readonly string[], column: EquipmentCsvColumn) => {
    const at = columnIndex.get(column);
    return at === undefined ? '' : (cells[at] ?? '').trim();
  };
  const machineOf = (nodeid: string) => (nodeid ? mirror.equipment.find((row) => row.nodeid === nodeid) : undefined);
  // Lines per value, to find a machine twice in the file and two new machines with one Equipment-ID.
  const linesOf = (key: (cells: readonly string[]) => string) => {
    const lines = new Map<string, number[]>();
    body.forEach((cells, index) => {
      const value = key(cells);
      if (value) lines.set(value, [...(lines.get(value) ?? []), lineOf(index)]);
    });
    return lines;
  };
  const nodeidLines = linesOf((cells) => fileCell(cells, 'nodeid'));
  // The Equipment-ID a row gives a machine anew: a new machine's, or the changed one of a machine it updates ('' for
  // none: no ID, no such column for an update, or the machine's own ID kept).
  const claimedId = (cells: readonly string[]) => {
    const machine = machineOf(fileCell(cells, 'nodeid'));
    if (machine && !columnIndex.has('equipmentid')) return '';
    const id = norm(fileCell(cells, 'equipmentid'));
    return machine && typeof machine.equipmentid === 'string' && norm(machine.equipmentid) === id ? '' : id;
  };
  const claimLines = linesOf(claimedId);
  const machineWithEquipmentId = new Map<string, MirrorRow>();
  for (const machine of mirror.equipment) {
    const id = typeof machine.equipmentid === 'string' ? norm(machine.equipmentid) : '';
    if (id && !machineWithEquipmentId.has(id)) machineWithEquipmentId.set(id, machine);
  }

  const planned = body.map((cells, index): PlannedRow => {
    const line = lineOf(index);
    const errors: RowError[] = [];
    const existing = machineOf(fileCell(cells, 'nodeid'));
    const base = existing ? { ...formStateFromRow(existing, { lang, lookup, areas: mirror.areas, shifts: [] }), hourlyrate: formatDecimal(hourlyRateAmount(existing.hourlyrate), lang) } : null;
    const baseCells = existing ? equipmentCsvRow(existing, mirror, lang) : null;
    // A column the file does not have keeps an updated machine's value; a new machine's field stays empty.
    const keeps = (column: EquipmentCsvColumn) => base !== null && !columnIndex.has(column);
    const cell = (column: EquipmentCsvColumn) => (baseCells && keeps(column) ? baseCells[column] : fileCell(cells, column));
    // A number from the file, in whichever form it was written, as the form's language writes it.
    const numberCell = (column: (typeof NUMBER_COLUMNS)[number]) => {
      const text = cell(column);
      if (keeps(column)) return column === 'hourlyrate' ? base!.hourlyrate : text;
      const value = readCsvNumber(text, decimalSeparator);
      return value === null || value === undefined || /e/i.test(String(value)) ? text : String(value).replace('.', decimalSeparatorFor(lang));
    };

    const nodeid = fileCell(cells, 'nodeid');
    const sameNodeid = (nodeidLines.get(nodeid) ?? []).filter((other) => other !== line);
    if (nodeid && sameNodeid.length > 0) errors.push({ code: 'duplicateNodeid', column: 'nodeid', value: nodeid, lines: sameNodeid });
    const name = cell('name');
    // As the server stores it (trimText): a name of only invisible characters is none.
    if (!trimText(name)) errors.push({ code: 'nameRequired', column: 'name' });
    const equipmentid = cell('equipmentid');
    // One Equipment-ID, one machine: a new machine must not repeat one (importing the same file twice would make
    // every machine twice), nor may an updated machine take another's — as the equipment form refuses it. A new row
    // that IS that machine as it stands (a file imported before, or in part: a tab closed halfway) is decided below,
    // once the row is read; then it is unchanged, and the rest of the file can be taken over.
    const claimed = claimedId(cells);
    const idOwner = claimed ? machineWithEquipmentId.get(claimed) : undefined;
    if (claimed && !idOwner) {
      const sameId = (claimLines.get(claimed) ?? []).filter((other) => other !== line);
      if (sameId.length > 0) errors.push({ code: 'duplicateEquipmentId', column: 'equipmentid', value: equipmentid, lines: sameId });
    }

    // Catalogue: names → existing records, or new ones (§4 rules decide what may be combined).
    const manufacturerName = cell('manufacturer');
    const brandName = cell('brand');
    const typeName = cell('type');
    let catalog: CatalogSelection = { legalentity: null, brand: null, equipmenttype: null };
    const existingBrand = brandName ? byName(mirror.brands, brandName) : undefined;
    const existingManufacturer = manufacturerName ? byName(mirror.manufacturers, manufacturerName) : undefined;
    if (base && keeps('manufacturer') && keeps('brand') && keeps('type')) {
      catalog = base.catalog;
    } else {
      if (!brandName) errors.push({ code: 'brandRequired', column: 'brand' });
      if (!typeName) errors.push({ code: 'typeRequired', column: 'type' });
      if (existingBrand) {
        const owner = String(existingBrand.manufacturernodeid ?? '');
        if (manufacturerName && existingManufacturer?.nodeid !== owner) errors.push({ code: 'brandNotOfManufacturer', column: 'manufacturer', value: manufacturerName });
        catalog = { legalentity: { isnew: false, nodeid: owner }, brand: { isnew: false, nodeid: existingBrand.nodeid, isbrandof: owner }, equipmenttype: null };
        const existingType = typeName ? byName(mirror.equipmenttypes.filter((type) => type.brandnodeid === existingBrand.nodeid), typeName, 'model') : undefined;
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
    }

    const year = (column: 'constructionyear' | 'commissioningyear'): number | null => {
      if (base && keeps(column)) return column === 'constructionyear' ? base.constructionyear : base.commissioningyear;
      const text = cell(column);
      if (!text) return null;
      if (!/^\d{4}$/.test(text)) {
        errors.push({ code: 'invalidYear', column, value: text });
        return null;
      }
      const value = Number(text);
      if (isFutureYear(yearToEpochMs(value), now) || value > currentYear) errors.push({ code: 'futureYear', column, value: text });
      // The form offers no earlier year; a typo ("1800" for "1980") is said, not stored.
      if (value < EARLIEST_EQUIPMENT_YEAR) errors.push({ code: 'yearTooEarly', column, value: text });
      return value;
    };
    const constructionyear = year('constructionyear');
    if (!cell('constructionyear')) errors.push({ code: 'constructionYearRequired', column: 'constructionyear' });
    const commissioningyear = year('commissioningyear');
    if (commissionedBeforeBuilt(constructionyear, commissioningyear)) errors.push({ code: 'commissionedBeforeBuilt', column: 'commissioningyear', value: String(commissioningyear) });

    const pool = cell('pool') ? byName(mirror.equipmentpools, cell('pool')) : undefined;
    if (cell('pool') && !pool) errors.push({ code: 'unknownPool', column: 'pool', value: cell('pool') });
    const site = cell('site') ? byName(mirror.sites, cell('site')) : undefined;
    if (cell('site') && !site) errors.push({ code: 'unknownSite', column: 'site', value: cell('site') });
    const area = cell('area') ? byName(site ? mirror.areas.filter((row) => row.sitenodeid === site.nodeid) : mirror.areas, cell('area')) : undefined;
    if (cell('area') && !area) errors.push({ code: 'unknownArea', column: 'area', value: cell('area') });
    const equipmentClass = cell('equipmentclass') ? byName(mirror.equipmentclasses, cell('equipmentclass')) : undefined;
    if (cell('equipmentclass') && !equipmentClass) errors.push({ code: 'unknownClass', column: 'equipmentclass', value: cell('equipmentclass') });

    const mode = existing ? 'edit' : 'add';
    const state: EquipmentFormState = {
      catalog,
      name,
      equipmentid,
      inventoryid: cell('inventoryid'),
      costcenter: cell('costcenter'),
      commissioningyear,
      inspectionbooknumber: cell('inspectionbooknumber'),
      constructionyear,
      manufacturerserialnumber: cell('serialnumber'),
      dimensions: [numberCell('width'), numberCell('height'), numberCell('depth')],
      electricalpower: numberCell('electricalpower'),
      mediasupply: base && keeps('mediasupply') ? base.mediasupply : cell('mediasupply') ? cell('mediasupply').split('|') : [],
      controller: { manufacturer: cell('controllermanufacturer'), type: cell('controllertype'), softwareversion: cell('controllersoftwareversion') },
      equipmentpoolnodeid: pool?.nodeid ?? (base ? base.equipmentpoolnodeid : null),
      sitenodeid: site?.nodeid ?? (area ? String(area.sitenodeid) : null),
      areanodeid: area?.nodeid ?? (base ? base.areanodeid : null),
      hourlyrate: numberCell('hourlyrate'),
      equipmentclassnodeid: base && keeps('equipmentclass') ? base.equipmentclassnodeid : (equipmentClass?.nodeid ?? null),
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
    if (check.mediasupplyTooLong.length > 0) errors.push({ code: 'tooLong', column: 'mediasupply', max: MEDIA_SUPPLY_TEXT_MAX });
    for (const field of check.controllerTooLong) errors.push({ code: 'tooLong', column: CONTROLLER_COLUMNS[field], max: CONTROLLER_TEXT_MAX });
    for (const issue of check.catalogIssues) if (issue.code === 'nameTooLong') errors.push({ code: 'tooLong', column: CATALOG_COLUMNS[issue.field as keyof typeof CATALOG_COLUMNS], max: CATALOG_NAME_MAX });
    // A pool, plant or area named but not found is said already; "Pool oder Bereich fehlt" beside it is the same cause.
    const namedUnknown = errors.some((error) => error.code === 'unknownPool' || error.code === 'unknownSite' || error.code === 'unknownArea');
    if (check.fieldIssues.includes('area') && !namedUnknown) errors.push({ code: 'assignmentRequired', column: 'pool' });
    if (idOwner) {
      if (!existing && errors.length === 0 && isMachineAsItStands(idOwner, state, mirror, lang, lookup)) return { line, action: 'unchanged', name, nodeid: idOwner.nodeid, errors: [] };
      errors.push({ code: 'equipmentIdExists', column: 'equipmentid', value: equipmentid, name: localized(idOwner.name, lang) ?? '' });
    }
    if (errors.length > 0) return { line, action: 'error', name, errors };

    // Remember new catalogue entries only for rows that will be written.
    if (catalog.legalentity?.isnew) newManufacturers.set(norm(manufacturerName), catalog.legalentity.nodeid);
    if (catalog.brand?.isnew) newBrands.set(norm(brandName), { nodeid: catalog.brand.nodeid, manufacturer: catalog.legalentity!.nodeid });
    if (catalog.equipmenttype?.isnew) newTypes.set(`${catalog.brand!.nodeid}/${norm(typeName)}`, catalog.equipmenttype.nodeid);

    if (existing && base) {
      const changes = changedColumns(base, state, lang);
      if (changes.length === 0) return { line, action: 'unchanged', name, nodeid: existing.nodeid, errors: [] };
      return { line, action: 'update', name, state, nodeid: existing.nodeid, machine: existing, changes, errors: [] };
    }
    return { line, action: 'create', name, state, nodeid: newNodeId(), errors: [] };
  });
  return { rows: planned, columns, unknownHeaders, missingHeaders, decimalSeparator };
}

/**
 * The rows "N Zeilen übernehmen" writes: every create and update, or none at all while any row has an error — a file
 * is taken over whole or not (docs/decisions.md, CSV import), so its corrected version can simply be imported again.
 */
export function rowsToWrite(plan: ImportPlan): Extract<PlannedRow, { action: 'create' | 'update' }>[] {
  if (plan.rows.some((row) => row.action === 'error')) return [];
  return plan.rows.filter((row): row is Extract<PlannedRow, { action: 'create' | 'update' }> => row.action === 'create' || row.action === 'update');
}

/**
 * Whether a row without the machine's nodeid describes that machine exactly as it stands: every column the same
 * (`changedColumns`) and in the pool and area the row names. Only then is a row repeating an Equipment-ID
 * "unverändert" rather than a second machine or an update nobody asked for.
 */
function isMachineAsItStands(machine: MirrorRow, state: EquipmentFormState, mirror: CsvMirror, lang: string, lookup: ReturnType<typeof mirrorCatalogLookup>): boolean {
  const base = { ...formStateFromRow(machine, { lang, lookup, areas: mirror.areas, shifts: [] }), hourlyrate: formatDecimal(hourlyRateAmount(machine.hourlyrate), lang) };
  const samePlace = (state.equipmentpoolnodeid === null || state.equipmentpoolnodeid === base.equipmentpoolnodeid) && (state.areanodeid === null || state.areanodeid === base.areanodeid);
  // An empty commissioning year was saved as the year of the import (§5: "defaults to now"): the file still says so.
  const asImported = state.commissioningyear === null ? { ...state, commissioningyear: base.commissioningyear } : state;
  return samePlace && changedColumns(base, asImported, lang).length === 0;
}

/**
 * The columns an update changes (file order). The assignment (pool, plant, area) is not edited by an update (§7);
 * numbers compare as numbers (85,5 = 85,50), texts as the server stores them (trimText: no surrounding spaces or
 * invisible characters).
 */
function changedColumns(base: EquipmentFormState, state: EquipmentFormState, lang: string): EquipmentCsvColumn[] {
  const number = (text: string) => {
    const parsed = parseDecimal(text, lang);
    return parsed.ok ? parsed.value : trimText(text);
  };
  const media = (list: readonly string[]) => JSON.stringify(list.map((text) => trimText(text)).filter(Boolean));
  const values = (s: EquipmentFormState): Partial<Record<EquipmentCsvColumn, unknown>> => ({
    name: trimText(s.name),
    equipmentid: trimText(s.equipmentid),
    inventoryid: trimText(s.inventoryid),
    manufacturer: s.catalog.legalentity?.nodeid ?? null,
    brand: s.catalog.brand?.nodeid ?? null,
    type: s.catalog.equipmenttype?.nodeid ?? null,
    costcenter: trimText(s.costcenter),
    commissioningyear: s.commissioningyear,
    inspectionbooknumber: trimText(s.inspectionbooknumber),
    constructionyear: s.constructionyear,
    serialnumber: trimText(s.manufacturerserialnumber),
    width: number(s.dimensions[0]),
    height: number(s.dimensions[1]),
    depth: number(s.dimensions[2]),
    electricalpower: number(s.electricalpower),
    mediasupply: media(s.mediasupply),
    controllermanufacturer: trimText(s.controller.manufacturer),
    controllertype: trimText(s.controller.type),
    controllersoftwareversion: trimText(s.controller.softwareversion),
    hourlyrate: number(s.hourlyrate),
    equipmentclass: s.equipmentclassnodeid,
  });
  const before = values(base);
  const after = values(state);
  return EQUIPMENT_CSV_COLUMNS.filter((column) => column in after && before[column] !== after[column]);
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
