import { createBrandSchema, createEquipmentClassSchema, createEquipmentTypeSchema, createLegalEntitySchema, updateBrandSchema, updateEquipmentClassSchema } from '../api/catalog';
import { withLanguage } from '../domain/text';
import type { BrandRow, EquipmentClassRow, EquipmentTypeRow, ManufacturerRow } from '../rows/catalog';
import { defineCreate, defineUpdate, idParams } from './mutation';

/**
 * The machine catalogue (spec part 2 §3, §4, §7): manufacturers, brands, equipment types and classes; feature
 * key `equipment` with the flag of the action. The equipment form queues the creates of new entries in the
 * same transaction as the machine that needs them, each its own entry, so a refusal names the right record.
 */

/** A manufacturer the organisation records (POST /legalentities); it never logs in, so it is a machine builder. */
export const createManufacturer = defineCreate({
  name: 'createManufacturer',
  route: '/legalentities',
  body: createLegalEntitySchema,
  permission: { feature: 'equipment', flag: 'create' },
  kind: 'manufacturers',
  apply: (_current, { body }): Pick<ManufacturerRow, 'name' | 'clienttype'> => ({ name: body.name, clienttype: 'machinebuilder' }),
});

/** /create-brand: a brand of a manufacturer (`isbrandof`). */
export const createBrand = defineCreate({
  name: 'createBrand',
  route: '/brands',
  body: createBrandSchema,
  permission: { feature: 'equipment', flag: 'create' },
  kind: 'brands',
  apply: (_current, { body }): Pick<BrandRow, 'name' | 'manufacturernodeid' | 'isbrandof'> => ({ name: body.name, manufacturernodeid: body.isbrandof, isbrandof: body.isbrandof }),
});

/** /edit-brand: only the fields sent change. */
export const updateBrand = defineUpdate({
  name: 'updateBrand',
  route: '/brands/:id',
  params: idParams,
  body: updateBrandSchema,
  permission: { feature: 'equipment', flag: 'update' },
  kind: 'brands',
  apply: (_current, { body }): Partial<BrandRow> => ({
    ...(body.name !== undefined && { name: body.name }),
    ...(body.isbrandof !== undefined && { manufacturernodeid: body.isbrandof, isbrandof: body.isbrandof }),
  }),
});

/** A model of a brand, made from the equipment form's type picker. */
export const createEquipmentType = defineCreate({
  name: 'createEquipmentType',
  route: '/equipmenttypes',
  body: createEquipmentTypeSchema,
  permission: { feature: 'equipment', flag: 'create' },
  kind: 'equipmenttypes',
  apply: (_current, { body }): Pick<EquipmentTypeRow, 'model' | 'brandnodeid'> => ({ model: body.model, brandnodeid: body.brandnodeid }),
});

/** /create-equipment-class: the name is written under the form's language. */
export const createEquipmentClass = defineCreate({
  name: 'createEquipmentClass',
  route: '/equipmentclasses',
  body: createEquipmentClassSchema,
  permission: { feature: 'equipment', flag: 'create' },
  kind: 'equipmentclasses',
  apply: (_current, { body }): Pick<EquipmentClassRow, 'name'> => ({ name: { [body.lang]: body.name } }),
});

/** Renames a class in one language; the others stay. */
export const updateEquipmentClass = defineUpdate({
  name: 'updateEquipmentClass',
  route: '/equipmentclasses/:id',
  params: idParams,
  body: updateEquipmentClassSchema,
  permission: { feature: 'equipment', flag: 'update' },
  kind: 'equipmentclasses',
  apply: (current, { body }): Pick<EquipmentClassRow, 'name'> => ({ name: withLanguage(current?.name, body.lang, body.name) }),
});

export const catalogMutations = [createManufacturer, createBrand, updateBrand, createEquipmentType, createEquipmentClass, updateEquipmentClass] as const;
