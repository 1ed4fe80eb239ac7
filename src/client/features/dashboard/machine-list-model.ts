/**
 * The dashboard's machine list from the part of the plant the user follows: grouped by plant → area and by pool,
 * filtered by a search text that matches the machine's name or Equipment ID (every word of the query, any case,
 * accents ignored). Groups without a matching machine are left out. A search also finds the organisation's
 * other machines (`others`), so a machine outside the selection is never more than a search away.
 */
import type { EquipmentSummary, StructureTree } from '../../../shared/api/structure';
import { rowBudget } from '../../lib/use-rows-in-steps';

export interface MachineGroup {
  nodeid: string;
  name: string;
  machines: EquipmentSummary[];
  /** The group's machines when `machines` is only the first of them (firstRowsOf). */
  total?: number;
}

export interface MachineListModel {
  sites: { nodeid: string; name: string; areas: MachineGroup[] }[];
  pools: MachineGroup[];
  unlinked: EquipmentSummary[];
  /** Distinct machines shown (one in an area and a pool counts once). */
  total: number;
  /** While searching: matching machines of the organisation outside the user's selection, by name. */
  others: EquipmentSummary[];
}

/** Lower case without accents and with ß as ss, so "frasen" finds "Fräsen" and "SCHWEISS" finds "Schweiß". */
export function normalizeSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLocaleLowerCase('de').replace(/ß/g, 'ss');
}

export function machineMatcher(query: string): (machine: EquipmentSummary) => boolean {
  const terms = normalizeSearch(query).split(/\s+/).filter(Boolean);
  if (terms.length === 0) return () => true;
  return (machine) => {
    const haystack = normalizeSearch(`${machine.name} ${machine.equipmentid ?? ''}`);
    return terms.every((term) => haystack.includes(term));
  };
}

/** Every machine of a tree once (a machine can sit in an area and in a pool). */
export function machinesOf(tree: StructureTree): EquipmentSummary[] {
  const byId = new Map<string, EquipmentSummary>();
  for (const site of tree.sites) for (const area of site.areas) for (const machine of area.equipment) byId.set(machine.nodeid, machine);
  for (const pool of tree.equipmentpools) for (const machine of pool.equipment) byId.set(machine.nodeid, machine);
  for (const machine of tree.unlinked) byId.set(machine.nodeid, machine);
  return [...byId.values()];
}

export function buildMachineList(tree: StructureTree, query: string, all?: StructureTree): MachineListModel {
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
  const mine = new Set(machinesOf(tree).map((machine) => machine.nodeid));
  const others =
    all && query.trim()
      ? machinesOf(all)
          .filter((machine) => !mine.has(machine.nodeid) && matches(machine))
          .sort((a, b) => a.name.localeCompare(b.name, 'de'))
      : [];
  return { sites, pools, unlinked, total: shown.size, others };
}

/** How many machine rows the list shows (a machine in two places counts twice, like its two rows). */
export function rowCountOf(model: MachineListModel): number {
  const count = (groups: readonly MachineGroup[]) => groups.reduce((sum, entry) => sum + entry.machines.length, 0);
  return model.sites.reduce((sum, site) => sum + count(site.areas), 0) + count(model.pools) + model.unlinked.length + model.others.length;
}

/**
 * The list cut after its first `rows` rows, in the order it is shown (plants with their areas, pools, machines
 * without a place, other matches); the model itself when it has no more rows than that.
 */
export function firstRowsOf(model: MachineListModel, rows: number): MachineListModel {
  const take = rowBudget(rows);
  const group = (entry: MachineGroup): MachineGroup => ({ ...entry, machines: take(entry.machines), total: entry.total ?? entry.machines.length });
  if (rowCountOf(model) <= rows) return model;
  const sites = model.sites.map((site) => ({ ...site, areas: site.areas.map(group).filter((area) => area.machines.length > 0) })).filter((site) => site.areas.length > 0);
  const pools = model.pools.map(group).filter((pool) => pool.machines.length > 0);
  const unlinked = take(model.unlinked);
  const others = take(model.others);
  return { ...model, sites, pools, unlinked, others };
}
