/**
 * Where the solution form (/create-workflow-step, /edit-workflow-step, spec part 1 §2.3) is opened from and where
 * it leads back to. The measures list of a notification opens it with navigation state — add
 * `{ notificationnodeid, equipmentnodeid }`, edit `{ workflownodeid, notificationnodeid }` — and the same ids as
 * query parameters, so a reload (which loses the state) opens the same form. The state also carries where the
 * details were opened from (`notificationOrigin`, lib/notification-origin.ts), handed back to the details on save,
 * delete and cancel, so their back link still leads there. Pure, so the rules are unit-tested.
 */
import { z } from 'zod';
import { carriedOrigin, detailsStateOf, withOrigin, type NotificationOrigin } from './notification-origin';

export const CREATE_SOLUTION_PATH = '/create-workflow-step';
export const EDIT_SOLUTION_PATH = '/edit-workflow-step';

const stateSchema = z.object({
  pageType: z.enum(['add', 'edit']).optional(),
  notificationnodeid: z.uuid(),
  equipmentnodeid: z.uuid().nullish(),
  workflownodeid: z.uuid().optional(),
});
export type SolutionFormState = z.infer<typeof stateSchema> & { notificationOrigin?: NotificationOrigin };

export interface SolutionFormTarget {
  mode: 'add' | 'edit';
  notificationnodeid: string;
  /** Edit: the solution (workflow) edited. */
  workflownodeid: string | null;
  /** Where the notification's details were opened from (navigation state only), handed back on the way back. */
  origin: NotificationOrigin | null;
}

/**
 * The form's target from the route (`/create-…` adds, `/edit-…` edits), its navigation state, else its query
 * parameters `notificationnodeid` and `workflownodeid`. Null when nothing usable is named (a typed URL, an old link).
 */
export function resolveSolutionForm(pathname: string, state: unknown, search: string): SolutionFormTarget | null {
  const query = new URLSearchParams(search);
  const fromState = stateSchema.safeParse(state);
  const fromQuery = stateSchema.safeParse({ notificationnodeid: query.get('notificationnodeid') ?? undefined, workflownodeid: query.get('workflownodeid') ?? undefined });
  const parsed = fromState.success ? fromState.data : fromQuery.success ? fromQuery.data : null;
  if (!parsed) return null;
  const mode = pathname.startsWith(EDIT_SOLUTION_PATH) ? 'edit' : 'add';
  if (mode === 'edit' && !parsed.workflownodeid) return null;
  return { mode, notificationnodeid: parsed.notificationnodeid, workflownodeid: mode === 'edit' ? parsed.workflownodeid! : null, origin: carriedOrigin(state) };
}

/**
 * Back link and the target after save or delete: the notification's details (spec: /notification-details?nodeid=…),
 * on its measures tab, where the change just made is (the screen opened on the overview before).
 */
export function solutionReturnPath(notificationnodeid: string): string {
  return `/notification-details?nodeid=${encodeURIComponent(notificationnodeid)}&tab=measures`;
}

/** The navigation state for that way back: the details' origin, so their back link leads where it did. */
export function solutionReturnState(target: Pick<SolutionFormTarget, 'origin'>): { from: string; equipmentNodeId: string | null } | undefined {
  return detailsStateOf(target.origin);
}

/** "Maßnahme hinzufügen" on a notification: the path (with the query for a reload) and the spec's state. */
export function addSolutionLink(notificationnodeid: string, equipmentnodeid: string | null, origin: NotificationOrigin | null = null): { to: string; state: SolutionFormState } {
  return {
    to: `${CREATE_SOLUTION_PATH}?notificationnodeid=${encodeURIComponent(notificationnodeid)}`,
    state: withOrigin({ pageType: 'add' as const, notificationnodeid, equipmentnodeid }, origin),
  };
}

/** Editing a solution of a notification. */
export function editSolutionLink(workflownodeid: string, notificationnodeid: string, origin: NotificationOrigin | null = null): { to: string; state: SolutionFormState } {
  return {
    to: `${EDIT_SOLUTION_PATH}?workflownodeid=${encodeURIComponent(workflownodeid)}&notificationnodeid=${encodeURIComponent(notificationnodeid)}`,
    state: withOrigin({ pageType: 'edit' as const, workflownodeid, notificationnodeid }, origin),
  };
}
