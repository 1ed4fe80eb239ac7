/**
 * The selection dialog's save (spec part 2 §2.6, §4, §7 "equipment-pool mapping"), offline-first (declaration:
 * src/shared/mutations/structure.ts assignEquipment). One outbox entry per machine (`POST /assign/equipments` with
 * a one-item payload), so each entry changes exactly one mirror row: a pull never overwrites a move still waiting,
 * and a refused move restores only that machine.
 */
import type { AssignItemInput } from '../../../shared/api/assign';
import { LINK_FIELD, type LinkType } from '../../../shared/domain/assignment';
import { assignEquipment } from '../../../shared/mutations/structure';
import type { MirrorRow } from '../../db/local-db';
import { mutationStep } from '../mutate';
import type { MutationRequest } from '../outbox';

export type AssignTargetType = LinkType;

/** What a form's selection dialog changed, with the machines' current mirror rows (their old links). */
export interface SelectionSave {
  added: readonly string[];
  removed: readonly string[];
  machines: ReadonlyMap<string, MirrorRow>;
}

export interface AssignTarget {
  type: AssignTargetType;
  nodeid: string;
}

/**
 * Moves for a saved selection: `added` machines are linked to the target (their old link of the same type is
 * removed: a machine is in at most one area and one pool), `removed` ones lose their link to the target.
 */
export function assignmentMutations(target: AssignTarget, { added, removed, machines }: SelectionSave): MutationRequest[] {
  const field = LINK_FIELD[target.type];
  const step = (item: AssignItemInput, values: Record<string, unknown> = {}) => mutationStep(assignEquipment, { params: {}, body: { payload: [item] } }, { values });
  const moves = added.map((equipmentnodeid) => {
    const old = machines.get(equipmentnodeid)?.[field];
    const deleteequipmentof = typeof old === 'string' && old !== target.nodeid ? [{ type: target.type, nodeid: old }] : [];
    // The new link: the payload's `isequipmentof` does not say whether it is an area or a pool, the form does.
    return step({ equipmentnodeid, isequipmentof: target.nodeid, deleteequipmentof }, { [field]: target.nodeid });
  });
  const removals = removed.map((equipmentnodeid) => step({ equipmentnodeid, isequipmentof: null, deleteequipmentof: [{ type: target.type, nodeid: target.nodeid }] }));
  return [...moves, ...removals];
}
