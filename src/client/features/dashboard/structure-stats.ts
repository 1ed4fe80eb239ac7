/** What the dashboard derives from the plant structure tree (GET /api/allsitesareasequipments). */
import type { StructureTree } from '../../../shared/api/structure';
import { machinesOf } from './machine-list-model';

/** Distinct machines in the tree: a machine can sit in an area and in a pool at once. */
export function countEquipment(tree: StructureTree): number {
  return machinesOf(tree).length;
}

/**
 * Equipment is created into an area or a pool (spec part 2 §5: submit is disabled with "no pool and no area"),
 * so the onboarding's equipment card needs at least one of them.
 */
export function canCreateEquipment(tree: StructureTree): boolean {
  return tree.equipmentpools.length > 0 || tree.sites.some((site) => site.areas.length > 0);
}
