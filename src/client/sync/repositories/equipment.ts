/**
 * Machines, offline-first (declarations: src/shared/mutations/equipment.ts; spec part 2 §2.2, §7). One user
 * action = one Dexie transaction with, in this order: new catalogue entries (manufacturer, brand, type, each its
 * own create so the pickers show them offline and a refusal names the right record), the photo registrations
 * (bytes stored with them; uploaded at send time), the machine, and its own shift plan (`shiftPlanMutation` of
 * repositories/shifts.ts, shared with the area form). The machine's `image`/`typenameplate` name the
 * registration (repositories/attachments.ts); the sender puts in the server's fileid.
 */
import { cleanMediaSupply, epochMsToYear, HOURLY_RATE_UNIT, yearToEpochMs, type CatalogSelection, type Dimensions } from '../../../shared/domain/equipment';
import type { Language } from '../../../shared/domain/language';
import { sameShiftPlan, type ShiftRow } from '../../../shared/domain/shift';
import { localized } from '../../../shared/domain/text';
import {
  createEquipment as createEquipmentDeclaration,
  deleteEquipment as deleteEquipmentDeclaration,
  toControllerList,
  updateEquipment as updateEquipmentDeclaration,
} from '../../../shared/mutations/equipment';
import { parseMutation } from '../../../shared/mutations/mutation';
import type { LocalDatabase, MirrorRow } from '../../db/local-db';
import { mutate, mutateAll, mutationStep } from '../mutate';
import { newNodeId, type MutationRequest, type WriteContext } from '../outbox';
import { fileRegistration, type PhotoInput } from './attachments';
import { createBrandMutation, createEquipmentTypeMutation, createManufacturerMutation } from './brands';
import { SHIFT_MODEL_OWNER, shiftPlanMutation } from './shifts';

export interface ControllerInput {
  manufacturer: string;
  type: string;
  softwareversion: string;
}

/** What the equipment form holds once its texts are parsed (dimensions by parseDimensions, years as years). */
export interface EquipmentValues {
  name: string;
  equipmentid: string;
  inventoryid: string;
  manufacturerserialnumber: string;
  constructionyear: number;
  commissioningyear: number | null;
  costcenter: string;
  inspectionbooknumber: string;
  dimensions: Dimensions | undefined;
  electricalpower: number | null;
  mediasupply: string[];
  controller: ControllerInput;
  hourlyrate: number | null;
  equipmentclassnodeid: string | null;
  useareashiftmodel: boolean;
  /** The machine's own operating times (the shift editor's rows, 'HH:MM'); used when useareashiftmodel is off. */
  shifts: ShiftRow[];
}

export interface EquipmentPhotos {
  /** A newly chosen photo (bytes); undefined keeps the current one. */
  image?: PhotoInput;
  typenameplate?: PhotoInput;
}

export interface CreateEquipmentRequest {
  values: EquipmentValues;
  catalog: CatalogSelection;
  areanodeid: string | null;
  equipmentpoolnodeid: string | null;
  photos: EquipmentPhotos;
  /** The language texts are written in. */
  lang: Language;
  /** Device-made id; default a new UUIDv7 (the e2e and CSV import pass none). */
  nodeid?: string;
  now?: number;
}

const textOrNull = (value: string): string | null => (value.trim() ? value.trim() : null);

function controllerList(controller: ControllerInput): [string, string, string, string] | null {
  const list: [string, string, string, string] = [controller.manufacturer.trim(), controller.type.trim(), '', controller.softwareversion.trim()];
  return list.some(Boolean) ? list : null;
}

/** The new catalogue entries of a selection as creates, and the ids the machine then refers to. */
function catalogMutations(catalog: CatalogSelection): { mutations: MutationRequest[]; equipmenttypenodeid: string } {
  const { legalentity, brand, equipmenttype } = catalog;
  if (!brand || !equipmenttype) throw new Error('brand and type are required');
  const mutations: MutationRequest[] = [];
  if (legalentity?.isnew) mutations.push(createManufacturerMutation({ nodeid: legalentity.nodeid, name: legalentity.name ?? '' }));
  if (brand.isnew) {
    const isbrandof = brand.isbrandof ?? legalentity?.nodeid;
    if (!isbrandof) throw new Error('a new brand needs its manufacturer');
    mutations.push(createBrandMutation({ nodeid: brand.nodeid, name: brand.name ?? '', isbrandof }));
  }
  if (equipmenttype.isnew) mutations.push(createEquipmentTypeMutation({ nodeid: equipmenttype.nodeid, model: equipmenttype.model ?? '', brandnodeid: brand.nodeid }));
  return { mutations, equipmenttypenodeid: equipmenttype.nodeid };
}

/** The request's fields for the basic values, shared by create and update (the row's are the declaration's). */
function basicBody(values: EquipmentValues, now: number) {
  const commissioningyear = values.commissioningyear ?? new Date(now).getUTCFullYear();
  return {
    name: values.name.trim(),
    equipmentid: textOrNull(values.equipmentid),
    inventoryid: textOrNull(values.inventoryid),
    manufacturerserialnumber: textOrNull(values.manufacturerserialnumber),
    constructiondate: yearToEpochMs(values.constructionyear),
    commissioningdate: yearToEpochMs(commissioningyear),
    costcenter: textOrNull(values.costcenter),
    inspectionbooknumber: textOrNull(values.inspectionbooknumber),
    dimensions: values.dimensions ?? null,
    electricalpower: values.electricalpower,
    mediasupply: cleanMediaSupply(values.mediasupply),
    controllerinformation: controllerList(values.controller),
    hourlyrate: values.hourlyrate === null ? null : ([values.hourlyrate, { ...HOURLY_RATE_UNIT }] as [number, { unitid: 'EUR'; namespace: string }]),
    useareashiftmodel: values.useareashiftmodel,
    equipmentclassnodeid: values.equipmentclassnodeid,
  };
}

const present = <T>(value: T | null | undefined): value is T => value !== null && value !== undefined;

/** "EQUIPMENT anlegen": returns the new machine's nodeid. */
export async function createEquipment(context: WriteContext, request: CreateEquipmentRequest): Promise<string> {
  const nodeid = request.nodeid ?? newNodeId();
  const now = request.now ?? (context.now ?? Date.now)();
  const catalog = catalogMutations(request.catalog);
  const image = request.photos.image ? fileRegistration(context, request.photos.image) : null;
  const typenameplate = request.photos.typenameplate ? fileRegistration(context, request.photos.typenameplate) : null;
  const isequipmentof = [request.areanodeid, request.equipmentpoolnodeid].filter(present);
  const ownShifts = !request.values.useareashiftmodel && request.values.shifts.length > 0 ? shiftPlanMutation(nodeid, null, request.values.shifts) : null;

  const create = mutationStep(
    createEquipmentDeclaration,
    {
      params: {},
      body: {
        lang: request.lang,
        equipmentnodeid: nodeid,
        ...basicBody(request.values, now),
        isequipmentof,
        equipmenttypenodeid: catalog.equipmenttypenodeid,
        image: image?.ref ?? null,
        typenameplate: typenameplate?.ref ?? null,
      },
    },
    {
      dependsOn: [image?.filenodeid, typenameplate?.filenodeid].filter(present),
      values: { areanodeid: request.areanodeid, equipmentpoolnodeid: request.equipmentpoolnodeid, shiftmodelnodeid: ownShifts?.nodeid ?? null },
    },
  );
  const steps = [...catalog.mutations, image?.step, typenameplate?.step, create, ownShifts].filter(present);
  await mutateAll(context, steps, { files: [image?.file, typenameplate?.file].filter(present), describedBy: create });
  return nodeid;
}

export interface UpdateEquipmentRequest {
  /**
   * The row the form was filled from. What the user changed is what differs from it — not from the mirror row now,
   * which another tab's or device's save may have changed meanwhile: compared with that, every field the form still
   * shows as it was would count as a change and undo the other save (found: tab B's save of the cost centre blanked
   * the Inventar-ID tab A had saved). Defaults to `machine`.
   */
  base?: MirrorRow;
  /**
   * The shift plan the form was filled with. The machine's own plan is sent only when the form's differs from it (or
   * the machine leaves its area's plan): sent on every save, it undid a colleague's plan saved meanwhile. Without
   * it the plan is sent.
   */
  baseShifts?: readonly ShiftRow[];
  values: EquipmentValues;
  catalog: CatalogSelection;
  photos: EquipmentPhotos;
  lang: Language;
  now?: number;
}

/** Build and commissioning date hold a year (the form picks years); a row written elsewhere may hold another day of it. */
const YEAR_FIELDS: ReadonlySet<string> = new Set(['constructiondate', 'commissioningdate']);

/**
 * Whether a field's value after the form equals what the form was filled from, as the form shows it. A year field
 * compares years: a stored 06.10.2014 and the form's 2014 are the same, so editing the name no longer sends the
 * year back as 1 January — which rewrote the day and, worse, undid a colleague's new year saved meanwhile. A text
 * kept per language (cost centre, media supply) compares the text shown in the form's language: a cost centre
 * stored in German only, shown on an English form and left alone, is no change (it was sent as the English text).
 */
function sameFieldValue(field: string, a: unknown, b: unknown, lang: string): boolean {
  if (YEAR_FIELDS.has(field) && typeof a === 'number' && typeof b === 'number') return epochMsToYear(a) === epochMsToYear(b);
  if (field === 'costcenter') return (localized(a, lang) ?? '') === (localized(b, lang) ?? '');
  if (field === 'mediasupply') return sameValue(shownTexts(a, lang), shownTexts(b, lang));
  return sameValue(a, b);
}

/** A list of per-language texts as a form in `lang` shows it. */
function shownTexts(value: unknown, lang: string): string[] {
  return Array.isArray(value) ? value.map((entry) => localized(entry, lang)).filter((text) => text !== null) : [];
}

/** Equal as stored values: objects compare by content, whatever the order of their keys (jsonb sorts them). */
function sameValue(a: unknown, b: unknown): boolean {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]));
    return value ?? null;
  };
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/**
 * The machine's own shift plan: linked on its row, or created on this device and not yet linked by a pull (the
 * create's or an edit's answer carries the row as the server had it before the plan arrived).
 */
async function ownShiftModelOf(db: LocalDatabase, machine: MirrorRow): Promise<string | null> {
  if (typeof machine.shiftmodelnodeid === 'string') return machine.shiftmodelnodeid;
  const created = await db.mirror('shiftmodels').filter((model) => model[SHIFT_MODEL_OWNER] === machine.nodeid).first();
  return created?.nodeid ?? null;
}

/**
 * "SPEICHERN": only the fields the user changed are sent — those whose row value would differ from the row the form
 * was filled from (`base`) — and the server applies them field by field, so another device's or tab's change to a
 * field this form did not touch survives; what a field gives is the declaration's own rule. The type may switch to
 * another one (new catalogue entries are created first); assignment is not edited here (§7).
 */
export async function updateEquipment(context: WriteContext, machine: MirrorRow, request: UpdateEquipmentRequest): Promise<void> {
  const now = request.now ?? (context.now ?? Date.now)();
  const catalog = catalogMutations(request.catalog);
  const image = request.photos.image ? fileRegistration(context, request.photos.image) : null;
  const typenameplate = request.photos.typenameplate ? fileRegistration(context, request.photos.typenameplate) : null;
  const fields: Record<string, unknown> = { ...basicBody(request.values, now), equipmenttypenodeid: catalog.equipmenttypenodeid };
  // why keep the stored commissioning year when the field is empty: "defaults to now" is for new machines.
  if (request.values.commissioningyear === null && machine.commissioningdate != null) fields.commissioningdate = Number(machine.commissioningdate);

  const params = { id: machine.nodeid };
  const identity = { lang: request.lang, equipmentnodeid: machine.nodeid };
  const base = request.base ?? machine;
  const after = updateEquipmentDeclaration.apply!(base, parseMutation(updateEquipmentDeclaration, { params, body: { ...identity, ...fields } }), { now, usernodeid: context.usernodeid });
  const changed = Object.fromEntries(Object.entries(fields).filter(([field]) => !sameFieldValue(field, after[field], base[field], request.lang)));
  // Values of parts go with what the form was filled from, so the server changes only the parts this form changed: a
  // colleague's new width survives this form's new height (they overwrote each other, whole).
  if (changed.dimensions !== undefined) changed.previousdimensions = Array.isArray(base.dimensions) ? base.dimensions : null;
  if (changed.controllerinformation !== undefined) changed.previouscontrollerinformation = base.controllerinformation ? toControllerList(base.controllerinformation) : null;
  if (image) changed.image = image.ref;
  if (typenameplate) changed.typenameplate = typenameplate.ref;

  const planUnchanged = request.baseShifts !== undefined && base.useareashiftmodel === false && sameShiftPlan(request.values.shifts, request.baseShifts);
  const shifts = request.values.useareashiftmodel || planUnchanged ? null : shiftPlanMutation(machine.nodeid, await ownShiftModelOf(context.db, machine), request.values.shifts);
  const update =
    Object.keys(changed).length > 0
      ? mutationStep(updateEquipmentDeclaration, { params, body: { ...identity, ...changed } }, { dependsOn: [image?.filenodeid, typenameplate?.filenodeid].filter(present) })
      : null;
  const steps = [...catalog.mutations, image?.step, typenameplate?.step, update, shifts].filter(present);
  if (steps.length === 0) return;
  const describedBy = update ?? shifts;
  await mutateAll(context, steps, { files: [image?.file, typenameplate?.file].filter(present), ...(describedBy ? { describedBy } : {}) });
}

/** Delete (after the confirmation dialog): hidden at once, removed for good by the server's tombstone. */
export async function deleteEquipment(context: WriteContext, nodeid: string): Promise<void> {
  await mutate(context, deleteEquipmentDeclaration, { params: { id: nodeid }, body: { nodeid } });
}
