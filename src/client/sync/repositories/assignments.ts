/**
 * The selection dialog's save (spec part 2 §2.6, §4, §7 "equipment-pool mapping"), offline-first. One outbox entry
 * per machine (`POST /assign/equipments` with a one-item payload), so each entry changes exactly one mirror row:
 * a pull never overwrites a move still waiting, and a refused move restores only that machine.
 */
import { assignEquipmentsSchema, type AssignEquipmentsInput } from '../../../shared/api/assign';
import type { MirrorRow } from '../../db/local-db';
import type { MutationRequest } from '../outbox';

export type AssignTargetType = 'area' | 'pool';

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

/** The mirror field holding a machine's link of that type. */
export const LINK_FIELD: Record<AssignTargetType, 'areanodeid' | 'equipmentpoolnodeid'> = { area: 'areanodeid', pool: 'equipmentpoolnodeid' };

/**
 * Moves for a saved selection: `added` machines are linked to the target (their old link of the same type is
 * removed: a machine is in at most one area and one pool), `removed` ones lose their link to the target.
 */
export function assignmentMutations(target: AssignTarget, { added, removed, machines }: SelectionSave): MutationRequest[] {
  const field = LINK_FIELD[target.type];
  const mutation = (equipmentnodeid: string, payload: AssignEquipmentsInput['payload'][number], linkedTo: string | null): MutationRequest => ({
    action: 'assignEquipment',
    method: 'POST',
    path: 'assign/equipments',
    body: assignEquipmentsSchema.parse({ payload: [payload] }),
    kind: 'equipment',
    nodeid: equipmentnodeid,
    values: { [field]: linkedTo },
  });
  const moves = added.map((equipmentnodeid) => {
    const old = machines.get(equipmentnodeid)?.[field];
    const deleteequipmentof = typeof old === 'string' && old !== target.nodeid ? [{ type: target.type, nodeid: old }] : [];
    return mutation(equipmentnodeid, { equipmentnodeid, isequipmentof: target.nodeid, deleteequipmentof }, target.nodeid);
  });
  const removals = removed.map((equipmentnodeid) => mutation(equipmentnodeid, { equipmentnodeid, isequipmentof: null, deleteequipmentof: [{ type: target.type, nodeid: target.nodeid }] }, null));
  return [...moves, ...removals];
}
