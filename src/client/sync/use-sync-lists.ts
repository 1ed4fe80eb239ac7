/**
 * The sync panel's lists, live from Dexie: pending writes and dead letters of the logged-in user, each with what
 * the user did in plain words (the i18n key `sync.describe.<action>` and its parameters, looked up in the mirror:
 * machine name, notification title, counter name).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { getLocalDb, type DeadLetter, type LocalDatabase, type MirrorRow, type OutboxEntry } from '../db/local-db';

export type DescribedAction = 'createNotification' | 'updateNotificationStatus' | 'addCounterReading' | 'uploadFile' | 'attachFile' | 'structure' | 'other';

/** Plant-structure, equipment and catalogue writes (issue #4), described as "<what>: <name>" with `change` = the action. */
export const STRUCTURE_ACTIONS = [
  'createSite',
  'updateSite',
  'deleteSite',
  'createArea',
  'updateArea',
  'deleteArea',
  'createPool',
  'updatePool',
  'deletePool',
  'assignEquipment',
  'createShifts',
  'updateShifts',
  'createEquipment',
  'updateEquipment',
  'deleteEquipment',
  'createManufacturer',
  'createBrand',
  'updateBrand',
  'createEquipmentType',
  'createEquipmentClass',
  'updateEquipmentClass',
  'followStructure',
  'unfollowStructure',
] as const;
export type StructureAction = (typeof STRUCTURE_ACTIONS)[number];

function localizedText(value: unknown): string | null {
  if (value && typeof value === 'object') return text((value as Record<string, unknown>).de) ?? Object.values(value).map(text).find(Boolean) ?? null;
  return text(value);
}

export interface Description {
  action: DescribedAction;
  /** Values for the text; `null` means "unknown" (the component fills in a translated placeholder). */
  params: Record<string, string | number | null>;
  /** For updateNotificationStatus: the new status (translated by the component). */
  status?: number;
}

export interface SyncListItem {
  id: number;
  mutationId: number;
  description: Description;
  createdAt: number;
  attempts: number;
  lastError: string | null;
  /** Dead letters: the server's status and message. */
  refusedStatus?: number;
  refusedMessage?: string;
}

const KNOWN: readonly DescribedAction[] = ['createNotification', 'updateNotificationStatus', 'addCounterReading', 'uploadFile', 'attachFile'];

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value : null;
}

export async function describeEntry(db: LocalDatabase, entry: Pick<OutboxEntry, 'action' | 'values' | 'kind' | 'nodeid' | 'method' | 'path' | 'dependsOn'>): Promise<Description> {
  if ((STRUCTURE_ACTIONS as readonly string[]).includes(entry.action)) {
    // The record's name as the user saw it: from the mirror (also a row hidden by a pending delete), else the write.
    const row = await db.mirror(entry.kind).get(entry.nodeid);
    const owner = await ownerOf(db, entry, row);
    const name = localizedText(owner?.name) ?? localizedText(row?.name) ?? localizedText(row?.model) ?? localizedText(entry.values.name) ?? localizedText(entry.values.model);
    return { action: 'structure', params: { change: entry.action, name } };
  }
  const action = (KNOWN as readonly string[]).includes(entry.action) ? (entry.action as DescribedAction) : 'other';
  switch (action) {
    case 'createNotification': {
      const machine = await db.mirror('equipment').get(String(entry.values.equipmentnodeid));
      const label = machine ? [text(machine.name), text(machine.equipmentid)].filter(Boolean).join(' ') : null;
      return { action, params: { equipment: label || null, title: text(entry.values.title) } };
    }
    case 'updateNotificationStatus': {
      const notification = await db.mirror('notifications').get(entry.nodeid);
      return { action, params: { title: text(notification?.title) }, status: Number(entry.values.status) };
    }
    case 'addCounterReading': {
      const counter = await db.mirror('counters').get(String(entry.values.counternodeid));
      const value = typeof entry.values.value === 'number' ? entry.values.value.toLocaleString('de-DE') : String(entry.values.value);
      return { action, params: { counter: text(counter?.name), value } };
    }
    case 'uploadFile': {
      const file = entry.dependsOn[0] ? await db.fileBytes.get(entry.dependsOn[0]) : undefined;
      return { action, params: { name: file?.name ?? null } };
    }
    case 'attachFile':
      return { action, params: { title: text(entry.values.title) } };
    default:
      return { action, params: { what: `${entry.method} /api/${entry.path}` } };
  }
}

/** The record a write is named after when it is not the written row: a shift plan's area, a subscription's target. */
async function ownerOf(db: LocalDatabase, entry: Pick<OutboxEntry, 'kind' | 'nodeid' | 'values'>, row: MirrorRow | undefined): Promise<MirrorRow | undefined> {
  if (entry.kind === 'shiftmodels') {
    return typeof entry.values.ownernodeid === 'string'
      ? db.mirror('areas').get(entry.values.ownernodeid)
      : db.mirror('areas').filter((area) => area.shiftmodelnodeid === entry.nodeid).first();
  }
  if (entry.kind === 'subscriptions') {
    const fields = { ...row, ...entry.values };
    if (typeof fields.sitenodeid === 'string') return db.mirror('sites').get(fields.sitenodeid);
    if (typeof fields.areanodeid === 'string') return db.mirror('areas').get(fields.areanodeid);
    if (typeof fields.equipmentpoolnodeid === 'string') return db.mirror('equipmentpools').get(fields.equipmentpoolnodeid);
  }
  return undefined;
}

function refusedMessage(letter: DeadLetter): string | undefined {
  const error = letter.error as { message?: unknown } | undefined;
  return typeof error?.message === 'string' ? error.message : undefined;
}

export function useSyncLists(usernodeid: string | null): { pending: SyncListItem[]; refused: SyncListItem[] } | undefined {
  return useLiveQuery(async () => {
    const db = getLocalDb();
    const entries = (await db.outbox.toArray()).filter((entry) => entry.usernodeid === usernodeid).sort((a, b) => a.mutationId - b.mutationId);
    const letters = (await db.deadLetters.toArray()).filter((letter) => letter.usernodeid === usernodeid);
    const pending: SyncListItem[] = [];
    for (const entry of entries) {
      pending.push({ id: entry.seq!, mutationId: entry.mutationId, description: await describeEntry(db, entry), createdAt: entry.createdAt, attempts: entry.attempts, lastError: entry.lastError });
    }
    const refused: SyncListItem[] = [];
    for (const letter of letters) {
      const message = refusedMessage(letter);
      refused.push({
        id: letter.id!,
        mutationId: letter.mutationId,
        description: await describeEntry(db, letter),
        createdAt: letter.createdAt,
        attempts: letter.attempts,
        lastError: letter.lastError,
        refusedStatus: letter.status,
        ...(message ? { refusedMessage: message } : {}),
      });
    }
    return { pending, refused };
  }, [usernodeid]);
}
