import { z } from 'zod';
import { trimText } from '../domain/text';
import { FAQ_SPECIFIERS } from '../domain/faq';
import { clientNodeid, deleteBodySchema, langField } from './fields';

/**
 * FAQ contracts of spec part 1 §2.3 (FAQ part), §3 and §7: create {lang, question, answer, usernodeid, isfaqof,
 * specifier, attachments}; update {questionanswernodeid, question, answer, attachmentType, attachments, lang};
 * delete {nodeid}. The spec shows no paths; ours are POST /faqs, PUT /faqs/{id}, DELETE /faqs/{id}.
 *
 * §5: "No length rules for title, question or answer" — the only limits here keep a request sane (a question of
 * a page, an answer of a long manual chapter), far beyond anything typed on a tablet.
 *
 * `attachments`/`attachmentType`: a FAQ's files are attachments hanging on it (`isattachmentof` = the FAQ,
 * target kind `faq`), each its own write after the FAQ's (POST /files, POST /attachments), so the FAQ payloads
 * do not carry them (docs/decisions.md § Machine detail: FAQ).
 */
export const FAQ_QUESTION_MAX = 2_000;
export const FAQ_ANSWER_MAX = 20_000;

const question = z
  .string({ error: (issue) => (issue.input === undefined || issue.input === null ? 'Required' : 'Must be a text') })
  .overwrite(trimText)
  .min(1, 'Required')
  .max(FAQ_QUESTION_MAX, `Must be at most ${FAQ_QUESTION_MAX} characters`);

/** An answer may be left empty (a question noted for later); empty means none (null). */
const answerText = z.string({ error: 'Must be a text' }).overwrite(trimText).max(FAQ_ANSWER_MAX, `Must be at most ${FAQ_ANSWER_MAX} characters`);
const emptyIsNull = (value: string | null | undefined): string | null => (value ? value : null);
const answer = answerText.nullish().transform(emptyIsNull);
/** In an update a missing answer leaves it alone (undefined), only an empty or null one unsets it. */
const changedAnswer = answerText.nullable().transform(emptyIsNull).optional();

/**
 * POST /api/faqs. `isfaqof` is the machine (specifier `internalfaq`, the default as in the spec) or the
 * equipment type (`equipmenttypefaq`) the FAQ belongs to. `usernodeid` is the spec's author field; the server
 * records the caller as author, so when sent it must be the caller's own id.
 */
export const createFaqSchema = z.object({
  lang: langField,
  nodeid: clientNodeid,
  question,
  answer,
  usernodeid: z.uuid().optional(),
  isfaqof: z.uuid(),
  specifier: z.enum(FAQ_SPECIFIERS, { error: `Must be one of ${FAQ_SPECIFIERS.join(', ')}` }).default('internalfaq'),
});
export type CreateFaqInput = z.input<typeof createFaqSchema>;
export type CreateFaq = z.output<typeof createFaqSchema>;

/** PUT /api/faqs/{id}: only the fields sent change; `questionanswernodeid`, when sent, must equal the path. */
export const updateFaqSchema = z.object({
  lang: langField,
  questionanswernodeid: z.uuid().optional(),
  question: question.optional(),
  answer: changedAnswer,
});
export type UpdateFaqInput = z.input<typeof updateFaqSchema>;
export type UpdateFaq = z.output<typeof updateFaqSchema>;

/** DELETE /api/faqs/{id}: the spec's body {nodeid}, optional; when sent it must equal the path. */
export const deleteFaqSchema = deleteBodySchema('nodeid');
