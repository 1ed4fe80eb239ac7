/**
 * A form of a few text fields (a solution's title and description, a FAQ's question and answer) whose typed text is
 * kept on the device per user and form (stores/kept-drafts.ts) until it is saved or cancelled: a reload, a tab the
 * tablet's browser killed, or a slip onto another screen loses nothing (a technician's walkthrough reloaded the
 * solution form offline and lost a typed solution). An edit draft carries the values its form was filled from, so
 * taken back it still sends only what the user changed: a field left alone does not undo a colleague's edit saved
 * meanwhile.
 */
import { useMemo, useState, type Dispatch, type SetStateAction } from 'react';
import { dropKeptDraft, hasTextFields, readKeptDraft, useKeepDraft } from './kept-drafts';
import { useSessionStore } from './session-store';

export type TextValues<F extends string> = Record<F, string>;

/** What is kept: the texts typed, and in edit mode (`base`) what the form was filled from; add mode: null. */
export type TextFormDraft<F extends string> = TextValues<F> & { base: TextValues<F> | null };

export function isTextFormDraft<F extends string>(value: unknown, fields: readonly F[]): value is TextFormDraft<F> {
  if (!hasTextFields(value, fields)) return false;
  const base = (value as { base?: unknown }).base;
  return base === null || hasTextFields(base, fields);
}

const emptyValues = <F extends string>(fields: readonly F[]): TextValues<F> => Object.fromEntries(fields.map((field) => [field, ''])) as TextValues<F>;
const pick = <F extends string>(fields: readonly F[], values: TextValues<F>): TextValues<F> => Object.fromEntries(fields.map((field) => [field, values[field]])) as TextValues<F>;

/**
 * The form's starting point: the record's values (edit) or empty ones (add), unless a draft of the same mode is
 * kept — then its text, and in edit mode its base as what the save compares with.
 */
export function textFormStart<F extends string>(fields: readonly F[], saved: TextValues<F> | null, draft: TextFormDraft<F> | null): { initial: TextValues<F> | null; values: TextValues<F> } {
  const fresh = { initial: saved, values: saved ?? emptyValues(fields) };
  if (!draft || (saved === null) !== (draft.base === null)) return fresh;
  return { initial: draft.base, values: pick(fields, draft) };
}

/** What to keep: null (drop the draft) while the form shows what it started from (add: nothing typed), else the draft. */
export function textFormDraftOf<F extends string>(fields: readonly F[], values: TextValues<F>, initial: TextValues<F> | null): TextFormDraft<F> | null {
  const unchanged = initial ? fields.every((field) => values[field] === initial[field]) : fields.every((field) => values[field].trim() === '');
  return unchanged ? null : { ...pick(fields, values), base: initial };
}

export interface KeptTextForm<F extends string> {
  values: TextValues<F>;
  setValues: Dispatch<SetStateAction<TextValues<F>>>;
  /** What a save compares with (edit mode), else null. */
  initial: TextValues<F> | null;
  /** When the draft shown was kept (epoch ms), or null when the form started fresh. */
  restoredAt: number | null;
  /** Forget the draft: after a save, or when the user cancels. */
  dropDraft(): void;
}

/**
 * The form's values, kept under `kind` and `key` (one per record or per "add to" target) for the signed-in user.
 * `saved`: the record's values as the form is filled from them (edit), or null (add). Read once, when the form opens.
 * `fields` is a constant list (a new array on each render would rewrite the draft each time).
 */
export function useKeptTextForm<F extends string>(kind: string, key: string, fields: readonly F[], saved: TextValues<F> | null): KeptTextForm<F> {
  const usernodeid = useSessionStore((state) => state.session?.usernodeid) ?? '';
  const [restored] = useState(() => (usernodeid ? readKeptDraft(kind, usernodeid, key, (value): value is TextFormDraft<F> => isTextFormDraft(value, fields)) : null));
  // Whether the kept draft is the one shown: not one of the other mode (an add draft when the record now exists).
  const [start] = useState(() => ({ ...textFormStart(fields, saved, restored?.value ?? null), taken: restored !== null && (saved === null) === (restored.value.base === null) }));
  const [values, setValues] = useState<TextValues<F>>(start.values);
  useKeepDraft(kind, usernodeid, key, useMemo(() => textFormDraftOf(fields, values, start.initial), [fields, values, start.initial]), restored !== null);
  return {
    values,
    setValues,
    initial: start.initial,
    restoredAt: start.taken && restored ? restored.savedAt : null,
    dropDraft: () => {
      if (usernodeid) dropKeptDraft(kind, usernodeid, key);
    },
  };
}
