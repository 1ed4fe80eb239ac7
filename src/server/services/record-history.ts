import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../db/client';
import { recordHistory, type FieldChange } from '../db/schema';

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
  legalentitynodeid: string;
  kind: string;
  nodeid: string;
  version: number;
  changes: Record<string, FieldChange>;
  context?: Record<string, unknown> | undefined;
  usernodeid: string | null;
}

/** Appends one history row, in the write's own transaction; a write that changed nothing leaves none. */
export async function appendHistory(tx: Tx, entry: HistoryEntry): Promise<void> {
  if (Object.keys(entry.changes).length === 0 && !entry.context) return;
  await tx.insert(recordHistory).values({ id: uuidv7(), ...entry, context: entry.context ?? null });
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(plain(a)) === JSON.stringify(plain(b));
}

/** JSON-safe: dates as epoch ms, undefined as null. */
function plain(value: unknown): unknown {
  if (value instanceof Date) return value.getTime();
  return value ?? null;
}
