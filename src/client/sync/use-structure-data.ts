/**
 * The plant structure's mirror rows for the structure screens (sites, areas, pools, the selection dialog, the
 * shift editor), live: a local write or a pull re-renders at once, online or not. Rows deleted on this device
 * but not yet acknowledged (`pendingdelete`) are left out; the pull's tombstone removes them for good.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { getLocalDb, type LocalDatabase, type MirrorRow } from '../db/local-db';
import { isLive } from './mirror-fields';
import { pendingIdsOfKind, readState, stateKeys } from './outbox';
import type { StructureRows } from './structure-mirror';

export interface StructureData extends StructureRows {
  /** False until the first pull finished: an empty mirror would look like an empty plant. */
  synced: boolean;
  shiftmodels: MirrorRow[];
  shifts: MirrorRow[];
  /** Shift models with a shift change still in the outbox: their row's `shifts` is what the user saved. */
  pendingShiftModels: Set<string>;
}

const KINDS = ['sites', 'areas', 'equipmentpools', 'equipment', 'brands', 'equipmenttypes', 'shiftmodels', 'shifts'] as const;

export async function readStructureData(db: LocalDatabase): Promise<StructureData> {
  const [synced, ...tables] = await Promise.all([readState<boolean>(db, stateKeys.initialSyncDone), ...KINDS.map((kind) => db.mirror(kind).toArray())]);
  const live = (rows: MirrorRow[] | undefined) => (rows ?? []).filter(isLive);
  const [sites, areas, equipmentpools, equipment, brands, equipmenttypes, shiftmodels, shifts] = tables.map((rows) => live(rows as MirrorRow[]));
  // By the outbox's index, not a scan: a live query over a scan ran this whole read (every machine of the plant)
  // again after every write or acknowledgement of any kind.
  const pendingShiftModels = await pendingIdsOfKind(db, 'shiftmodels');
  return {
    synced: synced === true,
    sites: sites!,
    areas: areas!,
    equipmentpools: equipmentpools!,
    equipment: equipment!,
    brands: brands!,
    equipmenttypes: equipmenttypes!,
    shiftmodels: shiftmodels!,
    shifts: shifts!,
    pendingShiftModels,
  };
}

/** Undefined while the first read runs. */
export function useStructureData(): StructureData | undefined {
  return useLiveQuery(() => readStructureData(getLocalDb()), []);
}
