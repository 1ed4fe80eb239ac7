/**
 * A form whose input is kept on the device per user and record (stores/kept-drafts.ts) until it is saved or
 * cancelled: a reload, a tab the tablet's browser killed, or a slip onto another screen loses nothing. What a form
 * holds is described by its model (text fields, a selection of machines, a shift plan); this file holds what every
 * kept form does alike. An edit draft carries the values its form was filled from (`base`), so taken back it still
 * sends only what the user changed: a field left alone does not undo a colleague's edit saved meanwhile.
 */
import { useMemo, useState, type Dispatch, type SetStateAction } from 'react';
import { dropKeptDraft, readKeptDraft, useKeepDraft } from './kept-drafts';
import { useSessionStore } from './session-store';

/** A form's draft key: the record's id when editing, "new" when adding. */
export const recordDraftKey = (nodeid: string | null): string => nodeid ?? 'new';

/** What a kept form holds, and how to tell its values apart. Pass a constant (each new one rewrites the draft). */
export interface FormModel<V extends object> {
  /** Whether a stored value holds every field of the form (an older version's draft does not). */
  accept(value: unknown): value is V;
  /** The form's values out of a stored draft (without its base). */
  pick(draft: V): V;
  /** Whether `values` show what the form started from: `initial` in edit mode, nothing entered in add mode (null). */
  unchanged(values: V, initial: V | null): boolean;
}

/** What is kept: the values, and in edit mode (`base`) what the form was filled from; add mode: null. */
export type FormDraft<V extends object> = V & { base: V | null };

export function isFormDraft<V extends object>(value: unknown, model: FormModel<V>): value is FormDraft<V> {
  if (!model.accept(value)) return false;
  const base = (value as { base?: unknown }).base;
  return base === null || model.accept(base);
}

/**
 * The form's starting point: `saved` (edit) or `empty` (add), unless a draft of the same mode is kept — then its
 * values, and in edit mode its base as what the save compares with.
 */
export function formStart<V extends object>(model: FormModel<V>, empty: V, saved: V | null, draft: FormDraft<V> | null): { initial: V | null; values: V; taken: boolean } {
  if (!draft || (saved === null) !== (draft.base === null)) return { initial: saved, values: saved ?? empty, taken: false };
  return { initial: draft.base, values: model.pick(draft), taken: true };
}

/** What to keep: null (drop the draft) while the form shows what it started from, else the draft. */
export function formDraftOf<V extends object>(model: FormModel<V>, values: V, initial: V | null): FormDraft<V> | null {
  return model.unchanged(values, initial) ? null : { ...model.pick(values), base: initial };
}

export interface KeptForm<V extends object> {
  values: V;
  setValues: Dispatch<SetStateAction<V>>;
  /** One field's new value, the others kept. */
  setField<K extends keyof V>(field: K, value: V[K]): void;
  /** What a save compares with (edit mode), else null. */
  initial: V | null;
  /** When the draft shown was kept (epoch ms), or null when the form started fresh. */
  restoredAt: number | null;
  /** Forget the draft: after a save, or when the user cancels or deletes the record. */
  dropDraft(): void;
}

/**
 * The form's values, kept under `kind` and `key` (one per record or per "add to" target) for the signed-in user.
 * `fill()`: the record's values as the form is filled from them (edit), or null (add, starting from `empty`). Called
 * once, when the form opens (what it reads, every machine of an area, is not read again on each live change); later
 * pulls do not overwrite what the user is entering.
 */
export function useKeptForm<V extends object>(kind: string, key: string, model: FormModel<V>, empty: V, fill: () => V | null): KeptForm<V> {
  const usernodeid = useSessionStore((state) => state.session?.usernodeid) ?? '';
  const [restored] = useState(() => (usernodeid ? readKeptDraft(kind, usernodeid, key, (value): value is FormDraft<V> => isFormDraft(value, model)) : null));
  const [start] = useState(() => formStart(model, empty, fill(), restored?.value ?? null));
  const [values, setValues] = useState<V>(start.values);
  useKeepDraft(kind, usernodeid, key, useMemo(() => formDraftOf(model, values, start.initial), [model, values, start.initial]), restored !== null);
  return {
    values,
    setValues,
    setField: (field, value) => setValues((current) => ({ ...current, [field]: value })),
    initial: start.initial,
    restoredAt: start.taken && restored ? restored.savedAt : null,
    dropDraft: () => {
      if (usernodeid) dropKeptDraft(kind, usernodeid, key);
    },
  };
}
