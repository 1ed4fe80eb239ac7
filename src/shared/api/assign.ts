import { z } from 'zod';

/**
 * POST /api/assign/equipments — the equipment selection dialog's save (spec part 2 §2.6, §4, §7
 * "equipment-pool mapping"). Also embedded as `assign.payload` in the area, pool and equipment creates.
 *
 * Moving semantics (§4): `isequipmentof` is an area or a pool of the tenant; linking a machine to an area
 * replaces its old area link, to a pool its old pool link (a machine has at most one of each). Each
 * `deleteequipmentof` entry removes that link if the machine still has it (an unchecked box); a link the
 * machine no longer has is not an error (another device moved it first). Everything in one transaction and
 * one change version.
 */
export const deleteEquipmentOfSchema = z.object({ type: z.enum(['area', 'pool'], { error: "Must be 'area' or 'pool'" }), nodeid: z.uuid() });
export type DeleteEquipmentOf = z.infer<typeof deleteEquipmentOfSchema>;

export const assignItemSchema = z.object({
  equipmentnodeid: z.uuid(),
  /** The area or pool to link to; null/omitted when the entry only removes links. */
  isequipmentof: z.uuid().nullish(),
  deleteequipmentof: z.array(deleteEquipmentOfSchema).max(10).default([]),
});
export type AssignItemInput = z.input<typeof assignItemSchema>;
export type AssignItem = z.output<typeof assignItemSchema>;

export const ASSIGN_MAX_ITEMS = 5000;

export const assignEquipmentsSchema = z.object({
  payload: z.array(assignItemSchema).max(ASSIGN_MAX_ITEMS, `At most ${ASSIGN_MAX_ITEMS} entries`),
});
export type AssignEquipmentsInput = z.input<typeof assignEquipmentsSchema>;
export type AssignEquipments = z.output<typeof assignEquipmentsSchema>;

/**
 * `assign` inside a create: `{payload: [...]}`. In an area or pool create, an entry without `isequipmentof`
 * links the machine to the record being created.
 */
export const embeddedAssignSchema = z.object({ payload: z.array(assignItemSchema).max(ASSIGN_MAX_ITEMS) }).optional();

