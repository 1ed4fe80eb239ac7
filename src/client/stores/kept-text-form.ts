/**
 * A kept form (stores/kept-form.ts) of a few text fields: a solution's title and description, a FAQ's question and
 * answer, a plant's address. A technician's walkthrough reloaded the solution form offline and lost a typed
 * solution; the typed text is now kept per user and form until it is saved or cancelled.
 */
import { useMemo } from 'react';
import { hasTextFields } from './kept-drafts';
import { formDraftOf, formStart, isFormDraft, useKeptForm, type FormDraft, type FormModel, type KeptForm } from './kept-form';

export type TextValues<F extends string> = Record<F, string>;

/** What is kept: the texts typed, and in edit mode (`base`) what the form was filled from; add mode: null. */
export type TextFormDraft<F extends string> = FormDraft<TextValues<F>>;

const emptyValues = <F extends string>(fields: readonly F[]): TextValues<F> => Object.fromEntries(fields.map((field) => [field, ''])) as TextValues<F>;

/** Text fields alike: all of them strings; unchanged when each is what the form was filled with (add: blank). */
function textFormModel<F extends string>(fields: readonly F[]): FormModel<TextValues<F>> {
  return {
    accept: (value): value is TextValues<F> => hasTextFields(value, fields),
    pick: (values) => Object.fromEntries(fields.map((field) => [field, values[field]])) as TextValues<F>,
    unchanged: (values, initial) => (initial ? fields.every((field) => values[field] === initial[field]) : fields.every((field) => values[field].trim() === '')),
  };
}

export function isTextFormDraft<F extends string>(value: unknown, fields: readonly F[]): value is TextFormDraft<F> {
  return isFormDraft(value, textFormModel(fields));
}

/** The form's starting point: the record's values (edit) or empty ones (add), unless a draft of the same mode is kept. */
export function textFormStart<F extends string>(fields: readonly F[], saved: TextValues<F> | null, draft: TextFormDraft<F> | null): { initial: TextValues<F> | null; values: TextValues<F> } {
  const { initial, values } = formStart(textFormModel(fields), emptyValues(fields), saved, draft);
  return { initial, values };
}

/** What to keep: null (drop the draft) while the form shows what it started from (add: nothing typed), else the draft. */
export function textFormDraftOf<F extends string>(fields: readonly F[], values: TextValues<F>, initial: TextValues<F> | null): TextFormDraft<F> | null {
  return formDraftOf(textFormModel(fields), values, initial);
}

export type KeptTextForm<F extends string> = KeptForm<TextValues<F>>;

/**
 * The form's values, kept under `kind` and `key` (one per record or per "add to" target) for the signed-in user.
 * `saved`: the record's values as the form is filled from them (edit), or null (add). Read once, when the form opens.
 * `fields` is a constant list (a new array on each render would rewrite the draft each time).
 */
export function useKeptTextForm<F extends string>(kind: string, key: string, fields: readonly F[], saved: TextValues<F> | null): KeptTextForm<F> {
  const model = useMemo(() => textFormModel(fields), [fields]);
  const empty = useMemo(() => emptyValues(fields), [fields]);
  return useKeptForm(kind, key, model, empty, () => saved);
}
