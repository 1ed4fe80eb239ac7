/**
 * The dashboard's machine list from the plant structure: grouped by plant → area and by pool, filtered by a search
 * text that matches the machine's name or Equipment ID (every word of the query, any case, accents ignored).
 * Groups without a matching machine are left out.
 */
import type { EquipmentSummary, StructureTree } from '../../../shared/api/structure';

export interface MachineGroup {
  nodeid: string;
  name: string;
  machines: EquipmentSummary[];
}

export interface MachineListModel {
  sites: { nodeid: string; name: string; areas: MachineGroup[] }[];
  pools: MachineGroup[];
  unlinked: EquipmentSummary[];
  /** Distinct machines shown (one in an area and a pool counts once). */
  total: number;
}

/** Lower case without accents, so "stanz" finds "Stanze" and "presse" finds "PRESSE". */
export function normalizeSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLocaleLowerCase('de');
}

export function machineMatcher(query: string): (machine: EquipmentSummary) => boolean {
  const terms = normalizeSearch(query).split(/\s+/).filter(Boolean);
  if (terms.length === 0) return () => true;
  return (machine) => {
    const haystack = normalizeSearch(`${machine.name} ${machine.equipmentid ?? ''}`);
    return terms.every((term) => haystack.includes(term));
  };
}

export function buildMachineList(tree: StructureTree, query: string): MachineListModel {
  const matches = machineMatcher(query);
  const shown = new Set<string>();
  const keep = (machines: EquipmentSummary[]) => {
    const kept = machines.filter(matches);
    kept.forEach((machine) => shown.add(machine.nodeid));
    return kept;
  };
  const sites = tree.sites
    .map((site) => ({
      nodeid: site.nodeid,
      name: site.name,
      areas: site.areas.map((area) => ({ nodeid: area.nodeid, name: area.name, machines: keep(area.equipment) })).filter((area) => area.machines.length > 0),
    }))
    .filter((site) => site.areas.length > 0);
  const pools = tree.equipmentpools.map((pool) => ({ nodeid: pool.nodeid, name: pool.name, machines: keep(pool.equipment) })).filter((pool) => pool.machines.length > 0);
  const unlinked = keep(tree.unlinked);
  return { sites, pools, unlinked, total: shown.size };
}
