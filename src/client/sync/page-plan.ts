/**
 * What applying one pulled page means, as data (docs/sync.md § Applying a pulled page): which rows to put and which
 * to delete, with the pending outbox values merged in, and whether the page may be applied at all or the mirror
 * must be emptied first. Shared by the two writers of a page — the pull page worker's (page-apply.ts, plain
 * IndexedDB) and the main thread's (pull.ts, Dexie) — so the rules are written once.
 *
 * Imported by the worker: no Dexie, no zod, only types from the rest of the app.
 */
import type { SyncChange } from '../../shared/api/sync';
import type { MirrorRow, OutboxEntry } from '../db/local-db';

/** Latest pending value per field of each record (`kind:nodeid`), in mutation order. */
export function pendingValues(entries: Pick<OutboxEntry, 'mutationId' | 'kind' | 'nodeid' | 'fields' | 'values'>[]): Map<string, Record<string, unknown>> {
  const byRecord = new Map<string, Record<string, unknown>>();
  for (const entry of [...entries].sort((a, b) => a.mutationId - b.mutationId)) {
    const key = `${entry.kind}:${entry.nodeid}`;
    const values = byRecord.get(key) ?? {};
    for (const field of entry.fields) values[field] = entry.values[field];
    byRecord.set(key, values);
  }
  return byRecord;
}

export interface PagePlan {
  puts: Map<string, MirrorRow[]>;
  deletes: Map<string, string[]>;
}

/**
 * The writes of one page. Within a page a record's last change wins (the page is in version order), so a row and
 * its later tombstone end deleted and a tombstone followed by a re-creation ends put; grouped per kind afterwards.
 * A field a still-pending outbox entry changed keeps the pending value. Changes of a kind `isKind` does not know
 * (a newer server's) are left out.
 */
export function planPage(changes: SyncChange[], pending: Map<string, Record<string, unknown>> | undefined, isKind: (kind: string) => boolean): PagePlan {
  const last = new Map<string, SyncChange>();
  for (const change of changes) {
    if (isKind(change.kind)) last.set(`${change.kind}:${change.nodeid}`, change);
  }
  const puts = new Map<string, MirrorRow[]>();
  const deletes = new Map<string, string[]>();
  for (const [key, change] of last) {
    if (change.deleted) {
      const list = deletes.get(change.kind) ?? [];
      list.push(change.nodeid);
      deletes.set(change.kind, list);
      continue;
    }
    const local = pending?.get(key);
    const row: MirrorRow = local ? { ...(change.data ?? {}), ...local, nodeid: change.nodeid, version: change.version } : { ...(change.data ?? {}), nodeid: change.nodeid, version: change.version };
    const list = puts.get(change.kind) ?? [];
    list.push(row);
    puts.set(change.kind, list);
  }
  return { puts, deletes };
}

/** Changes per kind of a page (the initial sync's progress). */
export function countByKind(changes: SyncChange[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const change of changes) counts[change.kind] = (counts[change.kind] ?? 0) + 1;
  return counts;
}

/** What the mirror was filled under, as far as a page's acceptance goes. */
export interface MirrorStamp {
  /** The pull's `scope` the mirror was filled under; undefined: none stored. */
  scope: string | undefined;
  /** Whether the mirror holds pulled rows (a scope or a cursor past 0). */
  filled: boolean;
}

/**
 * True when a page must not be applied and the mirror is emptied and pulled again from 0 instead: the server says
 * `reset` (the cursor is older than its tombstones), the page is of another SYNC_FORMAT_VERSION than this app's, or
 * the user's read permissions changed since the mirror was filled (another `scope`).
 */
export function pageNeedsReset(head: { reset?: boolean; formatVersion: number; scope?: string }, mirror: MirrorStamp, formatVersion: number): boolean {
  const scopeChanged = mirror.filled && head.scope !== undefined && head.scope !== (mirror.scope ?? '');
  return head.reset === true || head.formatVersion !== formatVersion || scopeChanged;
}

/** The mirror's stamp once a page with `scope` is applied on top of `mirror`. */
export function stampAfter(mirror: MirrorStamp, scope: string | undefined): MirrorStamp {
  return { scope: scope ?? mirror.scope, filled: true };
}
