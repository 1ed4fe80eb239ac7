/**
 * The plant structure (sites → areas → machines, pools → machines, unlinked machines) built from the local
 * mirror, so the dashboard shows it offline. Same shape as GET /api/allsitesareasequipments; the dashboard
 * selects the user's part of it with `subscribedTree` (src/shared/domain/subscription.ts), as the server does.
 */
import { liveQuery } from 'dexie';
import type { EquipmentSummary, StructureTree } from '../../shared/api/structure';
import type { SubscriptionRecord } from '../../shared/domain/subscription';
import { localized } from '../../shared/domain/text';
import { getLocalDb, type LocalDatabase, type MirrorRow } from '../db/local-db';
import { isLive } from './mirror-fields';
import { readState, stateKeys } from './outbox';
import { readSubscriptions } from './repositories/subscriptions';

export interface StructureRows {
  sites: MirrorRow[];
  areas: MirrorRow[];
  equipmentpools: MirrorRow[];
  equipment: MirrorRow[];
  brands: MirrorRow[];
  equipmenttypes: MirrorRow[];
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A machine's brand and model, looked up in the mirror's brand and type rows. */
export function machineTypeNames(rows: Pick<StructureRows, 'brands' | 'equipmenttypes'>): (machine: MirrorRow) => { brand: string | null; model: string | null } {
  const brands = new Map(rows.brands.map((b) => [b.nodeid, text(b.name)]));
  const types = new Map(rows.equipmenttypes.map((t) => [t.nodeid, { model: text(t.model), brand: brands.get(String(t.brandnodeid)) ?? null }]));
  return (machine) => types.get(String(machine.equipmenttypenodeid)) ?? { brand: null, model: null };
}

/** A plant's own fields from its mirror row, as the structure tree of the API has them (the address addon may be unset). */
export function siteFields(site: MirrorRow, language: string) {
  return {
    nodeid: site.nodeid,
    name: localized(site.name, language) ?? '',
    street: text(site.street) ?? '',
    siteid: text(site.siteid),
    zipcode: text(site.zipcode) ?? '',
    city: text(site.city) ?? '',
    country: text(site.country) ?? '',
  };
}

/** Pure: the tree from mirrored rows, sorted by name at every level as the server sorts it. */
export function structureTreeFromRows(rows: StructureRows, language: string): StructureTree {
  const byName = <T extends { name: string }>(items: T[]) => items.sort((a, b) => a.name.localeCompare(b.name, language));
  const typeNames = machineTypeNames(rows);
  const summary = (row: MirrorRow): EquipmentSummary => ({ nodeid: row.nodeid, name: localized(row.name, language) ?? '', equipmentid: text(row.equipmentid), inventoryid: text(row.inventoryid), ...typeNames(row), imageurl: null });
  const machinesIn = (field: 'areanodeid' | 'equipmentpoolnodeid', nodeid: string) => byName(rows.equipment.filter((e) => e[field] === nodeid).map(summary));

  return {
    sites: byName(
      rows.sites.map((site) => ({
        ...siteFields(site, language),
        areas: byName(rows.areas.filter((a) => a.sitenodeid === site.nodeid).map((a) => ({ nodeid: a.nodeid, name: localized(a.name, language) ?? '', equipment: machinesIn('areanodeid', a.nodeid) }))),
      })),
    ),
    equipmentpools: byName(rows.equipmentpools.map((p) => ({ nodeid: p.nodeid, name: localized(p.name, language) ?? '', equipment: machinesIn('equipmentpoolnodeid', p.nodeid) }))),
    unlinked: byName(rows.equipment.filter((e) => !e.areanodeid && !e.equipmentpoolnodeid).map(summary)),
  };
}

export interface MirrorStructure {
  tree: StructureTree;
  /** The user's own subscriptions (what their dashboard shows), this device's unsent changes included. */
  subscriptions: SubscriptionRecord[];
}

/**
 * Calls `onStructure` with the mirror's structure and the user's subscriptions whenever they change (also from
 * another tab), or with null while the first sync has not completed (an empty mirror would look like an empty
 * plant). Rows deleted on this device but not yet acknowledged are left out.
 */
export function watchMirrorStructure(db: LocalDatabase, language: string, usernodeid: string, onStructure: (structure: MirrorStructure | null) => void): () => void {
  const subscription = liveQuery(async (): Promise<MirrorStructure | null> => {
    if (!(await readState<boolean>(db, stateKeys.initialSyncDone))) return null;
    // Only the kinds the tree needs: the live query re-runs when any table it read changes.
    const [sites, areas, equipmentpools, equipment, brands, equipmenttypes] = await Promise.all(
      (['sites', 'areas', 'equipmentpools', 'equipment', 'brands', 'equipmenttypes'] as const).map(async (kind) => (await db.mirror(kind).toArray()).filter(isLive)),
    );
    const rows = { sites: sites!, areas: areas!, equipmentpools: equipmentpools!, equipment: equipment!, brands: brands!, equipmenttypes: equipmenttypes! };
    return { tree: structureTreeFromRows(rows, language), subscriptions: await readSubscriptions(db, usernodeid) };
  }).subscribe({
    next: onStructure,
    error: (error: unknown) => console.warn('structure from the local mirror failed', error),
  });
  return () => subscription.unsubscribe();
}

/** watchMirrorStructure on this device's database (screens never hold the database themselves). */
export function watchDeviceStructure(language: string, usernodeid: string, onStructure: (structure: MirrorStructure | null) => void): () => void {
  return watchMirrorStructure(getLocalDb(), language, usernodeid, onStructure);
}
