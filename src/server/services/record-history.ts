import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../db/client';
import { recordHistory, syncClients, type FieldChange } from '../db/schema';
import { nextVersionCte } from './change-feed';
import type { Actor } from './service-context';

/**
 * The fields a write actually changes, with their old and new values, for the record history
 * (docs/sync.md § Conflicts: "the overwritten values stay in the record's history"). Dates compare by time.
 */
export function changedFields<T extends Record<string, unknown>>(before: T, patch: Partial<T>): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  for (const [field, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const old = before[field];
    if (!sameValue(old, value)) changes[field] = { old: plain(old), new: plain(value) };
  }
  return changes;
}

export interface HistoryEntry {
  kind: string;
  nodeid: string;
  version: number;
  changes: Record<string, FieldChange>;
  context?: Record<string, unknown> | undefined;
}

/**
 * Appends one history row for `actor`'s write, in the write's own transaction; a write that changed nothing leaves
 * none. The row keeps who wrote it, and when the device made the change (`actor.madeAt`, a queued write's
 * X-Made-At) besides when it reached the server (`at`). The device's time is what the device says, within what the
 * server can vouch for: not after now, and not before the device first spoke to the server (its `sync_clients`
 * row, made by its first pull or write) — a device cannot have made a change before it existed, and a crafted
 * header cannot date an edit years back.
 */
export async function appendHistory(tx: Tx, actor: Actor, entry: HistoryEntry): Promise<void> {
  if (Object.keys(entry.changes).length === 0 && !entry.context) return;
  await tx.insert(recordHistory).values({
    id: uuidv7(),
    legalentitynodeid: actor.legalentitynodeid,
    usernodeid: actor.usernodeid,
    // why in SQL: `at` is the database's now(), and a device's time ahead of it counts as it; the device's row is
    // read in the same statement (greatest() passes over a missing one).
    madeat: actor.madeAt
      ? sql`greatest(least(${actor.madeAt.at.toISOString()}::timestamptz, now()), (select ${syncClients.createdAt} from ${syncClients} where ${syncClients.clientid} = ${actor.madeAt.clientid}))`
      : null,
    ...entry,
    context: entry.context ?? null,
  });
}

/** A table whose rows carry the tenant's change version and the time of their last write. */
type VersionedTable = PgTable & { version: PgColumn; updatedAt: PgColumn };

export interface FieldWrite<T extends VersionedTable> {
  table: T;
  /** The kind as the record history and the tombstones name it (the table name). */
  kind: string;
  nodeid: string;
  /** The row as it is, locked by the caller (`FOR UPDATE`). */
  current: T['$inferSelect'];
  patch: Partial<T['$inferSelect']>;
  /** The locked row again, as the caller found it. */
  where: SQL | undefined;
}

/**
 * Writes the fields of `patch` that change the locked row: nothing at all when none does (no version, no
 * history), else the row with the tenant's next version and the overwritten values in its history. Answers the
 * row as written, undefined when nothing changed.
 */
export async function writeChangedFields<T extends VersionedTable>(tx: Tx, actor: Actor, write: FieldWrite<T>): Promise<T['$inferSelect'] | undefined> {
  const changes = changedFields(write.current as Record<string, unknown>, write.patch as Record<string, unknown>);
  if (Object.keys(changes).length === 0) return undefined;
  // why the version taken in the update: from the version to the commit every other writer of the tenant waits,
  // so the update and the history row are all that runs under it (docs/decisions.md "Write: the version late").
  const next = nextVersionCte(tx, actor.legalentitynodeid);
  const set = { ...write.patch, version: next.version, updatedAt: new Date() } as PgUpdateSetSource<T>;
  const [row] = (await tx.with(next.cte).update(write.table).set(set).where(write.where).returning()) as T['$inferSelect'][];
  if (!row) throw new Error(`${write.kind} ${write.nodeid}: the locked row was not updated`);
  const version = Number((row as { version: unknown }).version);
  await appendHistory(tx, actor, { kind: write.kind, nodeid: write.nodeid, version, changes });
  return row;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(plain(a)) === JSON.stringify(plain(b));
}

/** JSON-safe: dates as epoch ms, undefined as null. */
function plain(value: unknown): unknown {
  if (value instanceof Date) return value.getTime();
  return value ?? null;
}
