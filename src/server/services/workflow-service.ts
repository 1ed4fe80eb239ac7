import { and, asc, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { CreateWorkflow, UpdateWorkflow } from '../../shared/api/workflows';
import { createWorkflow as createMutation, updateWorkflow as updateMutation, WORKFLOW_STEP_DESCRIPTION } from '../../shared/mutations/workflows';
import type { WorkflowRow } from '../../shared/rows/solutions';
import type { Tx } from '../db/client';
import { notifications, workflowSteps, workflows } from '../db/schema';
import { badRequest, notFound } from '../http-errors';
import { nextVersion, nextVersionCte } from './change-feed';
import { deleteWithOwned } from './ownership';
import { appendHistory, changedFields } from './record-history';
import { applyContext, toColumnValues, toRowShape } from './rows';
import { writeTransaction, type Actor, type ServiceContext } from './service-context';
import { assertBodyIdMatches, existingForCreate, lockOwnRow, lockParent, ofTenant } from './structure-common';

/**
 * Solutions (Maßnahmen) on notifications (spec part 1 §2.2, §2.3, §3, §7), the writes of the declarations in
 * src/shared/mutations/workflows.ts. A solution is a workflow with its first step (position 0): the workflow
 * holds the title, the step the same title and the description, and the step is what the solution's files hang
 * on. Every write is scoped to the caller's tenant (another tenant's notification or solution is a 404), and the
 * workflow and its step always take the same change version, so the pull brings both together (the device's
 * mirror-only step fields on the workflow row are replaced only once the step is there). Writes answer the
 * workflow's row.
 *
 * A workflow of a maintenance task (the task's procedure) is no solution: these routes do not reach it (404).
 */

const KIND = 'workflows';
const STEP_KIND = 'workflow_steps';
const NOT_FOUND = 'Solution not found';

async function workflowRow(tx: Tx, actor: Actor, nodeid: string): Promise<WorkflowRow> {
  const [row] = await tx.select().from(workflows).where(ofTenant(workflows, actor, nodeid));
  if (!row) throw notFound(NOT_FOUND);
  return toRowShape(row) as WorkflowRow;
}

async function assertNotificationOfTenant(tx: Tx, actor: Actor, notificationnodeid: string): Promise<void> {
  if (!(await lockParent(tx, notifications, actor, notificationnodeid))) throw notFound('notificationnodeid: Notification not found');
}

/** The solution's first step, locked for this write; undefined for a workflow without steps. */
async function lockFirstStep(tx: Tx, actor: Actor, workflownodeid: string) {
  const [step] = await tx
    .select()
    .from(workflowSteps)
    .where(and(eq(workflowSteps.legalentitynodeid, actor.legalentitynodeid), eq(workflowSteps.workflownodeid, workflownodeid)))
    .orderBy(asc(workflowSteps.position), asc(workflowSteps.created))
    .limit(1)
    .for('no key update');
  return step;
}

/**
 * createWorkflow: the workflow the declaration computes, with the caller as author, and its first step (the
 * device's `stepnodeid`) with title and description. The same create sent again under a new mutation id answers
 * the row it made; an id used by another record answers 409, a deleted solution's id 410.
 */
export async function createWorkflow(ctx: ServiceContext, actor: Actor, input: CreateWorkflow): Promise<WorkflowRow> {
  if (input.usernodeid !== undefined && input.usernodeid !== actor.usernodeid) {
    throw badRequest('Invalid body: usernodeid: Must be your own user id', [{ field: 'usernodeid', message: 'Must be your own user id' }]);
  }
  if (input.nodeid !== undefined && input.nodeid === input.stepnodeid) {
    throw badRequest('Invalid body: stepnodeid: Must differ from nodeid', [{ field: 'stepnodeid', message: 'Must differ from nodeid' }]);
  }
  const nodeid = input.nodeid ?? uuidv7();
  const stepnodeid = input.stepnodeid ?? uuidv7();
  return writeTransaction(ctx, 'workflow.create', async (tx) => {
    await assertNotificationOfTenant(tx, actor, input.notificationnodeid);
    const fields = createMutation.apply!(undefined, { params: {}, body: { ...input, nodeid, stepnodeid } }, applyContext(actor));
    const [found] = await tx.select().from(workflows).where(eq(workflows.nodeid, nodeid));
    const same = await existingForCreate(tx, actor, KIND, nodeid, found, (row) => row.title === fields.title && row.notificationnodeid === fields.notificationnodeid);
    if (same) return toRowShape(same) as WorkflowRow;
    // The step's id is the device's too: one taken by another record is refused like the workflow's.
    const [stepFound] = await tx.select().from(workflowSteps).where(eq(workflowSteps.nodeid, stepnodeid));
    await existingForCreate(tx, actor, STEP_KIND, stepnodeid, stepFound, () => false);
    // The device's time, clamped by the declaration's apply against the server's now (not in the future, not 1970).
    const created = new Date(typeof fields.created === 'number' ? fields.created : Date.now());
    // why the version taken in the insert and the answer from its returning: from the version to the commit every
    // other writer of the tenant waits (docs/decisions.md "Write: the version late").
    const next = nextVersionCte(tx, actor.legalentitynodeid);
    const [row] = await tx
      .with(next.cte)
      .insert(workflows)
      .values({
        ...(toColumnValues(workflows, fields) as Omit<typeof workflows.$inferInsert, 'nodeid' | 'legalentitynodeid' | 'version' | 'created'>),
        created,
        nodeid,
        legalentitynodeid: actor.legalentitynodeid,
        version: next.version,
      })
      .returning();
    await tx.insert(workflowSteps).values({
      nodeid: stepnodeid,
      legalentitynodeid: actor.legalentitynodeid,
      version: row!.version,
      workflownodeid: nodeid,
      position: 0,
      title: input.title_workflow,
      description: input.description,
      created,
      authornodeid: actor.usernodeid,
    });
    return toRowShape(row!) as WorkflowRow;
  });
}

/**
 * updateWorkflow: title (workflow and first step) and description (first step), only the fields sent; what it
 * overwrites goes to the record history. A change of the step alone still gives the workflow the new version (see
 * above). A workflow without a step gets one when a description is sent.
 */
export async function updateWorkflow(ctx: ServiceContext, actor: Actor, nodeid: string, input: UpdateWorkflow): Promise<WorkflowRow> {
  assertBodyIdMatches('workflownodeid', input.workflownodeid, nodeid);
  return writeTransaction(ctx, 'workflow.update', async (tx) => {
    const current = await lockOwnRow(tx, workflows, actor, nodeid, () => notFound(NOT_FOUND), 'change');
    if (current.notificationnodeid === null) throw notFound(NOT_FOUND);
    const change = updateMutation.apply!(toRowShape(current), { params: { id: nodeid }, body: input }, applyContext(actor));
    const workflowPatch: Partial<typeof workflows.$inferSelect> = 'title' in change ? { title: change.title as string | null } : {};
    const stepPatch: Partial<typeof workflowSteps.$inferSelect> = {
      ...('title' in change && { title: change.title as string | null }),
      ...(WORKFLOW_STEP_DESCRIPTION in change && { description: change[WORKFLOW_STEP_DESCRIPTION] as string | null }),
    };
    const step = await lockFirstStep(tx, actor, nodeid);
    const workflowChanges = changedFields(current as Record<string, unknown>, workflowPatch as Record<string, unknown>);
    const stepChanges = step ? changedFields(step as Record<string, unknown>, stepPatch as Record<string, unknown>) : changedFields({ title: null, description: null }, stepPatch as Record<string, unknown>);
    if (Object.keys(workflowChanges).length === 0 && Object.keys(stepChanges).length === 0) return toRowShape(current) as WorkflowRow;

    const le = actor.legalentitynodeid;
    const version = await nextVersion(tx, le);
    const updatedAt = new Date();
    if (step && Object.keys(stepChanges).length > 0) {
      await tx.update(workflowSteps).set({ ...stepPatch, version, updatedAt }).where(ofTenant(workflowSteps, actor, step.nodeid));
      await appendHistory(tx, actor, { kind: STEP_KIND, nodeid: step.nodeid, version, changes: stepChanges });
    } else if (!step && Object.keys(stepChanges).length > 0) {
      await tx.insert(workflowSteps).values({ nodeid: uuidv7(), legalentitynodeid: le, version, workflownodeid: nodeid, position: 0, title: current.title, ...stepPatch, created: updatedAt, authornodeid: actor.usernodeid });
    }
    await tx.update(workflows).set({ ...workflowPatch, version, updatedAt }).where(ofTenant(workflows, actor, nodeid));
    await appendHistory(tx, actor, { kind: KIND, nodeid, version, changes: workflowChanges });
    return workflowRow(tx, actor, nodeid);
  });
}

/** deleteWorkflow: the solution, its steps and their attachments (ownership.ts), each with a tombstone for the pull. */
export async function deleteWorkflow(ctx: ServiceContext, actor: Actor, nodeid: string): Promise<{ nodeid: string; version: number }> {
  return writeTransaction(ctx, 'workflow.delete', async (tx) => {
    const current = await lockOwnRow(tx, workflows, actor, nodeid, () => notFound(NOT_FOUND), 'delete');
    if (current.notificationnodeid === null) throw notFound(NOT_FOUND);
    const { version } = await deleteWithOwned(tx, actor.legalentitynodeid, KIND, [nodeid], 'next');
    return { nodeid, version };
  });
}
