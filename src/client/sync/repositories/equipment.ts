/**
 * Machines, offline-first (spec part 2 §2.2, §7 create/update/delete equipment; routes: src/shared/api/equipment.ts).
 * One user action = one Dexie transaction with, in this order: new catalogue entries (manufacturer, brand, type,
 * each its own create so the pickers show them offline and a refusal names the right record), the photo
 * registrations (bytes stored with them; uploaded at send time), the machine, and its own shift plan
 * (`shiftPlanMutation` of repositories/shifts.ts, shared with the area form). The
 * machine's `image`/`typenameplate` name the registration's device key; the sender puts in the server's fileid.
 * Mirror rows keep the change feed's shape (costcenter `{de}`, mediasupply `[{de}]`, controllerinformation
 * `{manufacturer, type, softwareversion}`, hourlyrate a number, photos as file nodeids).
 */
import type { CreateEquipmentInput, UpdateEquipmentInput } from '../../../shared/api/equipment';
import { cleanMediaSupply, HOURLY_RATE_UNIT, yearToEpochMs, type CatalogSelection, type Dimensions } from '../../../shared/domain/equipment';
import type { ShiftRow } from '../../../shared/domain/shift';
import type { MirrorRow } from '../../db/local-db';
import { PENDING_DELETE } from '../mirror-fields';
import { enqueueMutation, newNodeId, type MutationRequest, type WriteContext } from '../outbox';
import { fileExtension, type PhotoInput } from './attachments';
import { createBrandMutation, createEquipmentTypeMutation, createManufacturerMutation } from './brands';
import { shiftPlanMutation } from './shifts';

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
  lang: string;
  /** Device-made id; default a new UUIDv7 (the e2e and CSV import pass none). */
  nodeid?: string;
  now?: number;
}

const textOrNull = (value: string): string | null => (value.trim() ? value.trim() : null);

function controllerList(controller: ControllerInput): [string, string, string, string] | null {
  const list: [string, string, string, string] = [controller.manufacturer.trim(), controller.type.trim(), '', controller.softwareversion.trim()];
  return list.some(Boolean) ? list : null;
}

function controllerObject(controller: ControllerInput): Record<string, string> | null {
  const entries = Object.entries(controller).map(([key, value]) => [key, value.trim()] as const).filter(([, value]) => value !== '');
  return entries.length > 0 ? Object.fromEntries(entries) : null;
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

/** A photo's registration (POST /files) and the file reference the machine's body carries until sent. */
function photoRegistration(context: WriteContext, photo: PhotoInput) {
  const filenodeid = newNodeId();
  const extension = fileExtension(photo.name, photo.mimetype);
  const size = photo.bytes.byteLength;
  const mutation: MutationRequest = {
    action: 'uploadFile',
    method: 'POST',
    path: 'files',
    body: { count: 1, extensions: [{ nodeid: filenodeid, extension, mimetype: photo.mimetype, size }] },
    kind: 'files',
    nodeid: filenodeid,
    values: { mimetype: photo.mimetype, extension, size, status: 'pending' },
    creates: true,
    dependsOn: [filenodeid],
    upload: { fileid: filenodeid },
  };
  const file = { fileid: filenodeid, bytes: photo.bytes, mimetype: photo.mimetype, name: photo.name, size, createdAt: (context.now ?? Date.now)() };
  return { mutation, file, ref: { fileid: filenodeid, mimetype: photo.mimetype }, filenodeid };
}

/** Body fields and mirror fields of the basic values, shared by create and update. */
function basicFields(values: EquipmentValues, lang: string, now: number) {
  const mediasupply = cleanMediaSupply(values.mediasupply);
  const commissioningyear = values.commissioningyear ?? new Date(now).getUTCFullYear();
  const body = {
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
    mediasupply,
    controllerinformation: controllerList(values.controller),
    hourlyrate: values.hourlyrate === null ? null : ([values.hourlyrate, { ...HOURLY_RATE_UNIT }] as [number, { unitid: 'EUR'; namespace: string }]),
    useareashiftmodel: values.useareashiftmodel,
    equipmentclassnodeid: values.equipmentclassnodeid,
  };
  const mirror: Record<string, unknown> = {
    ...body,
    costcenter: body.costcenter === null ? null : { [lang]: body.costcenter },
    mediasupply: mediasupply.map((text) => ({ [lang]: text })),
    controllerinformation: controllerObject(values.controller),
    hourlyrate: values.hourlyrate,
  };
  return { body, mirror };
}

/** "EQUIPMENT anlegen": returns the new machine's nodeid. */
export async function createEquipment(context: WriteContext, request: CreateEquipmentRequest): Promise<string> {
  const nodeid = request.nodeid ?? newNodeId();
  const now = request.now ?? (context.now ?? Date.now)();
  const catalog = catalogMutations(request.catalog);
  const image = request.photos.image ? photoRegistration(context, request.photos.image) : null;
  const typenameplate = request.photos.typenameplate ? photoRegistration(context, request.photos.typenameplate) : null;
  const { body, mirror } = basicFields(request.values, request.lang, now);
  const isequipmentof = [request.areanodeid, request.equipmentpoolnodeid].filter((id): id is string => Boolean(id));
  const ownShifts = !request.values.useareashiftmodel && request.values.shifts.length > 0 ? shiftPlanMutation(nodeid, null, request.values.shifts) : null;

  const create: MutationRequest = {
    action: 'createEquipment',
    method: 'POST',
    path: 'equipments',
    body: {
      lang: request.lang,
      equipmentnodeid: nodeid,
      ...body,
      isequipmentof,
      equipmenttypenodeid: catalog.equipmenttypenodeid,
      image: image?.ref ?? null,
      typenameplate: typenameplate?.ref ?? null,
    } satisfies CreateEquipmentInput,
    kind: 'equipment',
    nodeid,
    values: {
      ...mirror,
      equipmenttypenodeid: catalog.equipmenttypenodeid,
      areanodeid: request.areanodeid,
      equipmentpoolnodeid: request.equipmentpoolnodeid,
      imagefilenodeid: image?.filenodeid ?? null,
      typenameplatefilenodeid: typenameplate?.filenodeid ?? null,
      hourlyratecurrency: 'EUR',
      shiftmodelnodeid: ownShifts?.nodeid ?? null,
      memo: null,
    },
    creates: true,
    dependsOn: [image?.filenodeid, typenameplate?.filenodeid].filter((id): id is string => Boolean(id)),
  };
  const mutations = [...catalog.mutations, ...(image ? [image.mutation] : []), ...(typenameplate ? [typenameplate.mutation] : []), create, ...(ownShifts ? [ownShifts] : [])];
  await enqueueMutation(context, mutations, { files: [image?.file, typenameplate?.file].filter((file) => file !== undefined) });
  return nodeid;
}

export interface UpdateEquipmentRequest {
  values: EquipmentValues;
  catalog: CatalogSelection;
  photos: EquipmentPhotos;
  lang: string;
  now?: number;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * "SPEICHERN": only the fields that differ from the mirror row are sent (the server applies them field by
 * field, so another device's change to an untouched field survives). The type may switch to another one
 * (new catalogue entries are created first); assignment is not edited here (§7).
 */
export async function updateEquipment(context: WriteContext, machine: MirrorRow, request: UpdateEquipmentRequest): Promise<void> {
  const now = request.now ?? (context.now ?? Date.now)();
  const catalog = catalogMutations(request.catalog);
  const image = request.photos.image ? photoRegistration(context, request.photos.image) : null;
  const typenameplate = request.photos.typenameplate ? photoRegistration(context, request.photos.typenameplate) : null;
  const { body, mirror } = basicFields(request.values, request.lang, now);
  // why keep the stored commissioning year when the field is empty: "defaults to now" is for new machines.
  if (request.values.commissioningyear === null && machine.commissioningdate != null) {
    body.commissioningdate = Number(machine.commissioningdate);
    mirror.commissioningdate = Number(machine.commissioningdate);
  }
  const changedBody: Record<string, unknown> = {};
  const changedMirror: Record<string, unknown> = {};
  for (const field of Object.keys(body) as (keyof typeof body)[]) {
    if (same(mirror[field], machine[field])) continue;
    changedBody[field] = body[field];
    changedMirror[field] = mirror[field];
  }
  if (catalog.equipmenttypenodeid !== machine.equipmenttypenodeid) {
    changedBody.equipmenttypenodeid = catalog.equipmenttypenodeid;
    changedMirror.equipmenttypenodeid = catalog.equipmenttypenodeid;
  }
  if (image) {
    changedBody.image = image.ref;
    changedMirror.imagefilenodeid = image.filenodeid;
  }
  if (typenameplate) {
    changedBody.typenameplate = typenameplate.ref;
    changedMirror.typenameplatefilenodeid = typenameplate.filenodeid;
  }
  const ownModel = typeof machine.shiftmodelnodeid === 'string' ? machine.shiftmodelnodeid : null;
  const shifts = !request.values.useareashiftmodel ? shiftPlanMutation(machine.nodeid, ownModel, request.values.shifts) : null;
  if (shifts && !ownModel) changedMirror.shiftmodelnodeid = shifts.nodeid;

  const mutations: MutationRequest[] = [...catalog.mutations, ...(image ? [image.mutation] : []), ...(typenameplate ? [typenameplate.mutation] : [])];
  if (Object.keys(changedMirror).length > 0) {
    mutations.push({
      action: 'updateEquipment',
      method: 'PUT',
      path: `equipments/${machine.nodeid}`,
      body: { lang: request.lang, equipmentnodeid: machine.nodeid, ...changedBody } satisfies UpdateEquipmentInput,
      kind: 'equipment',
      nodeid: machine.nodeid,
      values: changedMirror,
      dependsOn: [image?.filenodeid, typenameplate?.filenodeid].filter((id): id is string => Boolean(id)),
    });
  }
  if (shifts) mutations.push(shifts);
  if (mutations.length === 0) return;
  await enqueueMutation(context, mutations, { files: [image?.file, typenameplate?.file].filter((file) => file !== undefined) });
}

/** Delete (after the confirmation dialog): hidden at once, removed for good by the server's tombstone. */
export async function deleteEquipment(context: WriteContext, nodeid: string): Promise<void> {
  await enqueueMutation(context, {
    action: 'deleteEquipment',
    method: 'DELETE',
    path: `equipments/${nodeid}`,
    body: { nodeid },
    kind: 'equipment',
    nodeid,
    values: { [PENDING_DELETE]: true },
  });
}
