import { createAreaSchema, deleteAreaSchema, updateAreaSchema } from '../api/areas';
import { assignEquipmentsSchema } from '../api/assign';
import { createPoolSchema, deletePoolSchema, updatePoolSchema } from '../api/equipmentpools';
import { createShiftModelSchema, updateShiftModelSchema } from '../api/shiftmodels';
import { createSiteSchema, deleteSiteSchema, updateSiteSchema } from '../api/sites';
import { LINK_FIELD, moveLinks, type EquipmentLinks, type LinkType } from '../domain/assignment';
import type { AreaRow, EquipmentPoolRow, SiteRow } from '../rows/structure';
import { defineCreate, defineDelete, defineMutation, defineUpdate, idParams, noParams, sentFields } from './mutation';
import { withLanguage } from '../domain/text';

/**
 * The plant structure (spec part 2 §2.3–§2.7, §7): plants and their areas (feature key `site`), equipment pools
 * (`equipmentpool`), the selection dialog's machine moves (`equipment` update) and weekly shift plans.
 */

type RowFields<Row> = Omit<Row, 'nodeid' | 'legalentitynodeid' | 'version'>;

// ---------------------------------------------------------------- plants

/** "Werk anlegen" (createSite). The legal entity named must be the caller's own (the server answers 404 otherwise). */
export const createSite = defineCreate({
  name: 'createSite',
  route: '/sites',
  body: createSiteSchema,
  permission: { feature: 'site', flag: 'create' },
  kind: 'sites',
  apply: (_current, { body }): Omit<SiteRow, 'nodeid' | 'version'> => ({
    legalentitynodeid: body.legalentitynodeid,
    name: body.name,
    street: body.street,
    siteid: body.siteid,
    zipcode: body.zipcode,
    city: body.city,
    country: body.country,
  }),
});

/** updateSite: only the fields sent change (the plant form sends all of them). `sitenodeid` must be the path's id. */
export const updateSite = defineUpdate({
  name: 'updateSite',
  route: '/sites/:id',
  params: idParams,
  body: updateSiteSchema,
  permission: { feature: 'site', flag: 'update' },
  kind: 'sites',
  apply: (_current, { body }): Partial<RowFields<SiteRow>> => sentFields(body, ['name', 'street', 'siteid', 'zipcode', 'city', 'country']),
});

/** deleteSite, with its areas (the server's cascade); machines in them stay, unlinked. */
export const deleteSite = defineDelete({
  name: 'deleteSite',
  route: '/sites/:id',
  params: idParams,
  body: deleteSiteSchema,
  permission: { feature: 'site', flag: 'delete' },
  kind: 'sites',
});

// ---------------------------------------------------------------- areas

/**
 * "Bereich anlegen". What else the payload can ask for — a shift plan (`shifts`), machines moved in
 * (`assign.payload`), the creator's subscription (`isSiteSubs`) — are further rows the server writes in the same
 * transaction; the device writes each of them as its own entry instead (one mirror row per entry). The plan's id
 * is the server's, so the row starts without one.
 */
export const createArea = defineCreate({
  name: 'createArea',
  route: '/areas',
  body: createAreaSchema,
  permission: { feature: 'site', flag: 'create' },
  kind: 'areas',
  apply: (_current, { body }): RowFields<AreaRow> => ({ name: body.name, areaid: body.areaid, sitenodeid: body.sitenodeid, shiftmodelnodeid: null }),
});

/** updateArea: name and areaid, only the fields sent. `areanodeid`, if sent, must be the path's id. */
export const updateArea = defineUpdate({
  name: 'updateArea',
  route: '/areas/:id',
  params: idParams,
  body: updateAreaSchema,
  permission: { feature: 'site', flag: 'update' },
  kind: 'areas',
  apply: (_current, { body }): Partial<RowFields<AreaRow>> => sentFields(body, ['name', 'areaid']),
});

/** deleteArea: its machines stay, unlinked; its shift plan and the subscriptions to it go (the server's cascade). */
export const deleteArea = defineDelete({
  name: 'deleteArea',
  route: '/areas/:id',
  params: idParams,
  body: deleteAreaSchema,
  permission: { feature: 'site', flag: 'delete' },
  kind: 'areas',
});

// ---------------------------------------------------------------- equipment pools

/** "create pool": the name under `lang`. Machines moved in (`assign.payload`) are the device's own entries. */
export const createPool = defineCreate({
  name: 'createPool',
  route: '/equipmentpools',
  body: createPoolSchema,
  permission: { feature: 'equipmentpool', flag: 'create' },
  kind: 'equipmentpools',
  apply: (_current, { body }): RowFields<EquipmentPoolRow> => ({ name: withLanguage(undefined, body.lang, body.name) }),
});

/** "update pool": the name in `lang`; the names in other languages stay. */
export const updatePool = defineUpdate({
  name: 'updatePool',
  route: '/equipmentpools/:id',
  params: idParams,
  body: updatePoolSchema,
  permission: { feature: 'equipmentpool', flag: 'update' },
  kind: 'equipmentpools',
  apply: (current, { body }): RowFields<EquipmentPoolRow> => ({ name: withLanguage(current?.name, body.lang, body.name) }),
});

/** "delete pool": its machines stay, unlinked from it. */
export const deletePool = defineDelete({
  name: 'deletePool',
  route: '/equipmentpools/:id',
  params: idParams,
  body: deletePoolSchema,
  permission: { feature: 'equipmentpool', flag: 'delete' },
  kind: 'equipmentpools',
});

// ---------------------------------------------------------------- the selection dialog's moves

const linkOf = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);

/**
 * The selection dialog's save for one machine (`POST /assign/equipments` with a one-item payload, spec part 2 §4
 * moving semantics, `moveLinks`). One entry per machine, so each changes one mirror row: a pull never overwrites a
 * move still waiting, and a refused move restores only that machine. The route takes any number of entries (the
 * spec's call); the declaration's row is the first one's machine.
 *
 * `apply` removes the `deleteequipmentof` links (they name their type). Whether `isequipmentof` is an area or a
 * pool the payload does not say — the server looks the id up, the device knows it from its form — so the device
 * writes the new link itself, as it writes a new machine's area and pool (`StepExtras.values`, mutate.ts).
 */
export const assignEquipment = defineMutation({
  name: 'assignEquipment',
  method: 'POST',
  route: '/assign/equipments',
  params: noParams,
  body: assignEquipmentsSchema,
  permission: { feature: 'equipment', flag: 'update' },
  kind: 'equipment',
  target: ({ body }) => {
    const first = body.payload[0];
    if (!first) throw new Error('assignEquipment: the payload names no machine');
    return first.equipmentnodeid;
  },
  apply: (current, { body }) => {
    const machine = body.payload[0]!.equipmentnodeid;
    let links: EquipmentLinks = { areanodeid: linkOf(current?.areanodeid), equipmentpoolnodeid: linkOf(current?.equipmentpoolnodeid) };
    const touched = new Set<LinkType>();
    for (const item of body.payload.filter((entry) => entry.equipmentnodeid === machine)) {
      links = moveLinks(links, item.deleteequipmentof, undefined);
      for (const removal of item.deleteequipmentof) touched.add(removal.type);
    }
    return Object.fromEntries([...touched].map((type) => [LINK_FIELD[type], links[LINK_FIELD[type]]]));
  },
});

// ---------------------------------------------------------------- weekly shift plans

/**
 * Mirror-only field of a shift model created on the device: whose plan it is, until the pull brings the owner's
 * `shiftmodelnodeid` (the area's or machine's own row, which this entry does not change).
 */
export const SHIFT_MODEL_OWNER = 'ownernodeid';

/**
 * "create shifts {shifts, shiftmodelof}": the plan of an area or a machine (replacing its old plan on the server).
 * The flag needed depends on the owner (an area's plan: `site` update, a machine's: `equipment` update), which
 * the service checks.
 *
 * The model's mirror row carries the saved rows as `shifts`, which is no field of the feed's row. why: a plan is
 * saved as ONE request for the model and all its rows, but an entry changes exactly one mirror row, and the rows'
 * ids and positions are the server's to make. So the saved rows ride on the model's row; the screens prefer them
 * while the entry waits and until the pull brings the shift rows of that version, whose model row (without
 * `shifts`) then replaces it.
 */
export const createShifts = defineCreate({
  name: 'createShifts',
  route: '/shiftmodels',
  body: createShiftModelSchema,
  permission: 'authenticated',
  kind: 'shiftmodels',
  apply: (_current, { body }) => ({ shifts: body.shifts, [SHIFT_MODEL_OWNER]: body.shiftmodelof }),
});

/** "update shifts {shifts, shiftnodeid}": replaces all rows of the plan. `shiftnodeid`, if sent, must be the path's id. */
export const updateShifts = defineUpdate({
  name: 'updateShifts',
  route: '/shiftmodels/:id',
  params: idParams,
  body: updateShiftModelSchema,
  permission: 'authenticated',
  kind: 'shiftmodels',
  apply: (_current, { body }) => ({ shifts: body.shifts }),
});

export const structureMutations = [
  createSite,
  updateSite,
  deleteSite,
  createArea,
  updateArea,
  deleteArea,
  createPool,
  updatePool,
  deletePool,
  assignEquipment,
  createShifts,
  updateShifts,
] as const;
