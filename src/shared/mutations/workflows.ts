import { createWorkflowSchema, deleteWorkflowSchema, updateWorkflowSchema } from '../api/workflows';
import { deviceCreationTime } from '../domain/device-time';
import type { WorkflowRow } from '../rows/solutions';
import { defineCreate, defineDelete, defineUpdate, idParams, type SyncRow } from './mutation';

/**
 * Solutions (Maßnahmen) on a notification, spec part 1 §2.2 measures list, §2.3, §3, §6, §7; feature key
 * `notification.workflow`. A solution is a workflow with its first step: the workflow carries the title, the step
 * the description, and the step is what files hang on (`attachFile` with `isattachmentof` = the step).
 *
 * An outbox entry changes exactly one mirror row, and that row is the workflow's. What the entry writes to the
 * step rides on the workflow's mirror row as mirror-only fields (no field of the feed's row, like a shift plan on
 * its model): `stepnodeid` and `stepdescription`. The server writes the step and gives the workflow the same
 * version, so the pull that brings the step also brings the workflow row, which replaces those fields.
 */

/** Mirror-only field: the first step's nodeid, set by the create until the pull brings the step. */
export const WORKFLOW_STEP_ID = 'stepnodeid';
/** Mirror-only field: the first step's description as this device's pending write left it (null: none). */
export const WORKFLOW_STEP_DESCRIPTION = 'stepdescription';

const notificationOf = (values: Record<string, unknown>) => (typeof values.notificationnodeid === 'string' ? { kind: 'notifications' as const, nodeid: values.notificationnodeid } : undefined);

/** "Maßnahme hinzufügen": the workflow on the notification, its author the user who saves it. */
export const createWorkflow = defineCreate({
  name: 'createWorkflow',
  route: '/workflows',
  body: createWorkflowSchema,
  permission: { feature: 'notification.workflow', flag: 'create' },
  kind: 'workflows',
  alsoCreates: (body) => (body.stepnodeid ? [body.stepnodeid] : []),
  apply: (_current, { body }, { now, usernodeid }): Omit<WorkflowRow, 'nodeid' | 'legalentitynodeid' | 'version'> & Record<string, unknown> => ({
    title: body.title_workflow,
    notificationnodeid: body.notificationnodeid,
    maintenancetasknodeid: null,
    authornodeid: usernodeid,
    // The device's time of the solution, clamped like a notification's: not in the future, not from a clock never set.
    created: deviceCreationTime(body.created, now),
    ...(body.stepnodeid !== undefined && { [WORKFLOW_STEP_ID]: body.stepnodeid }),
    [WORKFLOW_STEP_DESCRIPTION]: body.description,
  }),
  describe: { subject: (_args, values) => notificationOf(values) },
});

/** The solution form's save in edit mode: title and description, only those sent. */
export const updateWorkflow = defineUpdate({
  name: 'updateWorkflow',
  route: '/workflows/:id',
  params: idParams,
  body: updateWorkflowSchema,
  permission: { feature: 'notification.workflow', flag: 'update' },
  kind: 'workflows',
  apply: (_current: SyncRow | undefined, { body }): Record<string, unknown> => ({
    ...(body.title_workflow !== undefined && { title: body.title_workflow }),
    ...(body.description !== undefined && { [WORKFLOW_STEP_DESCRIPTION]: body.description }),
  }),
  describe: { subject: (_args, values) => notificationOf(values) },
});

/**
 * Deletes a solution with its steps and their attachments (the ownership tree on the server). The profile has a
 * delete flag per feature (§3 "four flags"), so deleting needs `notification.workflow` delete (docs/decisions.md).
 */
export const deleteWorkflow = defineDelete({
  name: 'deleteWorkflow',
  route: '/workflows/:id',
  params: idParams,
  body: deleteWorkflowSchema,
  permission: { feature: 'notification.workflow', flag: 'delete' },
  kind: 'workflows',
  describe: { subject: (_args, values) => notificationOf(values) },
});

export const workflowMutations = [createWorkflow, updateWorkflow, deleteWorkflow] as const;
