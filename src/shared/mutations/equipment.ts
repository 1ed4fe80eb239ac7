import { createEquipmentSchema, deleteEquipmentSchema, updateEquipmentSchema } from '../api/equipment';
import { epochMsToYear, yearToEpochMs } from '../domain/equipment';
import { withLanguage } from '../domain/text';
import type { EquipmentRow } from '../rows/equipment';
import { defineDelete, defineMutation, defineUpdate, deviceMadeId, idParams, noParams, sentFields, type SyncRow } from './mutation';

/**
 * Machines (spec part 1 §3, §7 and part 2 §2.2, §7); feature key `equipment`. The form's texts arrive in the
 * request's `lang` and are stored per language; the request's list forms (controller, hourly rate with its
 * unit) are stored as the row's fields.
 *
 * What `apply` cannot say and each side adds: the area and the pool (the request lists them as bare ids in
 * `isequipmentof`: the server tells them apart by looking them up, the device knows them from its form), and the
 * file rows of the photos on the server (see files.ts for how the device names a file).
 */

type Controller = NonNullable<EquipmentRow['controllerinformation']>;

/** 1 January UTC of the year the value means (a device's local midnight of 1 January still means that year). */
const yearStart = (epochMs: number): number => yearToEpochMs(epochMsToYear(epochMs));

/** The row's dimensions as three parts (none stored: three empty ones). */
function dimensionsOf(row: SyncRow | undefined): (number | null)[] {
  const value = Array.isArray(row?.dimensions) ? (row.dimensions as unknown[]) : [];
  return [0, 1, 2].map((index) => (typeof value[index] === 'number' ? (value[index] as number) : null));
}

/** The request's controller list with its four slots ('' for one not sent). */
const padController = (list: readonly string[]): string[] => [0, 1, 2, 3].map((index) => list[index] ?? '');

/** Three empty dimensions are no dimensions. */
function toDimensions(value: readonly (number | null)[] | null | undefined): EquipmentRow['dimensions'] {
  if (!value || value.every((v) => v === null)) return null;
  return [value[0] ?? null, value[1] ?? null, value[2] ?? null];
}

/** The request's [manufacturer, type, '', softwareversion] as the row's object, empty entries left out. */
function toControllerObject(list: readonly string[] | null | undefined): Controller | null {
  if (!list) return null;
  const [manufacturer, type, , softwareversion] = list;
  const info: Controller = { ...(manufacturer && { manufacturer }), ...(type && { type }), ...(softwareversion && { softwareversion }) };
  return Object.keys(info).length > 0 ? info : null;
}

/** The row's controller object as the request's list [manufacturer, type, '', softwareversion]. */
export function toControllerList(info: unknown): string[] {
  const object = info && typeof info === 'object' ? (info as Partial<Record<'manufacturer' | 'type' | 'softwareversion', unknown>>) : {};
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return [text(object.manufacturer), text(object.type), '', text(object.softwareversion)];
}

/**
 * A value of parts (the three dimensions, the controller entries) changed by a form filled from `previous`: a part
 * the form left as it was keeps what the record has now, a part it changed takes the form's. So two devices that each
 * change another part of the same value both keep their change (field-level last write wins, per part); two that
 * change the same part: the later one. Without `previous` the sent value replaces the whole.
 */
function mergeParts<T>(sent: readonly T[], previous: readonly T[] | undefined, current: readonly T[]): T[] {
  if (previous === undefined) return [...sent];
  return sent.map((part, index) => (part === previous[index] ? (current[index] as T) : part));
}

const hourlyAmount = (rate: readonly [number, unknown] | null | undefined): number | null => (rate ? rate[0] : null);

/**
 * "EQUIPMENT anlegen". `equipmentnodeid` is made on the device. New manufacturer, brand and type are their own
 * entries before this one (the route also accepts them inline, for other callers); an empty commissioning year
 * means this year.
 */
export const createEquipment = defineMutation({
  name: 'createEquipment',
  method: 'POST',
  route: '/equipments',
  params: noParams,
  body: createEquipmentSchema,
  permission: { feature: 'equipment', flag: 'create' },
  kind: 'equipment',
  creates: true,
  target: ({ body }) => deviceMadeId(body.equipmentnodeid, 'createEquipment'),
  apply: (_current, { body }, { now }): Omit<EquipmentRow, 'nodeid' | 'legalentitynodeid' | 'version' | 'areanodeid' | 'equipmentpoolnodeid' | 'shiftmodelnodeid'> => {
    if (!body.equipmenttype) throw new Error('createEquipment: the type is required');
    return {
      name: body.name,
      equipmentid: body.equipmentid,
      inventoryid: body.inventoryid,
      manufacturerserialnumber: body.manufacturerserialnumber,
      constructiondate: yearStart(body.constructiondate),
      commissioningdate: yearStart(body.commissioningdate ?? now),
      costcenter: body.costcenter === null ? null : { [body.lang]: body.costcenter },
      inspectionbooknumber: body.inspectionbooknumber,
      dimensions: toDimensions(body.dimensions),
      electricalpower: body.electricalpower ?? null,
      mediasupply: body.mediasupply.map((text) => ({ [body.lang]: text })),
      controllerinformation: toControllerObject(body.controllerinformation),
      hourlyrate: hourlyAmount(body.hourlyrate),
      hourlyratecurrency: 'EUR',
      imagefilenodeid: body.image?.fileid ?? null,
      typenameplatefilenodeid: body.typenameplate?.fileid ?? null,
      memo: null,
      equipmenttypenodeid: body.equipmenttype.nodeid,
      equipmentclassnodeid: body.equipmentclassnodeid ?? null,
      useareashiftmodel: body.useareashiftmodel,
    };
  },
});

/**
 * "SPEICHERN" of the equipment form: only the fields sent change (field-level last write wins on the server);
 * a localised field changes only in `lang`. Assignment and brand data are not edited here (§7); the type may
 * switch to another existing one. This declaration owns the route: the memo save is a narrower use of it.
 */
export const updateEquipment = defineUpdate({
  name: 'updateEquipment',
  route: '/equipments/:id',
  params: idParams,
  body: updateEquipmentSchema,
  permission: { feature: 'equipment', flag: 'update' },
  kind: 'equipment',
  apply: (current: SyncRow | undefined, { body }): Partial<EquipmentRow> => {
    const lang = body.lang;
    const media = Array.isArray(current?.mediasupply) ? (current.mediasupply as unknown[]) : [];
    return {
      ...sentFields(body, ['name', 'equipmentid', 'inventoryid', 'manufacturerserialnumber']),
      ...(body.constructiondate !== undefined && { constructiondate: yearStart(body.constructiondate) }),
      ...(body.commissioningdate !== undefined && { commissioningdate: body.commissioningdate === null ? null : yearStart(body.commissioningdate) }),
      // why an emptied cost centre is null in every language: it is read with a fallback to another language, so
      // removing only this language's text brought the other one back — the user emptied it and saw it again.
      ...(body.costcenter !== undefined && { costcenter: body.costcenter === null || body.costcenter.trim() === '' ? null : withLanguage(current?.costcenter, lang, body.costcenter) }),
      ...sentFields(body, ['inspectionbooknumber']),
      ...(body.dimensions !== undefined && {
        dimensions: toDimensions(
          body.dimensions === null
            ? null
            : mergeParts<number | null>(body.dimensions, body.previousdimensions === undefined ? undefined : (body.previousdimensions ?? [null, null, null]), dimensionsOf(current)),
        ),
      }),
      ...sentFields(body, ['electricalpower']),
      ...(body.mediasupply !== undefined && { mediasupply: body.mediasupply.map((text, i) => withLanguage(media[i], lang, text)) }),
      ...(body.controllerinformation !== undefined && {
        controllerinformation: toControllerObject(
          body.controllerinformation === null
            ? null
            : mergeParts(
                padController(body.controllerinformation),
                body.previouscontrollerinformation === undefined ? undefined : padController(body.previouscontrollerinformation ?? []),
                toControllerList(current?.controllerinformation),
              ),
        ),
      }),
      ...(body.hourlyrate !== undefined && { hourlyrate: hourlyAmount(body.hourlyrate) }),
      ...(body.image !== undefined && { imagefilenodeid: body.image?.fileid ?? null }),
      ...(body.typenameplate !== undefined && { typenameplatefilenodeid: body.typenameplate?.fileid ?? null }),
      ...sentFields(body, ['useareashiftmodel', 'equipmentclassnodeid', 'equipmenttypenodeid', 'memo']),
    };
  },
});

/** Delete after the confirmation: the machine with everything that exists only through it (the server's cascade). */
export const deleteEquipment = defineDelete({
  name: 'deleteEquipment',
  route: '/equipments/:id',
  params: idParams,
  body: deleteEquipmentSchema,
  permission: { feature: 'equipment', flag: 'delete' },
  kind: 'equipment',
});

export const equipmentMutations = [createEquipment, updateEquipment, deleteEquipment] as const;
