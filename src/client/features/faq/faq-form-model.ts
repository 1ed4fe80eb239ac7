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

/**
 * What was typed is kept on the device per user and form until it is saved or cancelled (stores/kept-text-form.ts),
 * as in the solution form: a long answer typed at the machine survives a reload or a killed tab.
 */
export const FAQ_DRAFT_KIND = 'faq-draft';
export const FAQ_FIELDS = ['question', 'answer'] as const satisfies readonly (keyof FaqFormValues)[];

/** The draft's key: one per FAQ for an edit; for a new FAQ one per machine or type it is added to. */
export function faqDraftKey(target: { mode: 'add' | 'edit'; specifier: string; isfaqof: string | null; faqnodeid: string | null }): string {
  return target.mode === 'edit' && target.faqnodeid ? `edit:${target.faqnodeid}` : `add:${target.specifier}:${target.isfaqof ?? ''}`;
}
