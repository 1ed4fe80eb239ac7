/**
 * Weekly shift plans, offline-first (declarations: src/shared/mutations/structure.ts createShifts, updateShifts).
 * The whole plan is one outbox entry on the shift model; until the pull brings its rows the model's mirror row
 * carries the saved rows (`shifts`), which the screens prefer.
 */
import type { ShiftRow } from '../../../shared/domain/shift';
import { createShifts, updateShifts } from '../../../shared/mutations/structure';
import { mutationStep } from '../mutate';
import { newNodeId, type MutationRequest } from '../outbox';

export { SHIFT_MODEL_OWNER } from '../../../shared/mutations/structure';

/** Replaces the rows of an existing plan, or creates the owner's plan. */
export function shiftPlanMutation(ownernodeid: string, shiftmodelnodeid: string | null, shifts: readonly ShiftRow[]): MutationRequest {
  if (shiftmodelnodeid) return mutationStep(updateShifts, { params: { id: shiftmodelnodeid }, body: { shiftnodeid: shiftmodelnodeid, shifts: [...shifts] } });
  return mutationStep(createShifts, { params: {}, body: { nodeid: newNodeId(), shiftmodelof: ownernodeid, shifts: [...shifts] } });
}
