/** What the dashboard derives from the plant structure tree (GET /api/allsitesareasequipments). */
import type { StructureTree } from '../../../shared/api/structure';

/** Distinct machines in the tree: a machine can sit in an area and in a pool at once. */
export function countEquipment(tree: StructureTree): number {
  const ids = new Set<string>();
  for (const site of tree.sites) for (const area of site.areas) for (const item of area.equipment) ids.add(item.nodeid);
  for (const pool of tree.equipmentpools) for (const item of pool.equipment) ids.add(item.nodeid);
  for (const item of tree.unlinked) ids.add(item.nodeid);
  return ids.size;
}

/**
 * Equipment is created into an area or a pool (spec part 2 §5: submit is disabled with "no pool and no area"),
 * so the onboarding's equipment card needs at least one of them.
 */
export function canCreateEquipment(tree: StructureTree): boolean {
  return tree.equipmentpools.length > 0 || tree.sites.some((site) => site.areas.length > 0);
}
