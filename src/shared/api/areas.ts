import { z } from 'zod';
import { embeddedAssignSchema } from './assign';
import { clientNodeid, deleteBodySchema, equipmentRefSchema, langField, optionalText, requiredText } from './fields';
import { hasShiftModelSchema, shiftRowsSchema } from './shiftmodels';

/**
 * Areas (Bereiche) of a plant, spec part 2 §2.3, §3, §7 "create area {lang, name, areaid, sitenodeid,
 * isSiteSubs, assign.payload}; delete area {areanodeid}". Feature key `site` (an area is part of its plant).
 */

/**
 * POST /api/areas. `assign.payload` links machines in the same write (moving them out of their old area;
 * entries without `isequipmentof` go to this area). `isSiteSubs`: subscribe the creator to the new area so it
 * shows on their dashboard — unless they already subscribe to the whole plant. `shifts` optionally creates the
 * area's shift plan in the same write.
 */
export const createAreaSchema = z.object({
  lang: langField,
  nodeid: clientNodeid,
  name: requiredText(),
  areaid: optionalText(),
  sitenodeid: z.uuid(),
  isSiteSubs: z.boolean().default(false),
  assign: embeddedAssignSchema,
  shifts: shiftRowsSchema.optional(),
});
export type CreateAreaInput = z.input<typeof createAreaSchema>;
export type CreateArea = z.output<typeof createAreaSchema>;

/** PUT /api/areas/{id}: name and areaid; only the fields sent change. `areanodeid`, if sent, must be the path id. */
export const updateAreaSchema = z.object({
  lang: langField,
  areanodeid: z.uuid().optional(),
  name: requiredText().optional(),
  areaid: optionalText().optional(),
});
export type UpdateAreaInput = z.input<typeof updateAreaSchema>;
export type UpdateArea = z.output<typeof updateAreaSchema>;

/** DELETE /api/areas/{id} {areanodeid}: body optional. Its machines stay, unlinked; its shift plan goes. */
export const deleteAreaSchema = deleteBodySchema('areanodeid');

export const areaSchema = z.object({
  nodeid: z.uuid(),
  name: z.string(),
  areaid: z.string().nullable(),
  sitenodeid: z.uuid(),
  sitename: z.string(),
  hasequipment: z.array(equipmentRefSchema),
  hasshiftmodel: hasShiftModelSchema,
  version: z.number().int(),
});
export type Area = z.infer<typeof areaSchema>;
