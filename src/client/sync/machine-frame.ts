/**
 * What the machine screen's frame reads beyond the header (sync/machine-mirror.ts): the service sticker's data
 * and nameplate photo for the overview's QR and nameplate dialogs, and the machine's maintenance tasks with their
 * categories for the maintenance tab. Live from the local mirror, so all of it works offline.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { isReminderOption, isRepetitionInterval, type ReminderOption, type RepetitionInterval, type TriggerType } from '../../shared/domain/maintenance';
import { localized } from '../../shared/domain/text';
import { getLocalDb, type LocalDatabase } from '../db/local-db';
import { isLive } from './mirror-fields';
import { pendingEntriesOfKind } from './outbox';

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The sticker's fields (lib/sticker-pdf.ts StickerData) and the nameplate photo's file. */
export interface MachineSticker {
  nodeid: string;
  name: string;
  equipmentid: string | null;
  manufacturer: string | null;
  brand: string | null;
  model: string | null;
  serialnumber: string | null;
  typenameplatefilenodeid: string | null;
}

export async function readMachineSticker(db: LocalDatabase, nodeid: string, language: string): Promise<MachineSticker | null> {
  const row = await db.mirror('equipment').get(nodeid);
  if (!row) return null;
  const type = text(row.equipmenttypenodeid) ? await db.mirror('equipmenttypes').get(String(row.equipmenttypenodeid)) : undefined;
  const brand = text(type?.brandnodeid) ? await db.mirror('brands').get(String(type!.brandnodeid)) : undefined;
  const manufacturer = text(brand?.manufacturernodeid) ? await db.mirror('manufacturers').get(String(brand!.manufacturernodeid)) : undefined;
  return {
    nodeid,
    name: localized(row.name, language) ?? '',
    equipmentid: text(row.equipmentid),
    manufacturer: manufacturer ? localized(manufacturer.name, language) : null,
    brand: text(brand?.name),
    model: text(type?.model),
    serialnumber: text(row.manufacturerserialnumber),
    typenameplatefilenodeid: text(row.typenameplatefilenodeid),
  };
}

/** undefined while reading, null when the mirror has no such machine. */
export function useMachineSticker(nodeid: string, language: string): MachineSticker | null | undefined {
  return useLiveQuery(() => readMachineSticker(getLocalDb(), nodeid, language), [nodeid, language]);
}

/** One row of the maintenance table: the task's fields the §4.5 rule and the columns need. */
export interface MaintenanceTaskItem {
  nodeid: string;
  maintenancetaskid: string;
  title: string;
  triggertype: TriggerType;
  repetitioninterval: RepetitionInterval;
  startingfrom: number;
  nextdueat: number | null;
  reminder: ReminderOption | null;
  category: { nodeid: string; name: string; colorcode: string | null } | null;
  pending: boolean;
}

const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

export async function readMaintenanceTasks(db: LocalDatabase, equipmentnodeid: string, language: string): Promise<MaintenanceTaskItem[]> {
  const [rows, categories, pending] = await Promise.all([
    db.mirror('maintenancetasks').where('equipmentnodeid').equals(equipmentnodeid).toArray(),
    db.mirror('maintenancecategories').toArray(),
    pendingEntriesOfKind(db, 'maintenancetasks'),
  ]);
  const categoryById = new Map(categories.map((row) => [row.nodeid, row]));
  const waiting = new Set(pending.map((entry) => entry.nodeid));
  return rows
    .filter(isLive)
    .map((row): MaintenanceTaskItem => {
      const category = text(row.categorynodeid) ? categoryById.get(String(row.categorynodeid)) : undefined;
      const colour = text(category?.colorcode);
      return {
        nodeid: row.nodeid,
        maintenancetaskid: text(row.maintenancetaskid) ?? '',
        title: text(row.title) ?? '',
        triggertype: row.triggertype === 'counter' ? 'counter' : 'time',
        repetitioninterval: isRepetitionInterval(row.repetitioninterval) ? row.repetitioninterval : 'onetime',
        startingfrom: typeof row.startingfrom === 'number' ? row.startingfrom : 0,
        nextdueat: typeof row.nextdueat === 'number' && row.nextdueat > 0 ? row.nextdueat : null,
        reminder: isReminderOption(row.reminder) ? row.reminder : null,
        category: category ? { nodeid: category.nodeid, name: localized(category.name, language) ?? '', colorcode: colour && HEX_COLOUR.test(colour) ? colour : null } : null,
        pending: waiting.has(row.nodeid),
      };
    });
}

export function useMaintenanceTasks(equipmentnodeid: string, language: string): MaintenanceTaskItem[] | undefined {
  return useLiveQuery(() => readMaintenanceTasks(getLocalDb(), equipmentnodeid, language), [equipmentnodeid, language]);
}
