/**
 * What the machine, notification and counter screens read, live from the local mirror (Dexie liveQuery), so they
 * work offline and show a local write at once. Each record also says whether a write of it is still waiting in
 * the outbox ("nicht synchronisiert"). Screens never import Dexie themselves (lint): they call these hooks.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { localized } from '../../shared/domain/text';
import { getLocalDb, type LocalDatabase, type MirrorRow } from '../db/local-db';
import { readCategoryColours } from './category-colours';
import { isLive } from './mirror-fields';
import { pendingIdsOfKind, readState, stateKeys } from './outbox';

/** loading: the mirror is not filled yet (first sync running); missing: no such record in the tenant. */
export type MirrorResult<T> = { status: 'loading' } | { status: 'missing' } | { status: 'ready'; value: T };

/** The machine row's own fields: what one indexed read gives, so the screen can show the machine at once. */
export interface MachineRecord {
  nodeid: string;
  name: string;
  equipmentid: string | null;
  inventoryid: string | null;
  /** The machine photo's file (its bytes are not on the device; GET /api/files/{nodeid}/download signs a URL). */
  imagefilenodeid: string | null;
}

/** What the machine row only references: the names read from the type, brand, area, plant and pool rows. */
export interface MachineNames {
  brand: string | null;
  model: string | null;
  pool: string | null;
  area: string | null;
  site: string | null;
}

export interface MachineDetail extends MachineRecord, MachineNames {}

export interface NotificationItem {
  nodeid: string;
  type: unknown;
  status: number;
  title: string;
  description: string | null;
  equipmentnodeid: string;
  created: number | null;
  progressstarted: number | null;
  closed: number | null;
  pending: boolean;
  /** Planned maintenance: its task category's colour (§4.1), else null. */
  colorcode: string | null;
  /** The mirror row, for repository calls (updateNotificationStatus). */
  row: MirrorRow;
}

export interface AttachmentItem {
  nodeid: string;
  title: string;
  mimetype: string | null;
  pending: boolean;
  /** The bytes chosen on this device, kept until the server has the attachment. */
  local: { bytes: ArrayBuffer; mimetype: string } | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const time = (value: unknown): number | null => (typeof value === 'number' && value > 0 ? value : null);

async function mirrorFilled(db: LocalDatabase): Promise<boolean> {
  return (await readState<boolean>(db, stateKeys.initialSyncDone)) === true;
}

function machineRecord(row: MirrorRow, language: string): MachineRecord {
  return {
    nodeid: row.nodeid,
    name: localized(row.name, language) ?? '',
    equipmentid: text(row.equipmentid),
    inventoryid: text(row.inventoryid),
    imagefilenodeid: text(row.imagefilenodeid),
  };
}

async function machineNames(db: LocalDatabase, row: MirrorRow, language: string): Promise<MachineNames> {
  const [type, area, pool] = await Promise.all([
    text(row.equipmenttypenodeid) ? db.mirror('equipmenttypes').get(String(row.equipmenttypenodeid)) : undefined,
    text(row.areanodeid) ? db.mirror('areas').get(String(row.areanodeid)) : undefined,
    text(row.equipmentpoolnodeid) ? db.mirror('equipmentpools').get(String(row.equipmentpoolnodeid)) : undefined,
  ]);
  const [brand, site] = await Promise.all([
    text(type?.brandnodeid) ? db.mirror('brands').get(String(type!.brandnodeid)) : undefined,
    text(area?.sitenodeid) ? db.mirror('sites').get(String(area!.sitenodeid)) : undefined,
  ]);
  return {
    brand: text(brand?.name),
    model: text(type?.model),
    pool: pool ? localized(pool.name, language) : null,
    area: area ? localized(area.name, language) : null,
    site: site ? localized(site.name, language) : null,
  };
}

async function machineDetail(db: LocalDatabase, row: MirrorRow, language: string): Promise<MachineDetail> {
  return { ...machineRecord(row, language), ...(await machineNames(db, row, language)) };
}

function notificationItem(row: MirrorRow, pending: Set<string>, colours: ReadonlyMap<string, string> = new Map()): NotificationItem {
  return {
    nodeid: row.nodeid,
    type: row.type,
    status: Number(row.status ?? 0),
    title: text(row.title) ?? '',
    description: text(row.description),
    equipmentnodeid: String(row.equipmentnodeid ?? ''),
    created: time(row.created),
    progressstarted: time(row.progressstarted),
    closed: time(row.closed),
    pending: pending.has(row.nodeid),
    colorcode: colours.get(row.nodeid) ?? null,
    row,
  };
}

async function lookup<T>(db: LocalDatabase, nodeid: string | null, read: () => Promise<T | undefined>): Promise<MirrorResult<T>> {
  if (!nodeid) return { status: 'missing' };
  const value = await read();
  if (value !== undefined) return { status: 'ready', value };
  return (await mirrorFilled(db)) ? { status: 'missing' } : { status: 'loading' };
}

const LOADING = { status: 'loading' } as const;

/** One machine with its brand, model, area, pool and plant names. */
export function readMachineDetail(db: LocalDatabase, nodeid: string | null, language: string): Promise<MirrorResult<MachineDetail>> {
  return lookup(db, nodeid, async () => {
    const row = await db.mirror('equipment').get(nodeid!);
    return row ? machineDetail(db, row, language) : undefined;
  });
}

/** One machine's own fields: a single indexed read, nothing it references (the screen's first paint). */
export function readMachineRecord(db: LocalDatabase, nodeid: string | null, language: string): Promise<MirrorResult<MachineRecord>> {
  return lookup(db, nodeid, async () => {
    const row = await db.mirror('equipment').get(nodeid!);
    return row ? machineRecord(row, language) : undefined;
  });
}

export function useMachineRecord(nodeid: string | null, language: string): MirrorResult<MachineRecord> {
  return useLiveQuery(() => readMachineRecord(getLocalDb(), nodeid, language), [nodeid, language]) ?? LOADING;
}

/** The names a machine references; null when the mirror has no such machine. */
export async function readMachineNames(db: LocalDatabase, nodeid: string, language: string): Promise<MachineNames | null> {
  const row = await db.mirror('equipment').get(nodeid);
  return row ? machineNames(db, row, language) : null;
}

/** undefined while reading: the header shows the machine's own fields meanwhile and fills these in. */
export function useMachineNames(nodeid: string, language: string): MachineNames | null | undefined {
  return useLiveQuery(() => readMachineNames(getLocalDb(), nodeid, language), [nodeid, language]);
}

/** Open notifications (status below 2) of a machine, newest first. */
export async function readOpenNotifications(db: LocalDatabase, equipmentnodeid: string | null): Promise<NotificationItem[]> {
  if (!equipmentnodeid) return [];
  const [rows, pending] = await Promise.all([
    db.mirror('notifications').where('[equipmentnodeid+status]').anyOf([[equipmentnodeid, 0], [equipmentnodeid, 1]]).toArray(),
    pendingIdsOfKind(db, 'notifications'),
  ]);
  const live = rows.filter(isLive);
  const colours = await readCategoryColours(db, live);
  return live.map((row) => notificationItem(row, pending, colours)).sort((a, b) => (b.created ?? 0) - (a.created ?? 0));
}

export function useOpenNotifications(equipmentnodeid: string | null): NotificationItem[] | undefined {
  return useLiveQuery(() => readOpenNotifications(getLocalDb(), equipmentnodeid), [equipmentnodeid]);
}

/** The machine's memo as the mirror has it ('' for none), and whether a change of it still waits in the outbox. */
export interface MachineMemo {
  memo: string;
  pending: boolean;
}

export async function readMachineMemo(db: LocalDatabase, equipmentnodeid: string): Promise<MachineMemo | null> {
  const [row, entries] = await Promise.all([db.mirror('equipment').get(equipmentnodeid), db.outbox.where('[kind+nodeid]').equals(['equipment', equipmentnodeid]).toArray()]);
  if (!row) return null;
  // Only writes that change the memo: a queued edit of the machine's other fields says nothing about the memo.
  return { memo: text(row.memo) ?? '', pending: entries.some((entry) => 'memo' in entry.values) };
}

/** undefined while loading, null when the mirror has no such machine. */
export function useMachineMemo(equipmentnodeid: string): MachineMemo | null | undefined {
  return useLiveQuery(() => readMachineMemo(getLocalDb(), equipmentnodeid), [equipmentnodeid]);
}

export interface NotificationDetail {
  notification: NotificationItem;
  machine: MachineDetail | null;
}

export function readNotificationDetail(db: LocalDatabase, nodeid: string | null, language: string): Promise<MirrorResult<NotificationDetail>> {
  return lookup(db, nodeid, async () => {
    const row = await db.mirror('notifications').get(nodeid!);
    // A notification deleted on this device is gone for the screens while its delete waits to be sent.
    if (!row || !isLive(row)) return undefined;
    const notification = notificationItem(row, await pendingIdsOfKind(db, 'notifications'));
    const machineRow = notification.equipmentnodeid ? await db.mirror('equipment').get(notification.equipmentnodeid) : undefined;
    return { notification, machine: machineRow ? await machineDetail(db, machineRow, language) : null };
  });
}

export function useNotificationDetail(nodeid: string | null, language: string): MirrorResult<NotificationDetail> {
  return useLiveQuery(() => readNotificationDetail(getLocalDb(), nodeid, language), [nodeid, language]) ?? LOADING;
}

/** The attachments of a record, with the device's own bytes while the server does not have them yet. */
export async function readAttachments(db: LocalDatabase, isattachmentof: string | null): Promise<AttachmentItem[]> {
  if (!isattachmentof) return [];
  const [rows, pending] = await Promise.all([db.mirror('attachments').where('isattachmentof').equals(isattachmentof).toArray(), pendingIdsOfKind(db, 'attachments')]);
  return Promise.all(
    rows.map(async (row): Promise<AttachmentItem> => {
      const filenodeid = text(row.filenodeid);
      const [stored, file] = filenodeid ? await Promise.all([db.fileBytes.get(filenodeid), db.mirror('files').get(filenodeid)]) : [undefined, undefined];
      return {
        nodeid: row.nodeid,
        title: text(row.title) ?? '',
        // An attachment row has no type; its file record does.
        mimetype: text(file?.mimetype) ?? stored?.mimetype ?? null,
        pending: pending.has(row.nodeid),
        local: stored ? { bytes: stored.bytes, mimetype: stored.mimetype } : null,
      };
    }),
  );
}

export function useAttachments(isattachmentof: string | null): AttachmentItem[] | undefined {
  return useLiveQuery(() => readAttachments(getLocalDb(), isattachmentof), [isattachmentof]);
}

