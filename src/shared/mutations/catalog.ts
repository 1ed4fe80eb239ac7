import { z } from 'zod';
import { createBrandSchema, createEquipmentClassSchema, createEquipmentTypeSchema, createLegalEntitySchema, updateBrandSchema, updateEquipmentClassSchema } from '../api/catalog';
import { withLanguage } from '../domain/text';
import type { BrandRow, EquipmentClassRow, EquipmentTypeRow, ManufacturerRow } from '../rows/catalog';
import { defineMutation, noParams } from './mutation';

/**
 * The machine catalogue (spec part 2 §3, §4, §7): manufacturers, brands, equipment types and classes; feature
 * key `equipment` with the flag of the action. The equipment form queues the creates of new entries in the
 * same transaction as the machine that needs them, each its own entry, so a refusal names the right record.
 */

const idParams = z.object({ id: z.uuid() });

const required = (nodeid: string | undefined, what: string): string => {
  if (!nodeid) throw new Error(`${what}: the device must choose the nodeid`);
  return nodeid;
};

/** A manufacturer the organisation records (POST /legalentities); it never logs in, so it is a machine builder. */
export const createManufacturer = defineMutation({
  name: 'createManufacturer',
  method: 'POST',
  route: '/legalentities',
  params: noParams,
  body: createLegalEntitySchema,
  permission: { feature: 'equipment', flag: 'create' },
  kind: 'manufacturers',
  creates: true,
  target: ({ body }) => required(body.nodeid, 'createManufacturer'),
  apply: (_current, { body }): Pick<ManufacturerRow, 'name' | 'clienttype'> => ({ name: body.name, clienttype: 'machinebuilder' }),
});

/** /create-brand: a brand of a manufacturer (`isbrandof`). */
export const createBrand = defineMutation({
  name: 'createBrand',
  method: 'POST',
  route: '/brands',
  params: noParams,
  body: createBrandSchema,
  permission: { feature: 'equipment', flag: 'create' },
  kind: 'brands',
  creates: true,
  target: ({ body }) => required(body.nodeid, 'createBrand'),
  apply: (_current, { body }): Pick<BrandRow, 'name' | 'manufacturernodeid' | 'isbrandof'> => ({ name: body.name, manufacturernodeid: body.isbrandof, isbrandof: body.isbrandof }),
});

/** /edit-brand: only the fields sent change. */
export const updateBrand = defineMutation({
  name: 'updateBrand',
  method: 'PUT',
  route: '/brands/:id',
  params: idParams,
  body: updateBrandSchema,
  permission: { feature: 'equipment', flag: 'update' },
  kind: 'brands',
  target: ({ params }) => params.id,
  apply: (_current, { body }): Partial<BrandRow> => ({
    ...(body.name !== undefined && { name: body.name }),
    ...(body.isbrandof !== undefined && { manufacturernodeid: body.isbrandof, isbrandof: body.isbrandof }),
  }),
});

/** A model of a brand, made from the equipment form's type picker. */
export const createEquipmentType = defineMutation({
  name: 'createEquipmentType',
  method: 'POST',
  route: '/equipmenttypes',
  params: noParams,
  body: createEquipmentTypeSchema,
  permission: { feature: 'equipment', flag: 'create' },
  kind: 'equipmenttypes',
  creates: true,
  target: ({ body }) => required(body.nodeid, 'createEquipmentType'),
  apply: (_current, { body }): Pick<EquipmentTypeRow, 'model' | 'brandnodeid'> => ({ model: body.model, brandnodeid: body.brandnodeid }),
});

/** /create-equipment-class: the name is written under the form's language. */
export const createEquipmentClass = defineMutation({
  name: 'createEquipmentClass',
  method: 'POST',
  route: '/equipmentclasses',
  params: noParams,
  body: createEquipmentClassSchema,
  permission: { feature: 'equipment', flag: 'create' },
  kind: 'equipmentclasses',
  creates: true,
  target: ({ body }) => required(body.nodeid, 'createEquipmentClass'),
  apply: (_current, { body }): Pick<EquipmentClassRow, 'name'> => ({ name: { [body.lang]: body.name } }),
});

/** Renames a class in one language; the others stay. */
export const updateEquipmentClass = defineMutation({
  name: 'updateEquipmentClass',
  method: 'PUT',
  route: '/equipmentclasses/:id',
  params: idParams,
  body: updateEquipmentClassSchema,
  permission: { feature: 'equipment', flag: 'update' },
  kind: 'equipmentclasses',
  target: ({ params }) => params.id,
  apply: (current, { body }): Pick<EquipmentClassRow, 'name'> => ({ name: withLanguage(current?.name, body.lang, body.name) }),
});

export const catalogMutations = [createManufacturer, createBrand, updateBrand, createEquipmentType, createEquipmentClass, updateEquipmentClass] as const;
