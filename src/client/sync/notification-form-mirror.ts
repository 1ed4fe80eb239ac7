/**
 * What the notification form (/create-notification, /edit-notification) reads from the mirror besides its
 * suggestions: the machines to pick from with where they stand, and the notification being edited. Live, so the
 * form works offline and a notification created a moment ago (still in the outbox) can be edited at once.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { localized } from '../../shared/domain/text';
import { getLocalDb, type LocalDatabase } from '../db/local-db';
import type { MirrorResult } from './machine-mirror';
import { isLive } from './mirror-fields';
import { readState, stateKeys } from './outbox';

export interface EquipmentChoice {
  nodeid: string;
  name: string;
  equipmentid: string | null;
  /** The pool or area it belongs to. */
  place: string | null;
  /** The plant (site) of its area. */
  site: string | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const time = (value: unknown): number | null => (typeof value === 'number' && value > 0 ? value : null);

/** Every live machine of the tenant with its pool or area and plant, by name. */
export async function readEquipmentChoices(db: LocalDatabase, language: string): Promise<EquipmentChoice[]> {
  const [machines, areas, pools, sites] = await Promise.all([
    db.mirror('equipment').toArray(),
    db.mirror('areas').toArray(),
    db.mirror('equipmentpools').toArray(),
    db.mirror('sites').toArray(),
  ]);
  const areaById = new Map(areas.map((row) => [row.nodeid, row]));
  const poolById = new Map(pools.map((row) => [row.nodeid, row]));
  const siteById = new Map(sites.map((row) => [row.nodeid, row]));
  return machines
    .filter(isLive)
    .map((row): EquipmentChoice => {
      const area = text(row.areanodeid) ? areaById.get(String(row.areanodeid)) : undefined;
      const pool = text(row.equipmentpoolnodeid) ? poolById.get(String(row.equipmentpoolnodeid)) : undefined;
      const site = text(area?.sitenodeid) ? siteById.get(String(area!.sitenodeid)) : undefined;
      return {
        nodeid: row.nodeid,
        name: localized(row.name, language) ?? '',
        equipmentid: text(row.equipmentid),
        place: pool ? localized(pool.name, language) : area ? localized(area.name, language) : null,
        site: site ? localized(site.name, language) : null,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name, language, { sensitivity: 'base' }));
}

export function useEquipmentChoices(language: string): EquipmentChoice[] | undefined {
  return useLiveQuery(() => readEquipmentChoices(getLocalDb(), language), [language]);
}

/** The fields of a notification the form edits. */
export interface EditableNotification {
  nodeid: string;
  type: number;
  status: number;
  title: string;
  description: string | null;
  errorcode: string | null;
  equipmentnodeid: string;
  created: number | null;
  dueuntil: number | null;
}

export async function readEditableNotification(db: LocalDatabase, nodeid: string | null): Promise<MirrorResult<EditableNotification>> {
  if (!nodeid) return { status: 'missing' };
  const row = await db.mirror('notifications').get(nodeid);
  if (row && isLive(row)) {
    return {
      status: 'ready',
      value: {
        nodeid,
        type: Number(row.type),
        status: Number(row.status ?? 0),
        title: text(row.title) ?? '',
        description: text(row.description),
        errorcode: text(row.errorcode),
        equipmentnodeid: String(row.equipmentnodeid ?? ''),
        created: time(row.created),
        dueuntil: time(row.dueuntil),
      },
    };
  }
  return (await readState<boolean>(db, stateKeys.initialSyncDone)) === true ? { status: 'missing' } : { status: 'loading' };
}

export function useEditableNotification(nodeid: string | null): MirrorResult<EditableNotification> {
  return useLiveQuery(() => readEditableNotification(getLocalDb(), nodeid), [nodeid]) ?? { status: 'loading' };
}
