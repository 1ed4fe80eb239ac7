/**
 * Areas (Bereiche), offline-first (declarations: src/shared/mutations/structure.ts createArea, updateArea,
 * deleteArea). A form's save is several entries in one local transaction — the area, its machine moves, its shift
 * plan, its creator's follow — in this order, so the server gets the area before the machines that move into it.
 */
import { sameShiftPlan, type ShiftRow } from '../../../shared/domain/shift';
import { createArea as createAreaMutation, deleteArea as deleteAreaMutation, updateArea as updateAreaMutation } from '../../../shared/mutations/structure';
import { mutate, mutateAll, mutationStep } from '../mutate';
import { newNodeId, type MutationRequest, type WriteContext } from '../outbox';
import { assignmentMutations, type SelectionSave } from './assignments';
import { shiftPlanMutation } from './shifts';
import { creatorFollows } from './subscriptions';

/**
 * "Bereich anlegen". The creator follows the new area (unless they follow its plant), so it appears on their
 * dashboard (docs/decisions.md). That is its own entry rather than the payload's `isSiteSubs`, so the device
 * shows it at once, offline too. Machines move in with their own entries (see assignments.ts).
 */
export async function createArea(context: WriteContext, input: { sitenodeid: string; name: string; selection: SelectionSave }): Promise<string> {
  const nodeid = newNodeId();
  const create = mutationStep(createAreaMutation, { params: {}, body: { lang: 'de', nodeid, name: input.name, sitenodeid: input.sitenodeid, isSiteSubs: false } });
  const follow = await creatorFollows(context, { type: 'area', nodeid }, input.sitenodeid);
  await mutateAll(context, [create, ...assignmentMutations({ type: 'area', nodeid }, input.selection), ...follow]);
  return nodeid;
}

/**
 * "Änderungen Speichern": the name (when changed), the machine moves and the shift plan (when changed), in one
 * local transaction. `area` is the area as the form was filled: its name and its plan. A rename or a plan another
 * device saved meanwhile is not undone by a form whose field was left as it was filled — a plan edited and edited
 * back (a row added and removed, weekdays clicked off and on) is not sent either (the machine form's rule).
 */
export async function updateArea(
  context: WriteContext,
  area: { nodeid: string; name: string; shiftmodelnodeid: string | null; shifts: readonly ShiftRow[] },
  input: { name: string; selection: SelectionSave; shifts: readonly ShiftRow[] },
): Promise<void> {
  const steps: MutationRequest[] = [];
  const name = input.name.trim();
  if (name !== area.name) steps.push(mutationStep(updateAreaMutation, { params: { id: area.nodeid }, body: { lang: 'de', areanodeid: area.nodeid, name } }));
  steps.push(...assignmentMutations({ type: 'area', nodeid: area.nodeid }, input.selection));
  if (!sameShiftPlan(input.shifts, area.shifts)) steps.push(shiftPlanMutation(area.nodeid, area.shiftmodelnodeid, input.shifts));
  if (steps.length > 0) await mutateAll(context, steps);
}

/** Deletes the area; its machines stay, unlinked (the server unlinks them; the screens treat the link as gone). */
export async function deleteArea(context: WriteContext, areanodeid: string): Promise<void> {
  await mutate(context, deleteAreaMutation, { params: { id: areanodeid }, body: { areanodeid } });
}
