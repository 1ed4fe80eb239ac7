/**
 * Live reads of the local mirror for screens (they may not import Dexie themselves): whole kinds, one row, and
 * a photo's stored bytes. Screens re-render when the mirror changes, also from another tab or a pull.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { getLocalDb, type MirrorKind, type MirrorRow } from '../db/local-db';
import { matchKey } from '../../shared/domain/text';
import { useObjectUrl } from '../lib/use-object-url';
import { PENDING_DELETE } from './mirror-fields';

export type { MirrorRow } from '../db/local-db';

/** All rows of a kind; undefined while loading. */
export function useMirrorRows(kind: MirrorKind): MirrorRow[] | undefined {
  return useLiveQuery(() => getLocalDb().mirror(kind).toArray(), [kind]);
}

/** One row; undefined while loading, null when the mirror has no such row. */
export function useMirrorRow(kind: MirrorKind, nodeid: string | null | undefined): MirrorRow | null | undefined {
  return useLiveQuery(async () => (nodeid ? ((await getLocalDb().mirror(kind).get(nodeid)) ?? null) : null), [kind, nodeid]);
}

export function findMirrorRow(kind: MirrorKind, nodeid: string): Promise<MirrorRow | undefined> {
  return getLocalDb().mirror(kind).get(nodeid);
}

/**
 * The machine on this device whose Equipment-ID is `typed`, compared as the server compares it (matchKey: case,
 * width, invisible characters), for a sticker that cannot be scanned. A machine this device deletes is not found;
 * undefined when none has it. One pass over the machines (5,000 in a big plant: a few milliseconds).
 */
export async function findMachineByEquipmentId(typed: string): Promise<MirrorRow | undefined> {
  const key = matchKey(typed);
  if (key === '') return undefined;
  return getLocalDb()
    .mirror('equipment')
    .filter((row) => !row[PENDING_DELETE] && typeof row.equipmentid === 'string' && matchKey(row.equipmentid) === key)
    .first();
}

/** An object URL for bytes stored on this device (a photo not yet uploaded), revoked on change; null if none. */
export function useStoredFileUrl(fileKey: string | null | undefined): string | null {
  const stored = useLiveQuery(async () => (fileKey ? ((await getLocalDb().fileBytes.get(fileKey)) ?? null) : null), [fileKey]);
  return useObjectUrl(stored);
}
