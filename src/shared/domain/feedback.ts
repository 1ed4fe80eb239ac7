/** Report types of the feedback form (part 2 §2.12), in the form's order; labels live in the i18n files. */
export const FEEDBACK_SUBJECTS = ['general', 'setup', 'operation', 'features', 'other'] as const;
export type FeedbackSubject = (typeof FEEDBACK_SUBJECTS)[number];
