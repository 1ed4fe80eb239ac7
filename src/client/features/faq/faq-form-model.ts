/**
 * The FAQ form's own rule (spec part 1 §2.3, §4.3, §5), pure so it is unit-tested: when save is possible. The
 * uploader rules it shares with the other forms are in src/client/lib/attachment-files.ts. §5 sets no length rules
 * for question or answer; the question is what a FAQ is, so it is required.
 */
export interface FaqFormValues {
  question: string;
  answer: string;
}

/** Save: disabled while saving, without a question, and in edit mode while nothing changed. */
export function canSaveFaq(values: FaqFormValues, options: { saving: boolean; initial: FaqFormValues | null; newFiles: number }): boolean {
  if (options.saving || values.question.trim() === '') return false;
  if (!options.initial) return true;
  return values.question.trim() !== options.initial.question.trim() || values.answer.trim() !== options.initial.answer.trim() || options.newFiles > 0;
}
