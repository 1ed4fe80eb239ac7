/**
 * Weekly shift plans (spec part 2 §2.7, §7 "create/update shifts {shifts, shiftmodelof | shiftnodeid}"),
 * offline-first. The whole plan is one outbox entry on the shift model; until it is acknowledged the model's
 * mirror row carries the saved rows (`shifts`), which the screens prefer while the entry is pending.
 */
import { createShiftModelSchema, updateShiftModelSchema } from '../../../shared/api/shiftmodels';
import type { ShiftRow } from '../../../shared/domain/shift';
import { newNodeId, type MutationRequest } from '../outbox';

/**
 * Mirror-only field of a shift model created on this device: whose plan it is, until the pull brings the
 * owner's `shiftmodelnodeid` (the route's answer names the owner `shiftmodelof`, as an object).
 */
export const SHIFT_MODEL_OWNER = 'ownernodeid';

/** Replaces the rows of an existing plan, or creates the owner's plan. */
export function shiftPlanMutation(ownernodeid: string, shiftmodelnodeid: string | null, shifts: readonly ShiftRow[]): MutationRequest {
  if (shiftmodelnodeid) {
    return {
      action: 'updateShifts',
      method: 'PUT',
      path: `shiftmodels/${shiftmodelnodeid}`,
      body: updateShiftModelSchema.parse({ shiftnodeid: shiftmodelnodeid, shifts }),
      kind: 'shiftmodels',
      nodeid: shiftmodelnodeid,
      values: { shifts },
    };
  }
  const nodeid = newNodeId();
  return {
    action: 'createShifts',
    method: 'POST',
    path: 'shiftmodels',
    body: createShiftModelSchema.parse({ nodeid, shiftmodelof: ownernodeid, shifts }),
    kind: 'shiftmodels',
    nodeid,
    values: { shifts, [SHIFT_MODEL_OWNER]: ownernodeid },
    creates: true,
  };
}
