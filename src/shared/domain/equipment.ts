/**
 * Pure rules of the equipment form (spec part 2 §2.2, §4, §5), used by the form (E/F) and the server alike.
 * Error codes are i18n keys (`equipment.errors.<code>`); the German texts the spec names are kept next to
 * them for the server's messages.
 */

import { sameName, trimText } from './text';

// ---------------------------------------------------------------- dimensions (mm)

/** Error codes of one dimension field with the spec's German text. */
export const DIMENSION_ERROR_TEXTS = {
  invalidNumberFormat: 'Ungültiges Zahlenformat',
  belowMinimum: 'Wert muss >= 1 sein',
  aboveMaximum: 'Wert muss <= 1.000.000 sein',
} as const;
export type DimensionErrorCode = keyof typeof DIMENSION_ERROR_TEXTS;

/** Smallest accepted dimension (mm): "below 1 shows 'Wert muss >= 1 sein'". */
export const DIMENSION_MIN = 1;
/** Largest accepted dimension (mm, 1 km): the form says so instead of letting the save fail. */
export const DIMENSION_MAX = 1_000_000;
/** Largest electrical power (kW) and hourly rate (EUR) the API takes; the form checks them while typing. */
export const ELECTRICAL_POWER_MAX = 1_000_000;
export const HOURLY_RATE_MAX = 10_000_000;

/** '.' for English, ',' for every other language (§5). */
export function decimalSeparatorFor(lang: string): '.' | ',' {
  return lang.toLowerCase().startsWith('en') ? '.' : ',';
}

export type DimensionParse = { ok: true; value: number | null } | { ok: false; error: DimensionErrorCode };

/**
 * One dimension field as typed: digits with at most one decimal separator of the language ('12', '12,5' in
 * German, '12.5' in English). Empty (after trimming) is no value. Below 1 is `belowMinimum`.
 */
export function parseDimension(text: string, lang: string): DimensionParse {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  const separator = decimalSeparatorFor(lang);
  const pattern = separator === '.' ? /^\d+(\.\d+)?$/ : /^\d+(,\d+)?$/;
  if (!pattern.test(trimmed)) return { ok: false, error: 'invalidNumberFormat' };
  const value = Number(trimmed.replace(separator, '.'));
  if (value < DIMENSION_MIN) return { ok: false, error: 'belowMinimum' };
  if (value > DIMENSION_MAX) return { ok: false, error: 'aboveMaximum' };
  return { ok: true, value };
}

/** Width, height, depth in mm; an empty slot is null. */
export type Dimensions = [number | null, number | null, number | null];

export interface DimensionsParse {
  /** Undefined when all three fields are empty ("dimensions are sent undefined if all three are empty"). */
  dimensions: Dimensions | undefined;
  /** Per field (width, height, depth): the error code, or null. */
  errors: [DimensionErrorCode | null, DimensionErrorCode | null, DimensionErrorCode | null];
  valid: boolean;
}

/** The three dimension fields of the form, parsed together. */
export function parseDimensions(texts: readonly [string, string, string], lang: string): DimensionsParse {
  const parsed = texts.map((text) => parseDimension(text, lang));
  const errors = parsed.map((p) => (p.ok ? null : p.error)) as DimensionsParse['errors'];
  const values = parsed.map((p) => (p.ok ? p.value : null)) as Dimensions;
  const valid = errors.every((e) => e === null);
  return { dimensions: values.every((v) => v === null) ? undefined : values, errors, valid };
}

/** A stored dimension as the form shows it in `lang` (no grouping; the language's decimal separator). */
export function formatDimension(value: number | null | undefined, lang: string): string {
  if (value === null || value === undefined) return '';
  return String(value).replace('.', decimalSeparatorFor(lang));
}

// ---------------------------------------------------------------- years

/**
 * Build and commissioning year are "year as epoch millis": 1 January 00:00 UTC of that year. A device that sent
 * local midnight of 1 January (up to 14 hours before UTC midnight) still means that year, so reading tolerates it.
 */
export function yearToEpochMs(year: number): number {
  return Date.UTC(year, 0, 1);
}

const YEAR_READ_TOLERANCE_MS = 14 * 60 * 60 * 1000;

export function epochMsToYear(epochMs: number): number {
  return new Date(epochMs + YEAR_READ_TOLERANCE_MS).getUTCFullYear();
}

/** "Year-only pickers … cannot be in the future" (§5). */
export function isFutureYear(epochMs: number, nowMs: number = Date.now()): boolean {
  // why not `>`: a time past JavaScript's dates reads as the year NaN, which is no year, so not one in the past.
  return !(epochMsToYear(epochMs) <= new Date(nowMs).getUTCFullYear());
}

export const YEAR_IN_FUTURE_TEXT = 'Das Jahr darf nicht in der Zukunft liegen';

// ---------------------------------------------------------------- brand, type and manufacturer (§4)

/** A picker's value: an existing record (`isnew: false`) or one typed into the picker (`isnew: true`). */
export interface ManufacturerChoice {
  isnew: boolean;
  nodeid: string;
  name?: string | undefined;
}
export interface BrandChoice {
  isnew: boolean;
  nodeid: string;
  name?: string | undefined;
  /** The manufacturer's nodeid. For an existing brand it comes from the catalogue. */
  isbrandof?: string | undefined;
}
export interface EquipmentTypeChoice {
  isnew: boolean;
  nodeid: string;
  model?: string | undefined;
  brandnodeid?: string | undefined;
}

export interface CatalogSelection {
  legalentity?: ManufacturerChoice | null | undefined;
  brand?: BrandChoice | null | undefined;
  equipmenttype?: EquipmentTypeChoice | null | undefined;
  /**
   * The manufacturer is the chosen existing brand's, not one the user picked (a stored machine's too): it does not
   * narrow the brand list (any brand may be chosen instead, which brings its own manufacturer), and clearing the
   * brand clears it with it. Without it, choosing a brand first left the brand list at that manufacturer's brands
   * until the user also cleared the manufacturer.
   */
  legalentityFromBrand?: boolean;
}

/** Where existing brands and types belong; the client answers from its mirror, the server from the database. */
export interface CatalogLookup {
  /** The manufacturer of an existing brand; undefined when the brand is unknown. */
  manufacturerOfBrand(brandnodeid: string): string | undefined;
  /** The brand of an existing type; undefined when the type is unknown. */
  brandOfType(typenodeid: string): string | undefined;
}

export type CatalogIssueCode =
  /** Picker empty (red outline). */
  | 'required'
  /** A new entry without its name/model. */
  | 'nameRequired'
  /** The chosen existing record does not exist (any more). */
  | 'unknown'
  /** An existing brand with a new manufacturer, or a brand of another manufacturer than the one chosen. */
  | 'brandNotOfManufacturer'
  /** An existing type of another brand, or an existing type with a new brand. */
  | 'typeNotOfBrand'
  /** A new entry's name or model longer than the API takes (CATALOG_NAME_MAX). */
  | 'nameTooLong';

/** A new manufacturer's or brand's name, a new type's model: at most this many characters (the API's limit). */
export const CATALOG_NAME_MAX = 200;

/**
 * The brand and class forms' name: required, at most CATALOG_NAME_MAX, and not the name of another entry the user
 * would pick from the same list (`others`: a brand's fellow brands of its manufacturer, the other classes) — two
 * entries of one name cannot be told apart in a picker.
 */
export type CatalogueNameIssue = 'required' | 'tooLong' | 'taken' | null;

export function catalogueNameIssue(name: string, others: readonly string[]): CatalogueNameIssue {
  const trimmed = trimText(name);
  if (trimmed === '') return 'required';
  if (trimmed.length > CATALOG_NAME_MAX) return 'tooLong';
  return others.some((other) => sameName(other, trimmed)) ? 'taken' : null;
}

export interface CatalogIssue {
  field: 'legalentity' | 'brand' | 'equipmenttype' | 'legalentity.name' | 'brand.name' | 'equipmenttype.model';
  code: CatalogIssueCode;
}

/**
 * The brand/type/manufacturer dependency of §4 and the "missing" rule of §5, for a whole selection:
 * - brand and type are required; the manufacturer only when no existing brand gives one;
 * - an existing brand fixes the manufacturer, so a new manufacturer or another existing one is wrong;
 * - a new manufacturer has no brands yet, so its brand must be new;
 * - types are restricted to the brand: an existing type must be of the chosen existing brand; a new brand
 *   (or none) has no existing types, so its type must be new;
 * - a new brand belongs to the chosen manufacturer, a new type to the chosen brand (`isbrandof`,
 *   `brandnodeid` may be omitted and are then taken from the selection).
 * Without `lookup` only what the selection itself shows is checked.
 */
export function catalogSelectionIssues(selection: CatalogSelection, lookup?: CatalogLookup): CatalogIssue[] {
  const issues: CatalogIssue[] = [];
  const { legalentity, brand, equipmenttype } = selection;

  if (!brand) issues.push({ field: 'brand', code: 'required' });
  if (!equipmenttype) issues.push({ field: 'equipmenttype', code: 'required' });

  if (legalentity?.isnew && !trimText(legalentity.name ?? '')) issues.push({ field: 'legalentity.name', code: 'nameRequired' });
  if (brand?.isnew && !trimText(brand.name ?? '')) issues.push({ field: 'brand.name', code: 'nameRequired' });
  if (equipmenttype?.isnew && !trimText(equipmenttype.model ?? '')) issues.push({ field: 'equipmenttype.model', code: 'nameRequired' });
  const tooLong = (text: string | undefined) => trimText(text ?? '').length > CATALOG_NAME_MAX;
  if (legalentity?.isnew && tooLong(legalentity.name)) issues.push({ field: 'legalentity', code: 'nameTooLong' });
  if (brand?.isnew && tooLong(brand.name)) issues.push({ field: 'brand', code: 'nameTooLong' });
  if (equipmenttype?.isnew && tooLong(equipmenttype.model)) issues.push({ field: 'equipmenttype', code: 'nameTooLong' });

  if (brand && !brand.isnew) {
    const manufacturer = lookup ? lookup.manufacturerOfBrand(brand.nodeid) : brand.isbrandof;
    if (lookup && manufacturer === undefined) issues.push({ field: 'brand', code: 'unknown' });
    else if (legalentity && (legalentity.isnew || (manufacturer !== undefined && legalentity.nodeid !== manufacturer))) {
      issues.push({ field: 'brand', code: 'brandNotOfManufacturer' });
    }
  }
  if (brand?.isnew) {
    if (!legalentity) issues.push({ field: 'legalentity', code: 'required' });
    else if (brand.isbrandof !== undefined && brand.isbrandof !== legalentity.nodeid) issues.push({ field: 'brand', code: 'brandNotOfManufacturer' });
  }

  if (equipmenttype && !equipmenttype.isnew) {
    const typeBrand = lookup ? lookup.brandOfType(equipmenttype.nodeid) : equipmenttype.brandnodeid;
    if (lookup && typeBrand === undefined) issues.push({ field: 'equipmenttype', code: 'unknown' });
    else if (brand && (brand.isnew || (typeBrand !== undefined && typeBrand !== brand.nodeid))) issues.push({ field: 'equipmenttype', code: 'typeNotOfBrand' });
  }
  if (equipmenttype?.isnew && brand && equipmenttype.brandnodeid !== undefined && equipmenttype.brandnodeid !== brand.nodeid) {
    issues.push({ field: 'equipmenttype', code: 'typeNotOfBrand' });
  }
  return issues;
}

/**
 * Choosing in the brand picker (§4): an existing brand fixes the manufacturer and keeps the type only if it
 * is of that brand; a new brand or clearing the brand resets the type. A new brand belongs to the chosen
 * manufacturer.
 */
export function chooseBrand(selection: CatalogSelection, brand: BrandChoice | null, lookup: CatalogLookup): CatalogSelection {
  const { legalentityFromBrand: fromBrand, ...rest } = selection;
  if (!brand) return fromBrand ? { legalentity: null, brand: null, equipmenttype: null } : { ...rest, brand: null, equipmenttype: null };
  if (brand.isnew) {
    // A new brand belongs to the manufacturer shown, which is now the user's choice to keep or change. Typing its
    // name is no new choice: a new type already typed for it stays (it was lost at every keystroke).
    const sameNewBrand = selection.brand?.isnew === true && selection.brand.nodeid === brand.nodeid;
    const keptType = sameNewBrand && selection.equipmenttype?.isnew ? selection.equipmenttype : null;
    return { ...rest, brand: { ...brand, isbrandof: selection.legalentity?.nodeid }, equipmenttype: keptType };
  }
  const manufacturer = lookup.manufacturerOfBrand(brand.nodeid);
  const type = selection.equipmenttype;
  const keepType = type && !type.isnew && lookup.brandOfType(type.nodeid) === brand.nodeid;
  // The user's own pick of this manufacturer stays theirs; otherwise the manufacturer comes with the brand.
  const picked = !fromBrand && selection.legalentity && !selection.legalentity.isnew && selection.legalentity.nodeid === manufacturer;
  return {
    legalentity: manufacturer === undefined ? selection.legalentity : { isnew: false, nodeid: manufacturer },
    brand: { ...brand, isbrandof: manufacturer },
    equipmenttype: keepType ? type : null,
    ...(manufacturer !== undefined && !picked ? { legalentityFromBrand: true } : {}),
  };
}

/**
 * Choosing in the manufacturer picker: a brand that no longer fits (an existing brand of another
 * manufacturer, or any existing brand for a new manufacturer) is cleared with its type; a new brand moves along.
 */
export function chooseManufacturer(selection: CatalogSelection, manufacturer: ManufacturerChoice | null, lookup: CatalogLookup): CatalogSelection {
  const { legalentityFromBrand: _fromBrand, ...rest } = selection;
  const brand = selection.brand;
  if (brand?.isnew) return { ...rest, legalentity: manufacturer, brand: { ...brand, isbrandof: manufacturer?.nodeid } };
  const fits = brand && manufacturer && !manufacturer.isnew && lookup.manufacturerOfBrand(brand.nodeid) === manufacturer.nodeid;
  return fits ? { ...rest, legalentity: manufacturer } : { legalentity: manufacturer, brand: null, equipmenttype: null };
}

/** Choosing in the type picker: a new type belongs to the chosen brand. */
export function chooseEquipmentType(selection: CatalogSelection, type: EquipmentTypeChoice | null): CatalogSelection {
  if (!type) return { ...selection, equipmenttype: null };
  return { ...selection, equipmenttype: type.isnew ? { ...type, brandnodeid: selection.brand?.nodeid } : type };
}

/**
 * Brand options: all brands, or only the manufacturer's the user chose (none for a new manufacturer). A manufacturer
 * that came with the chosen brand (`fromBrand`) narrows nothing: choosing another brand brings that one's.
 */
export function brandOptions<B extends { manufacturernodeid: string }>(brands: readonly B[], manufacturer: ManufacturerChoice | null | undefined, fromBrand = false): B[] {
  if (!manufacturer || fromBrand) return [...brands];
  if (manufacturer.isnew) return [];
  return brands.filter((b) => b.manufacturernodeid === manufacturer.nodeid);
}

/** Type options: only the chosen existing brand's types; none for a new or missing brand. */
export function equipmentTypeOptions<T extends { brandnodeid: string }>(types: readonly T[], brand: BrandChoice | null | undefined): T[] {
  if (!brand || brand.isnew) return [];
  return types.filter((t) => t.brandnodeid === brand.nodeid);
}

// ---------------------------------------------------------------- required fields (§5)

export type EquipmentFormIssueField = 'buildyear' | 'commissioningyear' | 'equipmentpool' | 'area' | 'dimensions';

/**
 * An equipment type as people call it: brand, then model ("DMG MORI DMU 65 monoBLOCK"). A model that already starts
 * with its brand's name ("TruBend 5130" of TruBend) is not preceded by it again. Either part may be missing.
 */
export function brandAndModel(brand: string | null | undefined, model: string | null | undefined): string {
  const brandText = brand?.trim() ?? '';
  const modelText = model?.trim() ?? '';
  if (brandText === '' || modelText.toLocaleLowerCase().startsWith(`${brandText.toLocaleLowerCase()} `) || modelText.toLocaleLowerCase() === brandText.toLocaleLowerCase()) return modelText || brandText;
  return modelText === '' ? brandText : `${brandText} ${modelText}`;
}

/** The earliest build or commissioning year the form offers (and an import takes). */
export const EARLIEST_EQUIPMENT_YEAR = 1900;

/** A machine cannot be put into service before it was built: both years given, commissioning the earlier. */
export function commissionedBeforeBuilt(constructionyear: number | null | undefined, commissioningyear: number | null | undefined): boolean {
  return typeof constructionyear === 'number' && typeof commissioningyear === 'number' && commissioningyear < constructionyear;
}

/**
 * The non-catalogue reasons "EQUIPMENT anlegen" is disabled: build year empty; a commissioning year before the
 * build year; when adding, neither pool nor area chosen (both fields show the error); a dimension invalid. Combine
 * with catalogSelectionIssues. Years are calendar years (the form's pickers).
 */
export function equipmentFormIssues(form: {
  mode: 'add' | 'edit';
  constructiondate: number | null | undefined;
  commissioningyear?: number | null | undefined;
  equipmentpoolnodeid: string | null | undefined;
  areanodeid: string | null | undefined;
  dimensionsValid: boolean;
}): EquipmentFormIssueField[] {
  const issues: EquipmentFormIssueField[] = [];
  if (form.constructiondate === null || form.constructiondate === undefined) issues.push('buildyear');
  if (commissionedBeforeBuilt(form.constructiondate, form.commissioningyear)) issues.push('commissioningyear');
  if (form.mode === 'add' && !form.equipmentpoolnodeid && !form.areanodeid) issues.push('equipmentpool', 'area');
  if (!form.dimensionsValid) issues.push('dimensions');
  return issues;
}

/** Media connection rows as sent: trimmed, empty rows dropped (§5). */
export function cleanMediaSupply(rows: readonly string[]): string[] {
  return rows.map((row) => row.trim()).filter((row) => row !== '');
}

/** The API's list form of the controller section: [manufacturer, type, '' (unused slot), software version]. */
export type ControllerInformationList = [string, string, string, string];

/** Hourly rate unit object (§3): EUR in the ISO 4217 namespace. */
export const HOURLY_RATE_UNIT = { unitid: 'EUR', namespace: 'ISO 4217' } as const;
