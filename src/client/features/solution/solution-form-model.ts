/**
 * The solution form's own rule (spec part 1 §2.3, §4.3, §5), pure so it is unit-tested: when save is possible.
 * The uploader rules it shares with the other forms are in src/client/lib/attachment-files.ts. §5 sets no length
 * rules for the title, and a solution without a title is shown as "Maßnahme ohne Titel"; an empty solution (no title, no description, no file) documents nothing, so it cannot be saved.
 */
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
 * What was typed into the form is kept on the device per user and form until it is saved or cancelled
 * (stores/kept-text-form.ts): a technician's walkthrough reloaded the form offline and lost a typed solution.
 */
export const SOLUTION_DRAFT_KIND = 'solution-draft';
export const SOLUTION_FIELDS = ['title', 'description'] as const satisfies readonly (keyof SolutionFormValues)[];

/** The draft's key: one per notification for a new solution, one per solution for an edit. */
export function solutionDraftKey(target: { mode: 'add' | 'edit'; notificationnodeid: string; workflownodeid?: string | null }): string {
  return target.mode === 'edit' && target.workflownodeid ? `edit:${target.workflownodeid}` : `add:${target.notificationnodeid}`;
}
