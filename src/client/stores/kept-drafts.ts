/**
 * Unsaved input kept in the browser's storage per kind of form, user and record, so a reload, a tab the tablet's
 * browser killed in the background, or a dialog closed by a stray tap does not throw it away. Text only (the
 * storage holds strings). A draft older than DRAFT_MAX_AGE_MS is not taken back; another user on the same tablet
 * never sees one (the user is part of the key).
 */
import { useEffect, useRef } from 'react';

export const DRAFT_MAX_AGE_MS = 7 * 24 * 3_600_000;

export interface KeptDraft {
  value: unknown;
  /** When it was last written (epoch ms). */
  savedAt: number;
}

const storageKey = (kind: string, usernodeid: string, key: string) => `anlagenbuch.${kind}:${usernodeid}:${key}`;

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage switched off in the browser: nothing is kept
  }
}

export function writeKeptDraft(kind: string, usernodeid: string, key: string, value: unknown, now = Date.now()): void {
  try {
    storage()?.setItem(storageKey(kind, usernodeid, key), JSON.stringify({ value, savedAt: now } satisfies KeptDraft));
  } catch {
    // A full storage: the form goes on; only this safety net is missing.
  }
}

export function dropKeptDraft(kind: string, usernodeid: string, key: string): void {
  storage()?.removeItem(storageKey(kind, usernodeid, key));
}

/**
 * Keeps a form's `draft` under `kind` and `key` for the user while the form is open: written whenever it changes,
 * dropped when it is null (nothing typed, or back to what the form started from). Pass it memoised: each new object
 * is a write. A draft just taken back (`restored`) is kept as it is until something changes — rewritten on opening,
 * it would never age.
 */
export function useKeepDraft(kind: string, usernodeid: string, key: string, draft: unknown, restored: boolean): void {
  const changed = useRef(!restored);
  useEffect(() => {
    if (!usernodeid) return;
    if (!changed.current) {
      changed.current = true;
      return;
    }
    if (draft === null) dropKeptDraft(kind, usernodeid, key);
    else writeKeptDraft(kind, usernodeid, key, draft);
  }, [kind, usernodeid, key, draft]);
}

/**
 * The kept draft, or null: none, too old, not JSON, or not what `accept` takes (one an older version of the app
 * wrote). A draft not taken back is removed.
 */
export function readKeptDraft<T>(kind: string, usernodeid: string, key: string, accept: (value: unknown) => value is T, now = Date.now()): { value: T; savedAt: number } | null {
  if (!pruned) pruneKeptDrafts(now);
  const text = storage()?.getItem(storageKey(kind, usernodeid, key));
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as Partial<KeptDraft>;
    if (typeof parsed.savedAt === 'number' && now - parsed.savedAt <= DRAFT_MAX_AGE_MS && accept(parsed.value)) return { value: parsed.value, savedAt: parsed.savedAt };
  } catch {
    // not JSON: dropped below
  }
  dropKeptDraft(kind, usernodeid, key);
  return null;
}

let pruned = false;

/**
 * Drops every kept draft older than DRAFT_MAX_AGE_MS, of any form and user: one for a machine nobody opens again,
 * or a notification since deleted, would otherwise stay in the browser's storage for good. Once per page load.
 */
export function pruneKeptDrafts(now = Date.now()): void {
  pruned = true;
  const store = storage();
  if (!store) return;
  try {
    const keys = Array.from({ length: store.length }, (_, index) => store.key(index)).filter((key): key is string => key !== null && DRAFT_KEY.test(key));
    for (const key of keys) {
      const savedAt = (() => {
        try {
          return (JSON.parse(store.getItem(key) ?? '') as Partial<KeptDraft>).savedAt;
        } catch {
          return undefined;
        }
      })();
      if (typeof savedAt !== 'number' || now - savedAt > DRAFT_MAX_AGE_MS) store.removeItem(key);
    }
  } catch {
    // storage refused mid-way: the rest is pruned next time
  }
}

const DRAFT_KEY = /^anlagenbuch\.[a-z-]+-draft:/;

/** Whether `value` is an object whose `fields` are all strings. */
export function hasTextFields(value: unknown, fields: readonly string[]): value is Record<string, string> {
  return typeof value === 'object' && value !== null && fields.every((field) => typeof (value as Record<string, unknown>)[field] === 'string');
}
