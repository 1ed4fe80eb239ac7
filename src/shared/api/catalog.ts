import { z } from 'zod';
import { clientNodeid, equipmentRefSchema, langField, requiredText } from './fields';

/**
 * The machine catalogue: manufacturers (legal entities the organisation records), their brands, the brands'
 * equipment types (models), and equipment classes. Spec part 2 §3, §7 "brands, equipmenttypes,
 * equipmentclasses GET/POST/PUT; POST /legalentities; GET /getlebrty". Feature key `equipment`.
 * Paths the spec does not show: /api/brands, /api/equipmenttypes, /api/equipmentclasses, /api/legalentities
 * (each with /{id} for PUT and DELETE).
 */

// ---------------------------------------------------------------- manufacturers (legal entities)

/** POST /api/legalentities: a manufacturer recorded by the organisation. */
export const createLegalEntitySchema = z.object({ lang: langField, nodeid: clientNodeid, name: requiredText() });
export type CreateLegalEntityInput = z.input<typeof createLegalEntitySchema>;
export type CreateLegalEntity = z.output<typeof createLegalEntitySchema>;

/** PUT /api/legalentities/{id}: rename a recorded manufacturer. */
export const updateLegalEntitySchema = z.object({ lang: langField, name: requiredText() });
export type UpdateLegalEntity = z.output<typeof updateLegalEntitySchema>;

// ---------------------------------------------------------------- brands

/** POST /api/brands: `isbrandof` is the manufacturer (a legal entity the organisation recorded). */
export const createBrandSchema = z.object({ lang: langField, nodeid: clientNodeid, name: requiredText(), isbrandof: z.uuid() });
export type CreateBrandInput = z.input<typeof createBrandSchema>;
export type CreateBrand = z.output<typeof createBrandSchema>;

/** PUT /api/brands/{id}: only the fields sent change. */
export const updateBrandSchema = z.object({ lang: langField, name: requiredText().optional(), isbrandof: z.uuid().optional() });
export type UpdateBrandInput = z.input<typeof updateBrandSchema>;
export type UpdateBrand = z.output<typeof updateBrandSchema>;

export const brandSchema = z.object({
  nodeid: z.uuid(),
  name: z.string(),
  /** The manufacturer's nodeid. */
  isbrandof: z.uuid(),
  version: z.number().int(),
});
export type Brand = z.infer<typeof brandSchema>;

// ---------------------------------------------------------------- equipment types

/** POST /api/equipmenttypes: a model of a brand. */
export const createEquipmentTypeSchema = z.object({ lang: langField, nodeid: clientNodeid, model: requiredText(), brandnodeid: z.uuid() });
export type CreateEquipmentTypeInput = z.input<typeof createEquipmentTypeSchema>;
export type CreateEquipmentType = z.output<typeof createEquipmentTypeSchema>;

/** PUT /api/equipmenttypes/{id}: only the fields sent change. */
export const updateEquipmentTypeSchema = z.object({ lang: langField, model: requiredText().optional(), brandnodeid: z.uuid().optional() });
export type UpdateEquipmentTypeInput = z.input<typeof updateEquipmentTypeSchema>;
export type UpdateEquipmentType = z.output<typeof updateEquipmentTypeSchema>;

export const equipmentTypeSchema = z.object({ nodeid: z.uuid(), model: z.string(), brandnodeid: z.uuid(), version: z.number().int() });
export type EquipmentType = z.infer<typeof equipmentTypeSchema>;

// ---------------------------------------------------------------- equipment classes

/** POST /api/equipmentclasses: the name is localised and written under `lang`. */
export const createEquipmentClassSchema = z.object({ lang: langField, nodeid: clientNodeid, name: requiredText() });
export type CreateEquipmentClassInput = z.input<typeof createEquipmentClassSchema>;
export type CreateEquipmentClass = z.output<typeof createEquipmentClassSchema>;

export const updateEquipmentClassSchema = z.object({ lang: langField, name: requiredText() });
export type UpdateEquipmentClass = z.output<typeof updateEquipmentClassSchema>;

export const equipmentClassSchema = z.object({ nodeid: z.uuid(), name: z.string(), version: z.number().int() });
export type EquipmentClass = z.infer<typeof equipmentClassSchema>;

// ---------------------------------------------------------------- lists

/** GET /api/getlebrty?includeBrands=true&includeTypes=true: manufacturers with their brands and types, by name. */
export const getlebrtyQuerySchema = z.object({
  lang: langField,
  includeBrands: z.stringbool().default(false),
  includeTypes: z.stringbool().default(false),
});

export const lebrtySchema = z.array(
  z.object({
    nodeid: z.uuid(),
    name: z.string(),
    hasbrand: z
      .array(
        z.object({
          nodeid: z.uuid(),
          name: z.string(),
          hasequipmenttype: z.array(z.object({ nodeid: z.uuid(), model: z.string() })).optional(),
        }),
      )
      .optional(),
  }),
);
export type Lebrty = z.infer<typeof lebrtySchema>;

/** GET /api/brands-types-equipments: every brand with its manufacturer, types and the machines of each type. */
export const brandsTypesEquipmentsSchema = z.array(
  z.object({
    nodeid: z.uuid(),
    name: z.string(),
    isbrandof: z.object({ nodeid: z.uuid(), name: z.string() }),
    hasequipmenttype: z.array(z.object({ nodeid: z.uuid(), model: z.string(), hasequipment: z.array(equipmentRefSchema) })),
  }),
);
export type BrandsTypesEquipments = z.infer<typeof brandsTypesEquipmentsSchema>;
