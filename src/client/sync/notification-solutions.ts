/**
 * The solutions (Maßnahmen) of a notification as the measures list and the solution form read them, live from the
 * local mirror (kinds `workflows`, `workflowsteps`, `users`, `attachments`), so they work offline and show a local
 * write at once (spec part 1 §2.2 measures list, §2.3).
 *
 * A solution is a workflow with its first step. While this device's create or edit of it waits for the pull, the
 * workflow row carries the step's id and description as mirror-only fields (src/shared/mutations/workflows.ts):
 * they stand in for the step row and win over it. Rows waiting for their delete are left out.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { WORKFLOW_STEP_DESCRIPTION, WORKFLOW_STEP_ID } from '../../shared/mutations/workflows';
import { getLocalDb, type LocalDatabase, type MirrorRow } from '../db/local-db';
import type { MirrorResult } from './machine-mirror';
import { isLive } from './mirror-fields';
import { readAttachmentsWithFiles, type AttachmentWithFile } from './offline-files';
import { pendingIdsOfKind, readState, stateKeys } from './outbox';

export interface SolutionItem {
  /** The workflow's nodeid. */
  nodeid: string;
  notificationnodeid: string;
  /** The first step, which the files hang on; null for a workflow without steps. */
  stepnodeid: string | null;
  title: string | null;
  description: string | null;
  /** The descriptions of further steps, in order (solutions documented elsewhere may have several; the form edits the first). */
  furtherSteps: string[];
  /** Epoch ms the solution was documented. */
  created: number | null;
  /** "Vorname Nachname" of the documenting user; null when unknown. */
  author: string | null;
  attachments: AttachmentWithFile[];
  /** A write of it waits in the outbox ("nicht synchronisiert"). */
  pending: boolean;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const time = (value: unknown): number | null => (typeof value === 'number' && value > 0 ? value : null);

function inOrder(steps: MirrorRow[]): MirrorRow[] {
  return steps.filter(isLive).sort((a, b) => Number(a.position ?? 0) - Number(b.position ?? 0) || Number(a.created ?? 0) - Number(b.created ?? 0));
}

async function solutionItem(db: LocalDatabase, workflow: MirrorRow, pending: Set<string>): Promise<SolutionItem> {
  const [step, ...further] = inOrder(await db.mirror('workflowsteps').where('workflownodeid').equals(workflow.nodeid).toArray());
  const stepnodeid = step?.nodeid ?? text(workflow[WORKFLOW_STEP_ID]);
  const description = WORKFLOW_STEP_DESCRIPTION in workflow ? text(workflow[WORKFLOW_STEP_DESCRIPTION]) : text(step?.description);
  const authornodeid = text(workflow.authornodeid) ?? text(step?.authornodeid);
  const user = authornodeid ? await db.mirror('users').get(authornodeid) : undefined;
  const author = user ? [text(user.givenname), text(user.surname)].filter(Boolean).join(' ') || null : null;
  return {
    nodeid: workflow.nodeid,
    notificationnodeid: text(workflow.notificationnodeid) ?? '',
    stepnodeid,
    title: text(workflow.title),
    description,
    furtherSteps: further.map((row) => text(row.description)).filter((value): value is string => value !== null),
    created: time(workflow.created),
    author,
    // The files of every step: the first step's (the form adds there) and those of further steps.
    attachments: (await Promise.all([stepnodeid, ...further.map((row) => row.nodeid)].filter((id): id is string => id !== null).map((id) => readAttachmentsWithFiles(db, id)))).flat(),
    pending: pending.has(workflow.nodeid),
  };
}

/** The notification's solutions, oldest first (the order they were documented in). */
export async function readNotificationSolutions(db: LocalDatabase, notificationnodeid: string): Promise<SolutionItem[]> {
  const rows = (await db.mirror('workflows').where('notificationnodeid').equals(notificationnodeid).toArray()).filter(isLive);
  const pending = await pendingIdsOfKind(db, 'workflows');
  const items = await Promise.all(rows.map((row) => solutionItem(db, row, pending)));
  return items.sort((a, b) => (a.created ?? 0) - (b.created ?? 0) || a.nodeid.localeCompare(b.nodeid));
}

/** undefined while loading. */
export function useNotificationSolutions(notificationnodeid: string): SolutionItem[] | undefined {
  return useLiveQuery(() => readNotificationSolutions(getLocalDb(), notificationnodeid), [notificationnodeid]);
}

export async function readSolution(db: LocalDatabase, workflownodeid: string | null): Promise<MirrorResult<SolutionItem>> {
  if (!workflownodeid) return { status: 'missing' };
  const row = await db.mirror('workflows').get(workflownodeid);
  if (row && isLive(row)) return { status: 'ready', value: await solutionItem(db, row, await pendingIdsOfKind(db, 'workflows')) };
  return (await readState<boolean>(db, stateKeys.initialSyncDone)) === true ? { status: 'missing' } : { status: 'loading' };
}

const LOADING = { status: 'loading' } as const;

/** One solution for the edit form; missing once it is deleted (here or, after a pull, elsewhere). */
export function useSolution(workflownodeid: string | null): MirrorResult<SolutionItem> {
  return useLiveQuery(() => readSolution(getLocalDb(), workflownodeid), [workflownodeid]) ?? LOADING;
}

/** The notification's title for the form's subtitle; null while unknown. */
export function useNotificationTitle(notificationnodeid: string | null): string | null | undefined {
  return useLiveQuery(async () => (notificationnodeid ? text((await getLocalDb().mirror('notifications').get(notificationnodeid))?.title) : null), [notificationnodeid]);
}
