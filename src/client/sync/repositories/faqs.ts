/**
 * The FAQ form's saves (declarations: src/shared/mutations/faqs.ts). A FAQ with files is one user action of
 * several steps in ONE transaction: the FAQ's create or update first, then per file its registration (with the
 * bytes stored on the device) and its attachment on the FAQ, so the server never sees an attachment before its
 * FAQ and a file picked offline is sent with everything else once there is a connection.
 */
import type { FaqSpecifier } from '../../../shared/domain/faq';
import { createFaq, deleteFaq, updateFaq } from '../../../shared/mutations/faqs';
import type { StoredFileBytes } from '../../db/local-db';
import { mutate, mutateAll, mutationStep } from '../mutate';
import { newNodeId, type MutationRequest, type WriteContext } from '../outbox';
import { photoMutations, type PhotoInput } from './attachments';

export interface FaqDraft {
  question: string;
  answer: string;
}

function attachmentSteps(context: WriteContext, faqnodeid: string, files: readonly PhotoInput[]): { steps: MutationRequest[]; bytes: StoredFileBytes[] } {
  const steps: MutationRequest[] = [];
  const bytes: StoredFileBytes[] = [];
  for (const file of files) {
    const { file: stored, mutations } = photoMutations(context, file, { isattachmentof: faqnodeid, title: file.title ?? file.name });
    steps.push(...mutations);
    bytes.push(stored);
  }
  return { steps, bytes };
}

/**
 * "FAQ hinzufügen": the FAQ on a machine (`internalfaq`) or an equipment type (`equipmenttypefaq`) and its files.
 * Throws MutationInputError (with the field) for input the server would refuse; nothing is queued then.
 */
export async function addFaq(context: WriteContext, input: FaqDraft & { specifier: FaqSpecifier; isfaqof: string; files?: readonly PhotoInput[] }): Promise<string> {
  const nodeid = newNodeId();
  const create = mutationStep(createFaq, {
    params: {},
    body: { lang: 'de', nodeid, question: input.question, answer: input.answer, usernodeid: context.usernodeid, isfaqof: input.isfaqof, specifier: input.specifier },
  });
  const { steps, bytes } = attachmentSteps(context, nodeid, input.files ?? []);
  await mutateAll(context, [create, ...steps], bytes.length > 0 ? { files: bytes } : {});
  return nodeid;
}

/**
 * Saves an edit: the fields that differ from `before` (none: no FAQ update is queued) and the new files.
 * Returns whether anything was queued.
 */
export async function changeFaq(context: WriteContext, nodeid: string, before: FaqDraft, after: FaqDraft, files: readonly PhotoInput[] = []): Promise<boolean> {
  const body = {
    lang: 'de' as const,
    questionanswernodeid: nodeid,
    ...(after.question.trim() !== before.question.trim() && { question: after.question }),
    ...(after.answer.trim() !== before.answer.trim() && { answer: after.answer }),
  };
  const changed = 'question' in body || 'answer' in body;
  const update = changed ? [mutationStep(updateFaq, { params: { id: nodeid }, body })] : [];
  const { steps, bytes } = attachmentSteps(context, nodeid, files);
  if (update.length + steps.length === 0) return false;
  await mutateAll(context, [...update, ...steps], bytes.length > 0 ? { files: bytes } : {});
  return true;
}

/** Deletes a FAQ (its attachments go with it on the server). */
export async function removeFaq(context: WriteContext, nodeid: string): Promise<void> {
  await mutate(context, deleteFaq, { params: { id: nodeid }, body: { nodeid } });
}
