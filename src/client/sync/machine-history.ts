/**
 * The machine history tab's data, live from the local mirror (works offline): every notification of a machine,
 * read by the `equipmentnodeid` index, with its author's name and — for planned maintenance — its task category's
 * colour, plus the machine's build year for the timeline's end marker. Filtering and grouping are the shared rules
 * of `src/shared/domain/history.ts`; this file only reads.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { buildYearOf } from '../../shared/domain/history';
import { getLocalDb, type LocalDatabase, type MirrorRow } from '../db/local-db';
import { isLive } from './mirror-fields';
import { pendingEntriesOfKind } from './outbox';

export interface HistoryEntry {
  nodeid: string;
  type: unknown;
  status: number;
  title: string;
  /** When it was reported: its date on the timeline (epoch ms). */
  created: number | null;
  closed: number | null;
  /** "Vorname Nachname" of whoever reported it, when the mirror knows them. */
  author: string | null;
  /** Planned maintenance: its task category's colour ('#RRGGBB'). */
  colorcode: string | null;
  /** A write of it still waits in the outbox. */
  pending: boolean;
}

export interface MachineHistory {
  entries: HistoryEntry[];
  buildYear: number | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const time = (value: unknown): number | null => (typeof value === 'number' && value > 0 ? value : null);

/** Rows of one kind by nodeid, each read once however many notifications refer to it. */
async function rowsById(db: LocalDatabase, kind: 'users' | 'maintenancetasks' | 'maintenancecategories', ids: Iterable<string>): Promise<Map<string, MirrorRow>> {
  const unique = [...new Set(ids)];
  const rows = await db.mirror(kind).bulkGet(unique);
  return new Map(rows.filter((row): row is MirrorRow => row !== undefined).map((row) => [row.nodeid, row]));
}

export async function readMachineHistory(db: LocalDatabase, equipmentnodeid: string | null): Promise<MachineHistory | null> {
  if (!equipmentnodeid) return null;
  const [machine, rows, pendingEntries] = await Promise.all([
    db.mirror('equipment').get(equipmentnodeid),
    // A notification deleted on this device leaves the history at once, not when its delete is sent.
    db.notificationsOfMachine(equipmentnodeid).filter(isLive).toArray(),
    pendingEntriesOfKind(db, 'notifications'),
  ]);
  if (!machine) return null;
  const pending = new Set(pendingEntries.map((entry) => entry.nodeid));
  const authorIds = rows.map((row) => text(row.authornodeid)).filter((id): id is string => id !== null);
  const taskIds = rows.map((row) => text(row.maintenancetasknodeid)).filter((id): id is string => id !== null);
  const [users, tasks] = await Promise.all([rowsById(db, 'users', authorIds), rowsById(db, 'maintenancetasks', taskIds)]);
  const categoryIds = [...tasks.values()].map((task) => text(task.categorynodeid)).filter((id): id is string => id !== null);
  const categories = await rowsById(db, 'maintenancecategories', categoryIds);

  const entries = rows.map((row): HistoryEntry => {
    const user = users.get(text(row.authornodeid) ?? '');
    const task = tasks.get(text(row.maintenancetasknodeid) ?? '');
    const category = categories.get(text(task?.categorynodeid) ?? '');
    const author = user ? [text(user.givenname), text(user.surname)].filter(Boolean).join(' ') : '';
    return {
      nodeid: row.nodeid,
      type: row.type,
      status: Number(row.status ?? 0),
      title: text(row.title) ?? '',
      created: time(row.created),
      closed: time(row.closed),
      author: author || null,
      colorcode: text(category?.colorcode),
      pending: pending.has(row.nodeid),
    };
  });
  return { entries, buildYear: buildYearOf(machine.constructiondate) };
}

/** undefined while reading, null when the mirror has no such machine. */
export function useMachineHistory(equipmentnodeid: string | null): MachineHistory | null | undefined {
  return useLiveQuery(() => readMachineHistory(getLocalDb(), equipmentnodeid), [equipmentnodeid]);
}
