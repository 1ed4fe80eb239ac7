/**
 * The equipment form's state as typed text, how it is read from a mirror row, and how it becomes the
 * repository's values. The rules themselves (dimensions, catalogue dependency, required fields) are the shared
 * ones in src/shared/domain/equipment.ts; this file only wires the form's texts to them.
 */
import {
  catalogSelectionIssues,
  decimalSeparatorFor,
  ELECTRICAL_POWER_MAX,
  epochMsToYear,
  EARLIEST_EQUIPMENT_YEAR,
  equipmentFormIssues,
  formatDimension,
  HOURLY_RATE_MAX,
  parseDimension,
  parseDimensions,
  type CatalogIssue,
  type CatalogLookup,
  type CatalogSelection,
  type DimensionErrorCode,
  type EquipmentFormIssueField,
} from '../../../shared/domain/equipment';
import { wholePartPattern } from '../../../shared/domain/decimal-text';
import { sameName, trimText } from '../../../shared/domain/text';
import { CONTROLLER_TEXT_MAX, EQUIPMENT_TEXT_MAX, MEDIA_SUPPLY_TEXT_MAX, type EquipmentTextField } from '../../../shared/api/equipment';
import { hasShiftRowIssues, type ShiftRow } from '../../../shared/domain/shift';
import { localized } from '../../../shared/domain/text';
import type { ControllerInput, EquipmentValues } from '../../sync/repositories/equipment';
import type { MirrorRow } from '../../sync/use-mirror';
import { changedElsewhere } from '../../lib/changed-elsewhere';

export interface EquipmentFormState {
  catalog: CatalogSelection;
  name: string;
  equipmentid: string;
  inventoryid: string;
  costcenter: string;
  commissioningyear: number | null;
  inspectionbooknumber: string;
  constructionyear: number | null;
  manufacturerserialnumber: string;
  dimensions: [string, string, string];
  electricalpower: string;
  mediasupply: string[];
  controller: ControllerInput;
  equipmentpoolnodeid: string | null;
  sitenodeid: string | null;
  areanodeid: string | null;
  hourlyrate: string;
  equipmentclassnodeid: string | null;
  useareashiftmodel: boolean;
  shifts: ShiftRow[];
}

export function emptyFormState(): EquipmentFormState {
  return {
    catalog: { legalentity: null, brand: null, equipmenttype: null },
    name: '',
    equipmentid: '',
    inventoryid: '',
    costcenter: '',
    commissioningyear: null,
    inspectionbooknumber: '',
    constructionyear: null,
    manufacturerserialnumber: '',
    dimensions: ['', '', ''],
    electricalpower: '',
    mediasupply: [''],
    controller: { manufacturer: '', type: '', softwareversion: '' },
    equipmentpoolnodeid: null,
    sitenodeid: null,
    areanodeid: null,
    hourlyrate: '',
    equipmentclassnodeid: null,
    useareashiftmodel: true,
    shifts: [],
  };
}

// ---------------------------------------------------------------- reading mirror rows

export function mediaSupplyTexts(value: unknown, lang: string): string[] {
  return Array.isArray(value) ? value.map((entry) => localized(entry, lang)).filter((text) => text !== null) : [];
}

/** Controller section from the feed's object or the API's list [manufacturer, type, '', software version]. */
export function controllerFrom(value: unknown): ControllerInput {
  if (Array.isArray(value)) return { manufacturer: String(value[0] ?? ''), type: String(value[1] ?? ''), softwareversion: String(value[3] ?? '') };
  const object = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const text = (field: string) => (typeof object[field] === 'string' ? (object[field] as string) : '');
  return { manufacturer: text('manufacturer'), type: text('type'), softwareversion: text('softwareversion') };
}

/** Hourly rate amount from the feed's number or the API's [amount, unit]. */
export function hourlyRateAmount(value: unknown): number | null {
  if (typeof value === 'number') return value;
  if (Array.isArray(value) && typeof value[0] === 'number') return value[0];
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

export function formatDecimal(value: number | null | undefined, lang: string): string {
  return value === null || value === undefined ? '' : String(value).replace('.', decimalSeparatorFor(lang));
}

/** An amount of money as the form and the CSV show it: cents with two digits (85,50, not 85,5), whole euros bare. */
export function formatAmount(value: number | null | undefined, lang: string): string {
  if (value === null || value === undefined) return '';
  return Number.isInteger(value) ? String(value) : value.toFixed(2).replace('.', decimalSeparatorFor(lang));
}

/** The catalogue's answers from mirrored brands and types (for the shared dependency rules). */
export function mirrorCatalogLookup(brands: readonly MirrorRow[], types: readonly MirrorRow[]): CatalogLookup {
  const manufacturerOf = new Map(brands.map((brand) => [brand.nodeid, String(brand.manufacturernodeid ?? '')]));
  const brandOf = new Map(types.map((type) => [type.nodeid, String(type.brandnodeid ?? '')]));
  return { manufacturerOfBrand: (id) => manufacturerOf.get(id), brandOfType: (id) => brandOf.get(id) };
}

export function formStateFromRow(
  row: MirrorRow,
  context: { lang: string; lookup: CatalogLookup; areas: readonly MirrorRow[]; shifts: readonly ShiftRow[] },
): EquipmentFormState {
  const { lang, lookup } = context;
  const typeId = String(row.equipmenttypenodeid ?? '');
  const brandId = lookup.brandOfType(typeId);
  const manufacturerId = brandId ? lookup.manufacturerOfBrand(brandId) : undefined;
  const dimensions = Array.isArray(row.dimensions) ? (row.dimensions as (number | null)[]) : [];
  const area = context.areas.find((candidate) => candidate.nodeid === row.areanodeid);
  const year = (value: unknown) => (typeof value === 'number' ? epochMsToYear(value) : null);
  return {
    catalog: {
      legalentity: manufacturerId ? { isnew: false, nodeid: manufacturerId } : null,
      brand: brandId ? { isnew: false, nodeid: brandId, isbrandof: manufacturerId } : null,
      equipmenttype: typeId ? { isnew: false, nodeid: typeId, brandnodeid: brandId } : null,
      // A stored machine's manufacturer is its brand's: another brand may be chosen without clearing it first.
      ...(manufacturerId && brandId ? { legalentityFromBrand: true } : {}),
    },
    name: localized(row.name, lang) ?? '',
    equipmentid: typeof row.equipmentid === 'string' ? row.equipmentid : '',
    inventoryid: typeof row.inventoryid === 'string' ? row.inventoryid : '',
    costcenter: localized(row.costcenter, lang) ?? '',
    commissioningyear: year(row.commissioningdate),
    inspectionbooknumber: typeof row.inspectionbooknumber === 'string' ? row.inspectionbooknumber : '',
    constructionyear: year(row.constructiondate),
    manufacturerserialnumber: typeof row.manufacturerserialnumber === 'string' ? row.manufacturerserialnumber : '',
    dimensions: [0, 1, 2].map((index) => formatDimension(dimensions[index] ?? null, lang)) as [string, string, string],
    electricalpower: formatDecimal(hourlyRateAmount(row.electricalpower), lang),
    mediasupply: [...mediaSupplyTexts(row.mediasupply, lang), ''],
    controller: controllerFrom(row.controllerinformation),
    equipmentpoolnodeid: typeof row.equipmentpoolnodeid === 'string' ? row.equipmentpoolnodeid : null,
    sitenodeid: area && typeof area.sitenodeid === 'string' ? area.sitenodeid : null,
    areanodeid: typeof row.areanodeid === 'string' ? row.areanodeid : null,
    hourlyrate: formatAmount(hourlyRateAmount(row.hourlyrate), lang),
    equipmentclassnodeid: typeof row.equipmentclassnodeid === 'string' ? row.equipmentclassnodeid : null,
    useareashiftmodel: row.useareashiftmodel !== false,
    shifts: [...context.shifts],
  };
}

// ---------------------------------------------------------------- checking and converting

const DECIMAL_PATTERN = {
  // Bare digits, or thousands grouped by the other mark (German "1.250,00", English "1,250.00"); then the decimals.
  // A group never starts with 0: "0.750" is no 750 (a German typing 0.75 kW the English way is refused, not misread).
  ',': new RegExp(`^${wholePartPattern('.')}(?:,\\d+)?$`),
  '.': new RegExp(`^${wholePartPattern(',')}(?:\\.\\d+)?$`),
} as const;

/**
 * A decimal in the form's language (',' German, '.' English), at least 0; empty is null. Thousands may be grouped
 * as the language writes them ("1.250,50" in German): an hourly rate or a power is often typed that way.
 */
export function parseDecimal(text: string, lang: string): { ok: true; value: number | null } | { ok: false } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  const separator = decimalSeparatorFor(lang);
  if (!DECIMAL_PATTERN[separator].test(trimmed)) return { ok: false };
  const group = separator === ',' ? '.' : ',';
  return { ok: true, value: Number(trimmed.replaceAll(group, '').replace(separator, '.')) };
}

export interface FormCheck {
  catalogIssues: CatalogIssue[];
  fieldIssues: EquipmentFormIssueField[];
  dimensionErrors: [DimensionErrorCode | null, DimensionErrorCode | null, DimensionErrorCode | null];
  /**
   * Per dimension refused as 'invalidNumberFormat' whose text is a number with thousands grouped as the language
   * writes them ("1.250,5"): that number as the field takes it ("1250,5"), for the error to say; else null.
   */
  dimensionUngrouped: [string | null, string | null, string | null];
  nameMissing: boolean;
  electricalpowerInvalid: boolean;
  hourlyrateInvalid: boolean;
  /** Over the API's maximum: the maximum, else undefined (shown under the field, not a failed save). */
  electricalpowerTooBig?: number;
  hourlyrateTooBig?: number;
  /** Texts longer than the API takes (EQUIPMENT_TEXT_MAX): field → its maximum. */
  tooLong: Partial<Record<EquipmentTextField, number>>;
  /** Media connection rows longer than MEDIA_SUPPLY_TEXT_MAX, by index. */
  mediasupplyTooLong: number[];
  /** Controller entries longer than CONTROLLER_TEXT_MAX. */
  controllerTooLong: (keyof ControllerInput)[];
  shiftWeekdaysMissing: boolean;
  /** The values for the repository, when everything is valid. */
  values: EquipmentValues | null;
}

/**
 * Everything §5 disables the submit for (busy aside), plus the name (the server requires it) and the optional
 * number fields' format. `values` is set only when nothing is wrong.
 */
export function checkForm(state: EquipmentFormState, mode: 'add' | 'edit', lang: string, lookup: CatalogLookup): FormCheck {
  const dimensions = parseDimensions(state.dimensions, lang);
  const power = parseDecimal(state.electricalpower, lang);
  const rate = parseDecimal(state.hourlyrate, lang);
  const catalogIssues = catalogSelectionIssues(state.catalog, lookup);
  const fieldIssues = equipmentFormIssues({
    mode,
    constructiondate: state.constructionyear,
    commissioningyear: state.commissioningyear,
    equipmentpoolnodeid: state.equipmentpoolnodeid,
    areanodeid: state.areanodeid,
    dimensionsValid: dimensions.valid,
  });
  const nameMissing = trimText(state.name) === '';
  const shiftWeekdaysMissing = !state.useareashiftmodel && hasShiftRowIssues(state.shifts);
  const tooLong = Object.fromEntries(
    (Object.entries(EQUIPMENT_TEXT_MAX) as [EquipmentTextField, number][]).filter(([field, max]) => trimText(state[field]).length > max),
  ) as FormCheck['tooLong'];
  const mediasupplyTooLong = state.mediasupply.flatMap((text, index) => (text.length > MEDIA_SUPPLY_TEXT_MAX ? [index] : []));
  const controllerTooLong = (Object.keys(state.controller) as (keyof ControllerInput)[]).filter((field) => trimText(state.controller[field]).length > CONTROLLER_TEXT_MAX);
  const powerTooBig = power.ok && power.value !== null && power.value > ELECTRICAL_POWER_MAX;
  const rateTooBig = rate.ok && rate.value !== null && rate.value > HOURLY_RATE_MAX;
  const ok = catalogIssues.length === 0 && fieldIssues.length === 0 && !nameMissing && power.ok && rate.ok && !shiftWeekdaysMissing && Object.keys(tooLong).length === 0 && mediasupplyTooLong.length === 0 && controllerTooLong.length === 0 && !powerTooBig && !rateTooBig;
  return {
    catalogIssues,
    fieldIssues,
    dimensionErrors: dimensions.errors,
    dimensionUngrouped: dimensions.errors.map((error, index) => {
      if (error !== 'invalidNumberFormat') return null;
      // why: the power and rate fields beside them take grouping (parseDecimal); dimensions keep §5's rule, so the
      // field names the number it read instead of a bare "Ungültiges Zahlenformat" (a new admin typed "1.250,5").
      const read = parseDecimal(state.dimensions[index]!, lang);
      return read.ok && read.value !== null ? formatDimension(read.value, lang) : null;
    }) as FormCheck['dimensionUngrouped'],
    nameMissing,
    electricalpowerInvalid: !power.ok,
    hourlyrateInvalid: !rate.ok,
    ...(powerTooBig ? { electricalpowerTooBig: ELECTRICAL_POWER_MAX } : {}),
    ...(rateTooBig ? { hourlyrateTooBig: HOURLY_RATE_MAX } : {}),
    tooLong,
    mediasupplyTooLong,
    controllerTooLong,
    shiftWeekdaysMissing,
    values:
      ok && power.ok && rate.ok
        ? {
            name: state.name,
            equipmentid: state.equipmentid,
            inventoryid: state.inventoryid,
            manufacturerserialnumber: state.manufacturerserialnumber,
            constructionyear: state.constructionyear!,
            commissioningyear: state.commissioningyear,
            costcenter: state.costcenter,
            inspectionbooknumber: state.inspectionbooknumber,
            dimensions: dimensions.dimensions,
            electricalpower: power.value,
            mediasupply: state.mediasupply,
            controller: state.controller,
            hourlyrate: rate.value,
            equipmentclassnodeid: state.equipmentclassnodeid,
            useareashiftmodel: state.useareashiftmodel,
            shifts: state.shifts,
          }
        : null,
  };
}

/**
 * The catalogue pickers whose new entry has the name of an entry the picker already lists (a second
 * "Nordwind Maschinenbau GmbH" that could not be told apart from the first): choose the existing one instead.
 */
export function newNamesTaken(
  catalog: CatalogSelection,
  listed: { legalentity: readonly { label: string }[]; brand: readonly { label: string }[]; equipmenttype: readonly { label: string }[] },
): ('legalentity' | 'brand' | 'equipmenttype')[] {
  const typed = { legalentity: catalog.legalentity?.isnew ? catalog.legalentity.name : undefined, brand: catalog.brand?.isnew ? catalog.brand.name : undefined, equipmenttype: catalog.equipmenttype?.isnew ? catalog.equipmenttype.model : undefined };
  return (['legalentity', 'brand', 'equipmenttype'] as const).filter((field) => {
    const name = typed[field] === undefined ? undefined : trimText(typed[field]);
    return Boolean(name) && listed[field].some((option) => sameName(option.label, name!));
  });
}

// ---------------------------------------------------------------- changed elsewhere

/**
 * The fields of the edit form another device's or tab's change is said for (not the assignment, which the edit form
 * does not show, nor the photos and the machine's own shift plan, which are records of their own).
 */
export const EQUIPMENT_CHANGEABLE = [
  'catalog',
  'name',
  'equipmentid',
  'inventoryid',
  'costcenter',
  'commissioningyear',
  'inspectionbooknumber',
  'constructionyear',
  'manufacturerserialnumber',
  'equipmentclassnodeid',
  'width',
  'height',
  'depth',
  'electricalpower',
  'mediasupply',
  'controller.manufacturer',
  'controller.type',
  'controller.softwareversion',
  'hourlyrate',
  'useareashiftmodel',
] as const;
export type EquipmentChangeableField = (typeof EQUIPMENT_CHANGEABLE)[number];

const DIMENSION_INDEX = { width: 0, height: 1, depth: 2 } as const;
const CONTROLLER_PART = { 'controller.manufacturer': 'manufacturer', 'controller.type': 'type', 'controller.softwareversion': 'softwareversion' } as const;

/** A number field's value as the save reads it; text that is no number stays text (it differs from every number). */
function numberOrText(text: string, parse: (text: string) => { ok: true; value: number | null } | { ok: false }): number | string | null {
  const parsed = parse(text);
  return parsed.ok ? parsed.value : text.trim();
}

/**
 * Each changeable field's value as the save reads it (texts trimmed, numbers parsed in the form's language, the
 * empty media row left out, the catalogue by its type): "7,50" typed where another device saved 7.5 is no change.
 */
export function changeableValues(state: EquipmentFormState, lang: string): Record<EquipmentChangeableField, unknown> {
  const dimension = (index: 0 | 1 | 2) => numberOrText(state.dimensions[index], (text) => parseDimension(text, lang));
  return {
    catalog: state.catalog.equipmenttype?.nodeid ?? null,
    name: trimText(state.name),
    equipmentid: trimText(state.equipmentid),
    inventoryid: trimText(state.inventoryid),
    costcenter: trimText(state.costcenter),
    commissioningyear: state.commissioningyear,
    inspectionbooknumber: trimText(state.inspectionbooknumber),
    constructionyear: state.constructionyear,
    manufacturerserialnumber: trimText(state.manufacturerserialnumber),
    equipmentclassnodeid: state.equipmentclassnodeid,
    width: dimension(0),
    height: dimension(1),
    depth: dimension(2),
    electricalpower: numberOrText(state.electricalpower, (text) => parseDecimal(text, lang)),
    mediasupply: state.mediasupply.map((text) => trimText(text)).filter((text) => text !== ''),
    'controller.manufacturer': trimText(state.controller.manufacturer),
    'controller.type': trimText(state.controller.type),
    'controller.softwareversion': trimText(state.controller.softwareversion),
    hourlyrate: numberOrText(state.hourlyrate, (text) => parseDecimal(text, lang)),
    useareashiftmodel: state.useareashiftmodel,
  };
}

/**
 * The fields the record now (`now`, the mirror row read as the form reads it) has otherwise than the form was filled
 * from, and the form does not hold yet (docs/decisions.md, "A change from elsewhere while the edit form is open").
 */
export function equipmentChangedElsewhere(filledFrom: EquipmentFormState, now: EquipmentFormState, form: EquipmentFormState, lang: string): EquipmentChangeableField[] {
  return changedElsewhere(EQUIPMENT_CHANGEABLE, changeableValues(filledFrom, lang), changeableValues(now, lang), changeableValues(form, lang));
}

/** The form with one field set to the record's value now (*Übernehmen*); the other fields stay as they are. */
export function takeOverField(form: EquipmentFormState, now: EquipmentFormState, field: EquipmentChangeableField): EquipmentFormState {
  if (field === 'width' || field === 'height' || field === 'depth') {
    const index = DIMENSION_INDEX[field];
    return { ...form, dimensions: form.dimensions.map((text, i) => (i === index ? now.dimensions[index] : text)) as [string, string, string] };
  }
  if (field === 'controller.manufacturer' || field === 'controller.type' || field === 'controller.softwareversion') {
    const part = CONTROLLER_PART[field];
    return { ...form, controller: { ...form.controller, [part]: now.controller[part] } };
  }
  if (field === 'catalog') return { ...form, catalog: now.catalog };
  if (field === 'mediasupply') return { ...form, mediasupply: [...now.mediasupply] };
  return { ...form, [field]: now[field] };
}

/** The row fields each changeable field is stored in. */
const ROW_FIELDS: Record<Exclude<EquipmentChangeableField, keyof typeof DIMENSION_INDEX | keyof typeof CONTROLLER_PART>, readonly string[]> = {
  catalog: ['equipmenttypenodeid'],
  name: ['name'],
  equipmentid: ['equipmentid'],
  inventoryid: ['inventoryid'],
  costcenter: ['costcenter'],
  commissioningyear: ['commissioningdate'],
  inspectionbooknumber: ['inspectionbooknumber'],
  constructionyear: ['constructiondate'],
  manufacturerserialnumber: ['manufacturerserialnumber'],
  equipmentclassnodeid: ['equipmentclassnodeid'],
  electricalpower: ['electricalpower'],
  mediasupply: ['mediasupply'],
  hourlyrate: ['hourlyrate', 'hourlyratecurrency'],
  useareashiftmodel: ['useareashiftmodel'],
};

/**
 * The row the form was filled from, with one field as the record has it now: a field taken over counts as filled
 * from the record now, so its warning goes and the save does not send it again — and a third change of it is said
 * anew. Dimensions and controller entries are parts of one stored value each: only the part is taken.
 */
export function takeOverBase(base: MirrorRow, now: MirrorRow, field: EquipmentChangeableField): MirrorRow {
  if (field === 'width' || field === 'height' || field === 'depth') {
    const index = DIMENSION_INDEX[field];
    const of = (row: MirrorRow) => (Array.isArray(row.dimensions) ? (row.dimensions as (number | null)[]) : []);
    const dimensions = [0, 1, 2].map((i) => (i === index ? of(now)[i] : of(base)[i]) ?? null);
    return { ...base, dimensions: dimensions.every((value) => value === null) ? null : dimensions };
  }
  if (field === 'controller.manufacturer' || field === 'controller.type' || field === 'controller.softwareversion') {
    const part = CONTROLLER_PART[field];
    const merged = { ...controllerFrom(base.controllerinformation), [part]: controllerFrom(now.controllerinformation)[part] };
    // As the row stores it (the update declaration's toControllerObject): empty entries left out, none is null.
    const stored = Object.fromEntries(Object.entries(merged).filter(([, text]) => text !== ''));
    return { ...base, controllerinformation: Object.keys(stored).length > 0 ? stored : null };
  }
  return { ...base, ...Object.fromEntries(ROW_FIELDS[field].map((key) => [key, now[key] ?? null])) };
}

/**
 * Where to go after saving (spec part 2 §2.1: "/sites?sitenodeid after saving equipment assigned to a plant without a
 * pool", else /machines) — the list that shows the machine. Editing too: a machine of a plant area sent to the pools'
 * list after an edit was not on the screen the user landed on (admin walkthrough); the edit form is filled with the
 * machine's assignment.
 */
export function pathAfterSave(state: Pick<EquipmentFormState, 'equipmentpoolnodeid' | 'sitenodeid' | 'areanodeid'>): string {
  if (state.areanodeid && !state.equipmentpoolnodeid && state.sitenodeid) return `/sites?sitenodeid=${state.sitenodeid}`;
  return '/machines';
}

/** Years for the pickers: this year down to 1900 ("cannot be in the future"). */
export function selectableYears(now: number = Date.now()): number[] {
  const current = new Date(now).getUTCFullYear();
  return Array.from({ length: current - EARLIEST_EQUIPMENT_YEAR + 1 }, (_, index) => current - index);
}

// ---------------------------------------------------------------- the kept draft

/**
 * The form's unsaved input, kept on the device per user and machine (stores/kept-drafts.ts) until it is saved,
 * cancelled or the machine deleted: a reload, a tab the browser killed, or a tap on the navigation loses nothing
 * of a form of thirty fields. `start` is what the form was opened with (a draft equal to it is no draft); an add
 * draft keeps the new machine's id, which its sticker, maybe printed already, encodes; an edit draft keeps the row
 * and shift plan the form was filled from, so taken back it still sends only what the user changed. Photos are not
 * kept (the storage holds text): the form asks before the page unloads while it holds some.
 */
export interface EquipmentFormDraft {
  form: EquipmentFormState;
  start: EquipmentFormState;
  newId: string | null;
  base: MirrorRow | null;
  baseShifts: ShiftRow[] | null;
}

export const EQUIPMENT_DRAFT_KIND = 'equipment-form-draft';

/** The draft's key: the machine's id when editing, one "new" per user when adding. */
export const equipmentDraftKey = (mode: 'add' | 'edit', nodeid: string | null): string => (mode === 'edit' ? (nodeid ?? '') : 'new');

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every field of the form there, each of the kind the empty form has (an older version's draft is not taken back). */
function isFormState(value: unknown): value is EquipmentFormState {
  if (!isObject(value)) return false;
  const kind = (field: unknown) => (field === null ? 'null' : Array.isArray(field) ? 'array' : typeof field);
  const empty = emptyFormState() as unknown as Record<string, unknown>;
  return Object.entries(empty).every(([field, sample]) => {
    const actual = kind(value[field]);
    // Years, the pool, site, area and class are null until chosen.
    return actual === kind(sample) || (sample === null && (actual === 'number' || actual === 'string'));
  });
}

export function isEquipmentFormDraft(value: unknown): value is EquipmentFormDraft {
  if (!isObject(value)) return false;
  return (
    isFormState(value.form) &&
    isFormState(value.start) &&
    (value.newId === null || typeof value.newId === 'string') &&
    (value.base === null || (isObject(value.base) && typeof value.base.nodeid === 'string')) &&
    (value.baseShifts === null || Array.isArray(value.baseShifts))
  );
}

/** What to keep: null while the form shows what it was opened with, else the draft. */
export function equipmentDraftOf(form: EquipmentFormState, start: EquipmentFormState, keep: Omit<EquipmentFormDraft, 'form' | 'start'>): EquipmentFormDraft | null {
  return JSON.stringify(form) === JSON.stringify(start) ? null : { form, start, ...keep };
}
