/**
 * Areas (Bereiche), offline-first (spec part 2 §2.3, §7 "create area {lang, name, areaid, sitenodeid, isSiteSubs,
 * assign.payload}; delete area {areanodeid}"). Every action is one call of `enqueueMutation`: the area, its
 * machine moves and its shift plan are written to the mirror and the outbox together, in this order, so the
 * server gets the area before the machines that move into it.
 */
import { createAreaSchema, updateAreaSchema } from '../../../shared/api/areas';
import type { ShiftRow } from '../../../shared/domain/shift';
import { PENDING_DELETE } from '../mirror-fields';
import { enqueueMutation, newNodeId, type MutationRequest, type WriteContext } from '../outbox';
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
  const body = createAreaSchema.parse({ lang: 'de', nodeid, name: input.name, sitenodeid: input.sitenodeid, isSiteSubs: false });
  const create: MutationRequest = {
    action: 'createArea',
    method: 'POST',
    path: 'areas',
    body,
    kind: 'areas',
    nodeid,
    values: { name: body.name, areaid: null, sitenodeid: input.sitenodeid, shiftmodelnodeid: null },
    creates: true,
  };
  const follow = await creatorFollows(context, { type: 'area', nodeid }, input.sitenodeid);
  await enqueueMutation(context, [create, ...assignmentMutations({ type: 'area', nodeid }, input.selection), ...follow]);
  return nodeid;
}

/**
 * "Änderungen Speichern": the name (when changed), the machine moves and the shift plan (when changed), in one
 * local transaction. `shifts` undefined = plan unchanged.
 */
export async function updateArea(
  context: WriteContext,
  area: { nodeid: string; name: string; shiftmodelnodeid: string | null },
  input: { name: string; selection: SelectionSave; shifts?: readonly ShiftRow[] },
): Promise<void> {
  const mutations: MutationRequest[] = [];
  const name = input.name.trim();
  if (name !== area.name) {
    mutations.push({
      action: 'updateArea',
      method: 'PUT',
      path: `areas/${area.nodeid}`,
      body: updateAreaSchema.parse({ lang: 'de', areanodeid: area.nodeid, name }),
      kind: 'areas',
      nodeid: area.nodeid,
      values: { name },
    });
  }
  mutations.push(...assignmentMutations({ type: 'area', nodeid: area.nodeid }, input.selection));
  if (input.shifts) mutations.push(shiftPlanMutation(area.nodeid, area.shiftmodelnodeid, input.shifts));
  if (mutations.length > 0) await enqueueMutation(context, mutations);
}

/** Deletes the area; its machines stay, unlinked (the server unlinks them; the screens treat the link as gone). */
export async function deleteArea(context: WriteContext, areanodeid: string): Promise<void> {
  await enqueueMutation(context, {
    action: 'deleteArea',
    method: 'DELETE',
    path: `areas/${areanodeid}`,
    body: { areanodeid },
    kind: 'areas',
    nodeid: areanodeid,
    values: { [PENDING_DELETE]: true },
  });
}
