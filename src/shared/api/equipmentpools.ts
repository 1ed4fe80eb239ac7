import { z } from 'zod';
import { embeddedAssignSchema } from './assign';
import { clientNodeid, deleteBodySchema, equipmentRefSchema, langField, requiredText } from './fields';

/**
 * Equipment pools, spec part 2 §2.4, §3, §7 "create pool {lang, name, isequipmentpoolof, assign.payload};
 * update pool {lang, name, equipmentpoolnodeid}; delete pool {equipmentpoolnodeid}". Feature key
 * `equipmentpool`. The name is localised: it is written under `lang`, read in the asked language (else German).
 */

/** POST /api/equipmentpools. `isequipmentpoolof` is the caller's legal entity (optional; another one is 404). */
export const createPoolSchema = z.object({
  lang: langField,
  nodeid: clientNodeid,
  name: requiredText(),
  isequipmentpoolof: z.uuid().optional(),
  assign: embeddedAssignSchema,
});
export type CreatePoolInput = z.input<typeof createPoolSchema>;
export type CreatePool = z.output<typeof createPoolSchema>;

/** PUT /api/equipmentpools/{id}: the name in `lang`. `equipmentpoolnodeid`, if sent, must be the path id. */
export const updatePoolSchema = z.object({
  lang: langField,
  equipmentpoolnodeid: z.uuid().optional(),
  name: requiredText(),
});
export type UpdatePoolInput = z.input<typeof updatePoolSchema>;
export type UpdatePool = z.output<typeof updatePoolSchema>;

/** DELETE /api/equipmentpools/{id} {equipmentpoolnodeid}: body optional; its machines stay, unlinked. */
export const deletePoolSchema = deleteBodySchema('equipmentpoolnodeid');

/** GET /api/equipmentpools?usernodeid&lang: with `usernodeid` only the pools that user subscribes to. */
export const listPoolsQuerySchema = z.object({ lang: langField, usernodeid: z.uuid().optional() });

export const poolSchema = z.object({
  nodeid: z.uuid(),
  name: z.string(),
  hasequipment: z.array(equipmentRefSchema),
  version: z.number().int(),
});
export type Pool = z.infer<typeof poolSchema>;
