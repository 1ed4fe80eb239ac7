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
