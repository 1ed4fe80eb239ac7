/**
 * Equipment pools, offline-first (spec part 2 §2.4, §7 "create pool {lang, name, isequipmentpoolof,
 * assign.payload}; update pool {lang, name, equipmentpoolnodeid}; delete pool {equipmentpoolnodeid}").
 * The pool and its machine moves are written together, the pool first.
 */
import { createPoolSchema, updatePoolSchema } from '../../../shared/api/equipmentpools';
import { PENDING_DELETE } from '../mirror-fields';
import { enqueueMutation, newNodeId, type MutationRequest, type WriteContext } from '../outbox';
import { assignmentMutations, type SelectionSave } from './assignments';
import { creatorFollows } from './subscriptions';

/** Pool names are localised ({de, en}); the app writes them under `lang` de, as every call of the spec does. */
const LANG = 'de';

function localizedName(current: unknown, name: string): Record<string, string> {
  const names = current && typeof current === 'object' ? (current as Record<string, string>) : {};
  return { ...names, [LANG]: name };
}

export async function createPool(context: WriteContext, input: { legalentitynodeid: string; name: string; selection: SelectionSave }): Promise<string> {
  const nodeid = newNodeId();
  const body = createPoolSchema.parse({ lang: LANG, nodeid, name: input.name, isequipmentpoolof: input.legalentitynodeid });
  const create: MutationRequest = { action: 'createPool', method: 'POST', path: 'equipmentpools', body, kind: 'equipmentpools', nodeid, values: { name: localizedName(null, body.name) }, creates: true };
  // The creator follows the new pool, so it appears on their dashboard (docs/decisions.md).
  const follow = await creatorFollows(context, { type: 'equipmentpool', nodeid });
  await enqueueMutation(context, [create, ...assignmentMutations({ type: 'pool', nodeid }, input.selection), ...follow]);
  return nodeid;
}

export async function updatePool(context: WriteContext, pool: { nodeid: string; name: string; storedName: unknown }, input: { name: string; selection: SelectionSave }): Promise<void> {
  const mutations: MutationRequest[] = [];
  const name = input.name.trim();
  if (name !== pool.name) {
    mutations.push({
      action: 'updatePool',
      method: 'PUT',
      path: `equipmentpools/${pool.nodeid}`,
      body: updatePoolSchema.parse({ lang: LANG, equipmentpoolnodeid: pool.nodeid, name }),
      kind: 'equipmentpools',
      nodeid: pool.nodeid,
      values: { name: localizedName(pool.storedName, name) },
    });
  }
  mutations.push(...assignmentMutations({ type: 'pool', nodeid: pool.nodeid }, input.selection));
  if (mutations.length > 0) await enqueueMutation(context, mutations);
}

export async function deletePool(context: WriteContext, equipmentpoolnodeid: string): Promise<void> {
  await enqueueMutation(context, {
    action: 'deletePool',
    method: 'DELETE',
    path: `equipmentpools/${equipmentpoolnodeid}`,
    body: { equipmentpoolnodeid },
    kind: 'equipmentpools',
    nodeid: equipmentpoolnodeid,
    values: { [PENDING_DELETE]: true },
  });
}
