/**
 * The solution form's saves (declarations: src/shared/mutations/workflows.ts). A solution with files is one user
 * action of several steps in ONE transaction: the workflow's create or update first, then per file its
 * registration (with the bytes stored on the device) and its attachment on the solution's step, so the server
 * never sees an attachment before its step and a file picked offline is sent with everything else once there is a
 * connection (spec part 1 §4.3: "attachments are uploaded first, then the record is created" — here the order of
 * the queue keeps the record first, which the server needs; docs/decisions.md § Solutions).
 */
import { createWorkflow, deleteWorkflow, updateWorkflow } from '../../../shared/mutations/workflows';
import type { StoredFileBytes } from '../../db/local-db';
import { mutate, mutateAll, mutationStep } from '../mutate';
import { newNodeId, type MutationRequest, type WriteContext } from '../outbox';
import { photoMutations, type PhotoInput } from './attachments';

export interface SolutionDraft {
  title: string;
  description: string;
}

function attachmentSteps(context: WriteContext, stepnodeid: string, files: readonly PhotoInput[]): { steps: MutationRequest[]; bytes: StoredFileBytes[] } {
  const steps: MutationRequest[] = [];
  const bytes: StoredFileBytes[] = [];
  for (const file of files) {
    const { file: stored, mutations } = photoMutations(context, file, { isattachmentof: stepnodeid, title: file.title ?? file.name });
    steps.push(...mutations);
    bytes.push(stored);
  }
  return { steps, bytes };
}

/**
 * "Maßnahme hinzufügen": the solution on the notification (workflow and first step, ids made here) and its
 * files. Throws MutationInputError (with the field) for input the server would refuse; nothing is queued then.
 * Returns the workflow's nodeid.
 */
export async function addSolution(context: WriteContext, input: SolutionDraft & { notificationnodeid: string; files?: readonly PhotoInput[] }): Promise<string> {
  const nodeid = newNodeId();
  const stepnodeid = newNodeId();
  const create = mutationStep(createWorkflow, {
    params: {},
    body: {
      lang: 'de',
      nodeid,
      stepnodeid,
      created: (context.now ?? Date.now)(),
      usernodeid: context.usernodeid,
      notificationnodeid: input.notificationnodeid,
      title_workflow: input.title,
      description: input.description,
    },
  });
  const { steps, bytes } = attachmentSteps(context, stepnodeid, input.files ?? []);
  await mutateAll(context, [create, ...steps], bytes.length > 0 ? { files: bytes } : {});
  return nodeid;
}

/**
 * Saves an edit: the fields that differ from `before` (none: no workflow update is queued) and the new files on
 * the solution's step. Returns whether anything was queued.
 */
export async function changeSolution(
  context: WriteContext,
  solution: { nodeid: string; stepnodeid: string | null },
  before: SolutionDraft,
  after: SolutionDraft,
  files: readonly PhotoInput[] = [],
): Promise<boolean> {
  const body = {
    lang: 'de' as const,
    workflownodeid: solution.nodeid,
    ...(after.title.trim() !== before.title.trim() && { title_workflow: after.title }),
    ...(after.description.trim() !== before.description.trim() && { description: after.description }),
  };
  const changed = 'title_workflow' in body || 'description' in body;
  const update = changed ? [mutationStep(updateWorkflow, { params: { id: solution.nodeid }, body })] : [];
  // why: a workflow without a step (none made by this app) has nothing to hang files on; its files are refused here.
  if (files.length > 0 && !solution.stepnodeid) throw new Error('This solution has no step to attach files to');
  const { steps, bytes } = solution.stepnodeid ? attachmentSteps(context, solution.stepnodeid, files) : { steps: [], bytes: [] };
  if (update.length + steps.length === 0) return false;
  await mutateAll(context, [...update, ...steps], bytes.length > 0 ? { files: bytes } : {});
  return true;
}

/** Deletes a solution (its steps and their attachments go with it on the server). */
export async function removeSolution(context: WriteContext, nodeid: string): Promise<void> {
  await mutate(context, deleteWorkflow, { params: { id: nodeid }, body: { nodeid } });
}
