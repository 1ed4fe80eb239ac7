import { createFaqSchema, deleteFaqSchema, updateFaqSchema } from '../api/faqs';
import type { FaqRow } from '../rows/solutions';
import { defineCreate, defineDelete, defineUpdate, idParams, sentFields, type SyncRow } from './mutation';

/**
 * FAQs (question and answer), spec part 1 §2.1 FAQ tab, §2.3, §3, §6, §7; feature key `equipment.faq`. A FAQ
 * belongs to a machine (specifier `internalfaq`) or to an equipment type (`equipmenttypefaq`, shown on every
 * machine of that type). Its files are attachments on it (`attachFile` with `isattachmentof` = the FAQ).
 */

/** The machine or type a FAQ row belongs to, for the sync panel's `{{name}}`. */
function owner(values: Record<string, unknown>): { kind: 'equipment' | 'equipmenttypes'; nodeid: string } | undefined {
  if (typeof values.equipmentnodeid === 'string') return { kind: 'equipment', nodeid: values.equipmentnodeid };
  if (typeof values.equipmenttypenodeid === 'string') return { kind: 'equipmenttypes', nodeid: values.equipmenttypenodeid };
  return undefined;
}

const questionOf = (values: Record<string, unknown>): string | null => (typeof values.question === 'string' ? values.question : null);

/** "FAQ hinzufügen": the row the FAQ form's save makes, its author the user who saves it. */
export const createFaq = defineCreate({
  name: 'createFaq',
  route: '/faqs',
  body: createFaqSchema,
  permission: { feature: 'equipment.faq', flag: 'create' },
  kind: 'faqs',
  apply: (_current, { body }, { usernodeid }): Omit<FaqRow, 'nodeid' | 'legalentitynodeid' | 'version'> => ({
    question: body.question,
    answer: body.answer,
    specifier: body.specifier,
    equipmentnodeid: body.specifier === 'internalfaq' ? body.isfaqof : null,
    equipmenttypenodeid: body.specifier === 'equipmenttypefaq' ? body.isfaqof : null,
    authornodeid: usernodeid,
  }),
  describe: { subject: (_args, values) => owner(values), params: ({ body }) => ({ question: body.question }) },
});

/** The FAQ form's save in edit mode and the tab's inline edit: question and answer, only those sent. */
export const updateFaq = defineUpdate({
  name: 'updateFaq',
  route: '/faqs/:id',
  params: idParams,
  body: updateFaqSchema,
  permission: { feature: 'equipment.faq', flag: 'update' },
  kind: 'faqs',
  apply: (_current: SyncRow | undefined, { body }): Partial<Pick<FaqRow, 'question' | 'answer'>> => sentFields(body, ['question', 'answer']),
  describe: { subject: (_args, values) => owner(values), params: (_args, values) => ({ question: questionOf(values) }) },
});

/** Deletes a FAQ with its attachments (the ownership tree on the server). */
export const deleteFaq = defineDelete({
  name: 'deleteFaq',
  route: '/faqs/:id',
  params: idParams,
  body: deleteFaqSchema,
  permission: { feature: 'equipment.faq', flag: 'delete' },
  kind: 'faqs',
  describe: { subject: (_args, values) => owner(values), params: (_args, values) => ({ question: questionOf(values) }) },
});

export const faqMutations = [createFaq, updateFaq, deleteFaq] as const;
