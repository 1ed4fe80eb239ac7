/**
 * Where a machine is (spec part 2 §2.6, §4 "equipment-pool mapping"): at most one area and at most one pool, held
 * as two links. The moving semantics of one entry of `POST /api/assign/equipments`, for the server's write and the
 * device's mirror alike.
 */

export type LinkType = 'area' | 'pool';

export interface EquipmentLinks {
  areanodeid: string | null;
  equipmentpoolnodeid: string | null;
}

/** The row field holding a machine's link of that type. */
export const LINK_FIELD: Record<LinkType, keyof EquipmentLinks> = { area: 'areanodeid', pool: 'equipmentpoolnodeid' };

/**
 * One entry applied to a machine's links: first each `deleteequipmentof` link goes if the machine still has it (a
 * link another device changed meanwhile is left alone), then `target` replaces the link of its type.
 */
export function moveLinks(links: EquipmentLinks, deleteequipmentof: readonly { type: LinkType; nodeid: string }[], target: { type: LinkType; nodeid: string } | undefined): EquipmentLinks {
  const next = { ...links };
  for (const removal of deleteequipmentof) {
    if (next[LINK_FIELD[removal.type]] === removal.nodeid) next[LINK_FIELD[removal.type]] = null;
  }
  if (target) next[LINK_FIELD[target.type]] = target.nodeid;
  return next;
}
