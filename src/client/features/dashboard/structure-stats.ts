/** What the dashboard derives from the plant structure tree (GET /api/allsitesareasequipments). */
import type { StructureTree } from '../../../shared/api/structure';

export function countEquipment(tree: StructureTree): number {
  const inAreas = tree.sites.reduce((sum, site) => sum + site.areas.reduce((s, area) => s + area.equipment.length, 0), 0);
  const inPools = tree.equipmentpools.reduce((sum, pool) => sum + pool.equipment.length, 0);
  return inAreas + inPools + tree.unlinked.length;
}

/**
 * Equipment is created into an area or a pool (spec part 2 §5: submit is disabled with "no pool and no area"),
 * so the onboarding's equipment card needs at least one of them.
 */
export function canCreateEquipment(tree: StructureTree): boolean {
  return tree.equipmentpools.length > 0 || tree.sites.some((site) => site.areas.length > 0);
}

export function siteEquipmentCount(site: StructureTree['sites'][number]): number {
  return site.areas.reduce((sum, area) => sum + area.equipment.length, 0);
}
