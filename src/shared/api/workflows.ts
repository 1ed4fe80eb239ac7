import { z } from 'zod';
import { trimText } from '../domain/text';
import { clientNodeid, deleteBodySchema, langField, MAX_EPOCH_MS, MAX_EPOCH_MS_TEXT } from './fields';

/**
 * Solution (Maßnahme) contracts of spec part 1 §2.3 (solution part), §3 and §7: "Workflows: POST, PUT
 * /workflows/{id}; payload {created, usernodeid, notificationnodeid, description, attachments, lang,
 * title_workflow}". A solution is one workflow on a notification with its first step; `title_workflow` is the
 * workflow's (and the first step's) title, `description` the first step's text. Our paths: POST /workflows,
 * PUT /workflows/{id}, DELETE /workflows/{id} (the spec shows no delete path; the form has a delete button).
 *
 * §5: "No length rules for title" — the limits here only keep a request sane. A solution may have no title (the
 * list shows "Maßnahme ohne Titel"), so empty means none (null).
 *
 * `attachments`: files of a solution hang on its step (`isattachmentof` = the step, target kind `workflowstep`),
 * each its own write after the workflow's (POST /files, POST /attachments), as for FAQs; the payloads here do not
 * carry them (docs/decisions.md § Solutions).
 */
export const WORKFLOW_TITLE_MAX = 2_000;
export const WORKFLOW_DESCRIPTION_MAX = 20_000;

const optionalText = (max: number) =>
  z
    .string({ error: 'Must be a text' })
    .overwrite(trimText)
    .max(max, `Must be at most ${max} characters`)
    .nullable();
const emptyIsNull = (value: string | null | undefined): string | null => (value ? value : null);

const title = optionalText(WORKFLOW_TITLE_MAX);
const description = optionalText(WORKFLOW_DESCRIPTION_MAX);

/**
 * POST /api/workflows. `nodeid` (the workflow) and `stepnodeid` (its first step) are chosen by the device, so a
 * file picked offline can be attached to the step before the server has either. `created` is the device's time
 * the solution was documented (data, never a sync watermark); without it the server's time. `usernodeid` is the
 * spec's author field; the server records the caller as author, so when sent it must be the caller's own id.
 */
export const createWorkflowSchema = z.object({
  lang: langField,
  nodeid: clientNodeid,
  stepnodeid: clientNodeid,
  created: z.number({ error: 'Must be a time in ms' }).int('Must be a time in ms').positive('Must be a time in ms').max(MAX_EPOCH_MS, MAX_EPOCH_MS_TEXT).optional(),
  usernodeid: z.uuid().optional(),
  notificationnodeid: z.uuid(),
  title_workflow: title.optional().transform(emptyIsNull),
  description: description.optional().transform(emptyIsNull),
});
export type CreateWorkflowInput = z.input<typeof createWorkflowSchema>;
export type CreateWorkflow = z.output<typeof createWorkflowSchema>;

/**
 * PUT /api/workflows/{id}: only the fields sent change (undefined: unchanged; empty or null: unset).
 * `workflownodeid`, when sent, must equal the path.
 */
export const updateWorkflowSchema = z.object({
  lang: langField,
  workflownodeid: z.uuid().optional(),
  title_workflow: title.transform(emptyIsNull).optional(),
  description: description.transform(emptyIsNull).optional(),
});
export type UpdateWorkflowInput = z.input<typeof updateWorkflowSchema>;
export type UpdateWorkflow = z.output<typeof updateWorkflowSchema>;

/** DELETE /api/workflows/{id}: the body {nodeid}, optional; when sent it must equal the path. */
export const deleteWorkflowSchema = deleteBodySchema('nodeid');
