/**
 * Equipment pools, offline-first (declarations: src/shared/mutations/structure.ts createPool, updatePool,
 * deletePool). The pool and its machine moves are written together, the pool first.
 */
import { createPool as createPoolMutation, deletePool as deletePoolMutation, updatePool as updatePoolMutation } from '../../../shared/mutations/structure';
import { mutate, mutateAll, mutationStep } from '../mutate';
import { newNodeId, type MutationRequest, type WriteContext } from '../outbox';
import { assignmentMutations, type SelectionSave } from './assignments';
import { creatorFollows } from './subscriptions';

/** Pool names are localised ({de, en}); the app writes them under `lang` de, as every call of the spec does. */
const LANG = 'de';

export async function createPool(context: WriteContext, input: { legalentitynodeid: string; name: string; selection: SelectionSave }): Promise<string> {
  const nodeid = newNodeId();
  const create = mutationStep(createPoolMutation, { params: {}, body: { lang: LANG, nodeid, name: input.name, isequipmentpoolof: input.legalentitynodeid } });
  // The creator follows the new pool, so it appears on their dashboard (docs/decisions.md).
  const follow = await creatorFollows(context, { type: 'equipmentpool', nodeid });
  await mutateAll(context, [create, ...assignmentMutations({ type: 'pool', nodeid }, input.selection), ...follow]);
  return nodeid;
}

/**
 * The rename (when the name changed) and the machine moves. `pool.name` is the name the form was filled with, not
 * the mirror's now: a rename another tab saved meanwhile is not undone by a form whose name field was not touched.
 */
export async function updatePool(context: WriteContext, pool: { nodeid: string; name: string }, input: { name: string; selection: SelectionSave }): Promise<void> {
  const steps: MutationRequest[] = [];
  const name = input.name.trim();
  if (name !== pool.name) steps.push(mutationStep(updatePoolMutation, { params: { id: pool.nodeid }, body: { lang: LANG, equipmentpoolnodeid: pool.nodeid, name } }));
  steps.push(...assignmentMutations({ type: 'pool', nodeid: pool.nodeid }, input.selection));
  if (steps.length > 0) await mutateAll(context, steps);
}

export async function deletePool(context: WriteContext, equipmentpoolnodeid: string): Promise<void> {
  await mutate(context, deletePoolMutation, { params: { id: equipmentpoolnodeid }, body: { equipmentpoolnodeid } });
}
