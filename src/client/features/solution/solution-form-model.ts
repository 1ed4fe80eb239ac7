/**
 * The solution form's own rule (spec part 1 §2.3, §4.3, §5), pure so it is unit-tested: when save is possible.
 * The uploader rules it shares with the other forms are in src/client/lib/attachment-files.ts. §5 sets no length
 * rules for the title, and a solution without a title is shown as "Maßnahme ohne Titel"; an empty solution (no title, no description, no file) documents nothing, so it cannot be saved.
 */
import { hasTextFields } from '../../stores/kept-drafts';

export interface SolutionFormValues {
  title: string;
  description: string;
}

/**
 * Save: disabled while saving; in add mode when nothing would be documented (no title, description or file); in
 * edit mode while nothing changed, or when the change would leave the solution empty.
 */
export function canSaveSolution(values: SolutionFormValues, options: { saving: boolean; initial: SolutionFormValues | null; newFiles: number; existingFiles?: number }): boolean {
  if (options.saving) return false;
  const hasContent = values.title.trim() !== '' || values.description.trim() !== '' || options.newFiles > 0 || (options.existingFiles ?? 0) > 0;
  if (!hasContent) return false;
  if (!options.initial) return true;
  return values.title.trim() !== options.initial.title.trim() || values.description.trim() !== options.initial.description.trim() || options.newFiles > 0;
}

/**
 * What was typed into the form is kept on the device per user and form (stores/kept-drafts.ts) until it is saved or
 * cancelled, as the notification forms do: a technician's walkthrough reloaded the form offline and lost a typed
 * solution. An edit draft carries the values its form was filled from, so taken back it still sends only what the
 * user changed (a field left alone does not undo a colleague's edit saved meanwhile).
 */
export const SOLUTION_DRAFT_KIND = 'solution-draft';

export interface SolutionDraft extends SolutionFormValues {
  /** Edit mode: what the form was filled from; add mode: null. */
  base: SolutionFormValues | null;
}

/** The draft's key: one per notification for a new solution, one per solution for an edit. */
export function solutionDraftKey(target: { mode: 'add' | 'edit'; notificationnodeid: string; workflownodeid?: string | null }): string {
  return target.mode === 'edit' && target.workflownodeid ? `edit:${target.workflownodeid}` : `add:${target.notificationnodeid}`;
}

export function isSolutionDraft(value: unknown): value is SolutionDraft {
  if (!hasTextFields(value, ['title', 'description'])) return false;
  const base = (value as { base?: unknown }).base;
  return base === null || hasTextFields(base, ['title', 'description']);
}

/**
 * The form's starting point: the solution's values (edit) or empty ones (add), unless a draft of the same mode is
 * kept — then its text, and in edit mode its base as what the save compares with.
 */
export function solutionFormStart(solution: SolutionFormValues | null, draft: SolutionDraft | null): { initial: SolutionFormValues | null; values: SolutionFormValues } {
  const fresh = { initial: solution, values: solution ?? { title: '', description: '' } };
  if (!draft || (solution === null) !== (draft.base === null)) return fresh;
  return { initial: draft.base, values: { title: draft.title, description: draft.description } };
}

/** What to keep: null (drop the draft) while the form shows what it started from, else the draft. */
export function solutionDraftOf(values: SolutionFormValues, initial: SolutionFormValues | null): SolutionDraft | null {
  const unchanged = initial ? values.title === initial.title && values.description === initial.description : values.title.trim() === '' && values.description.trim() === '';
  return unchanged ? null : { title: values.title, description: values.description, base: initial };
}
