/**
 * What the notification details screen (part 1 §2.2) reads besides the notification and its machine
 * (useNotificationDetail): error code and due date, whether solutions exist ("Maßnahme hinterlegt"), and for
 * planned maintenance (type 6) its task — category colour, safety notice in the user's language and the next
 * appointment. Live from the local mirror, so it works offline.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { isRepetitionInterval, nextDue, TRIGGER_TYPES, type RepetitionInterval, type TriggerType } from '../../shared/domain/maintenance';
import { localized } from '../../shared/domain/text';
import { getLocalDb, type LocalDatabase } from '../db/local-db';
import { isLive } from './mirror-fields';

export interface NotificationTaskInfo {
  title: string;
  /** The task's safety notice in the user's language (falling back like every localized text), null when none. */
  safetynotice: string | null;
  /** The category's badge colour ('#RRGGBB') for the type-6 badge. */
  colorcode: string | null;
  repetitioninterval: RepetitionInterval | null;
  /** Next appointment (epoch ms) of a repeating, time-triggered task; null otherwise. */
  nextAppointment: number | null;
}

export interface NotificationDetailsExtras {
  errorcode: string | null;
  dueuntil: number | null;
  /** "Maßnahme hinterlegt": at least one solution (workflow) hangs on the notification. */
  hasWorkflows: boolean;
  task: NotificationTaskInfo | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

export async function readNotificationDetailsExtras(db: LocalDatabase, nodeid: string, language: string, now: Date): Promise<NotificationDetailsExtras | null> {
  const row = await db.mirror('notifications').get(nodeid);
  if (!row || !isLive(row)) return null;
  const tasknodeid = text(row.maintenancetasknodeid);
  const [workflows, task] = await Promise.all([db.mirror('workflows').where('notificationnodeid').equals(nodeid).filter(isLive).count(), tasknodeid ? db.mirror('maintenancetasks').get(tasknodeid) : undefined]);
  const category = task && text(task.categorynodeid) ? await db.mirror('maintenancecategories').get(String(task.categorynodeid)) : undefined;
  let info: NotificationTaskInfo | null = null;
  if (task) {
    const interval = isRepetitionInterval(task.repetitioninterval) ? task.repetitioninterval : null;
    const triggertype: TriggerType = (TRIGGER_TYPES as readonly unknown[]).includes(task.triggertype) ? (task.triggertype as TriggerType) : 'time';
    const startingfrom = typeof task.startingfrom === 'number' ? task.startingfrom : null;
    let nextAppointment: number | null = null;
    if (interval && interval !== 'onetime' && triggertype === 'time' && startingfrom !== null) {
      const due = nextDue({ triggertype, startingfrom, repetitioninterval: interval, nextdueat: typeof task.nextdueat === 'number' && task.nextdueat > 0 ? task.nextdueat : null }, now);
      if (due.kind === 'date') nextAppointment = due.at.getTime();
    }
    info = {
      title: text(task.title) ?? '',
      safetynotice: localized(task.safetynotice, language),
      colorcode: text(category?.colorcode),
      repetitioninterval: interval,
      nextAppointment,
    };
  }
  return {
    errorcode: text(row.errorcode),
    dueuntil: typeof row.dueuntil === 'number' && row.dueuntil > 0 ? row.dueuntil : null,
    hasWorkflows: workflows > 0,
    task: info,
  };
}

/** undefined while loading, null when the mirror has no such notification. */
export function useNotificationDetailsExtras(nodeid: string | null, language: string): NotificationDetailsExtras | null | undefined {
  return useLiveQuery(() => (nodeid ? readNotificationDetailsExtras(getLocalDb(), nodeid, language, new Date()) : Promise.resolve(null)), [nodeid, language]);
}
