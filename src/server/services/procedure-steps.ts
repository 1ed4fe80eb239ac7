import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { withholdsProcedures } from '../../shared/api/sync';
import type { PermissionSubject } from '../../shared/permissions';
import type { Db, Tx } from '../db/client';
import { attachments, workflowSteps, workflows } from '../db/schema';
import { forbidden } from '../http-errors';

/**
 * A maintenance task's procedure is a workflow with steps, and its steps may carry attachments (target kind
 * `workflowstep`, as a solution's steps). Who may read solutions but not maintenance tasks (`withholdsProcedures`)
 * gets neither the procedures nor their attachments and files: the pull, the downloads and the attachment routes
 * apply these conditions besides the target kind's read (`readableAttachmentTargets`).
 */

/** `column` names a step of a maintenance task's procedure. */
function isProcedureStep(column: PgColumn): SQL {
  return sql`exists (select 1 from ${workflowSteps} join ${workflows} on ${workflows.nodeid} = ${workflowSteps.workflownodeid} where ${workflowSteps.nodeid} = ${column} and ${workflows.maintenancetasknodeid} is not null)`;
}

/** The attachments rows `subject` may read as far as procedures go: undefined when they may read them all. */
export function readableProcedureAttachments(subject: PermissionSubject): SQL | undefined {
  if (!withholdsProcedures(subject)) return undefined;
  return sql`not (${attachments.targetkind} = 'workflowstep' and ${isProcedureStep(attachments.isattachmentof)})`;
}

/** 403 when `subject` may not read procedures and the attachment target `nodeid` (of `targetkind`) is a procedure's step. */
export async function assertNotWithheldProcedureStep(db: Db | Tx, subject: PermissionSubject, targetkind: string, nodeid: string): Promise<void> {
  if (targetkind !== 'workflowstep' || !withholdsProcedures(subject)) return;
  const [row] = await db.select({ procedure: workflows.maintenancetasknodeid }).from(workflowSteps).innerJoin(workflows, sql`${workflows.nodeid} = ${workflowSteps.workflownodeid}`).where(sql`${workflowSteps.nodeid} = ${nodeid}`);
  if (row?.procedure) throw forbidden();
}
