/**
 * Pure view models of the structure screens, built from the mirror rows (src/client/sync/use-structure-data.ts):
 * plants with their areas and machine counts, pools and the selection dialog's machines (an owner's shifts:
 * src/client/sync/structure-shifts.ts).
 */
import { CARD_TITLE_MAX, compareNames, localized, truncateText } from '../../../shared/domain/text';
import { machineTypeNames, siteFields } from '../../sync/structure-mirror';
import type { StructureData } from '../../sync/use-structure-data';
import type { SelectableEquipment } from './equipment-selection';

type MirrorRow = StructureData['equipment'][number];

const text = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);
const byName = <T extends { name: string }>(items: T[], language: string) => items.sort((a, b) => compareNames(a.name, b.name, language));

export interface EquipmentCard {
  nodeid: string;
  name: string;
  equipmentid: string | null;
  brand: string | null;
  model: string | null;
}

export interface AreaView {
  nodeid: string;
  name: string;
  sitenodeid: string;
  shiftmodelnodeid: string | null;
  equipment: EquipmentCard[];
}

export interface SiteView {
  nodeid: string;
  name: string;
  street: string;
  siteid: string | null;
  zipcode: string;
  city: string;
  country: string;
  areas: AreaView[];
  equipmentCount: number;
}

export interface PoolView {
  nodeid: string;
  name: string;
  equipment: EquipmentCard[];
}

function equipmentCards(data: StructureData, language: string): Map<string, EquipmentCard & { row: MirrorRow }> {
  const typeNames = machineTypeNames(data);
  return new Map(data.equipment.map((row) => [row.nodeid, { nodeid: row.nodeid, name: localized(row.name, language) ?? '', equipmentid: text(row.equipmentid), ...typeNames(row), row }]));
}

const card = ({ row: _row, ...rest }: EquipmentCard & { row: MirrorRow }): EquipmentCard => rest;

/** Plants by name, each with its areas by name and their machines; areas of a plant being deleted are gone too. */
export function siteViews(data: StructureData, language: string): SiteView[] {
  const machines = [...equipmentCards(data, language).values()];
  const siteIds = new Set(data.sites.map((site) => site.nodeid));
  const areas = data.areas
    .filter((area) => siteIds.has(String(area.sitenodeid)))
    .map<AreaView>((area) => ({
      nodeid: area.nodeid,
      name: localized(area.name, language) ?? '',
      sitenodeid: String(area.sitenodeid),
      shiftmodelnodeid: text(area.shiftmodelnodeid),
      equipment: byName(machines.filter((machine) => machine.row.areanodeid === area.nodeid).map(card), language),
    }));
  return byName(
    data.sites.map((site) => {
      const siteAreas = byName(areas.filter((area) => area.sitenodeid === site.nodeid), language);
      return {
        ...siteFields(site, language),
        areas: siteAreas,
        equipmentCount: siteAreas.reduce((sum, area) => sum + area.equipment.length, 0),
      };
    }),
    language,
  );
}

export function poolViews(data: StructureData, language: string): PoolView[] {
  const machines = [...equipmentCards(data, language).values()];
  return byName(
    data.equipmentpools.map((pool) => ({
      nodeid: pool.nodeid,
      name: localized(pool.name, language) ?? '',
      equipment: byName(machines.filter((machine) => machine.row.equipmentpoolnodeid === pool.nodeid).map(card), language),
    })),
    language,
  );
}

/**
 * Every machine for the selection dialog, with where it is now. A link to an area or pool that no longer exists
 * (deleted here, waiting for the server) counts as none, as the server will make it.
 */
export function selectableEquipment(data: StructureData, language: string): SelectableEquipment[] {
  const sites = new Map(siteViews(data, language).flatMap((site) => site.areas.map((area) => [area.nodeid, `${site.name} › ${area.name}`] as const)));
  const pools = new Map(poolViews(data, language).map((pool) => [pool.nodeid, pool.name]));
  // By name, as every other list of machines: the machines screen's 'Nicht verknüpfte Geräte' showed them as created.
  const cards = byName([...equipmentCards(data, language).values()], language);
  return cards.map(({ row, ...machine }) => {
    const areanodeid = typeof row.areanodeid === 'string' && sites.has(row.areanodeid) ? row.areanodeid : null;
    const equipmentpoolnodeid = typeof row.equipmentpoolnodeid === 'string' && pools.has(row.equipmentpoolnodeid) ? row.equipmentpoolnodeid : null;
    const location = [areanodeid && sites.get(areanodeid), equipmentpoolnodeid && pools.get(equipmentpoolnodeid)].filter(Boolean).join(' · ') || null;
    return { ...machine, areanodeid, equipmentpoolnodeid, location };
  });
}

/**
 * The names a plant's, an area's or a pool's name must differ from (`nameTaken`, src/shared/domain/text.ts): the
 * other plants, the other areas of the same plant, the other pools — two of one name cannot be told apart in the
 * pickers, the plant list and the dashboard. `nodeid` is the record edited (left out), null for a new one.
 */
export function fellowNames(data: StructureData, language: string, of: { kind: 'site' | 'pool'; nodeid: string | null } | { kind: 'area'; nodeid: string | null; sitenodeid: string }): string[] {
  const site = of.kind === 'area' ? of.sitenodeid : null;
  const rows = of.kind === 'site' ? data.sites : of.kind === 'pool' ? data.equipmentpools : data.areas.filter((area) => area.sitenodeid === site);
  return rows.filter((row) => row.nodeid !== of.nodeid).map((row) => localized(row.name, language) ?? '');
}

/** Part 2 §9: a card's title cut to CARD_TITLE_MAX characters. */
export function truncateTitle(title: string, max = CARD_TITLE_MAX): string {
  return truncateText(title, max);
}
