import { z } from 'zod';
import { createSubscriptionSchema, type CreateSubscription } from '../api/subscriptions';
import { subscriptionRecord, subscriptionTarget, type SubscriptionRecord } from '../domain/subscription';
import type { SubscriptionRow } from '../rows/structure';
import { defineDelete, defineMutation, idParams, noParams, type DescribeSpec } from './mutation';

/**
 * What a user's dashboard shows (`issubscriberof`, spec part 2 §1, §3): one entry per plant, area or pool followed.
 * The entry's id is derived from user and target (subscriptionNodeId), so the row a device writes offline is the
 * row the server stores, whichever device was first. Own entries need no feature; another user's need `user`
 * update, which the service checks (it depends on whose entry it is).
 */

/** The plant, area or pool an entry follows: the sync panel names the entry after it. */
const followed: DescribeSpec<unknown, unknown> = {
  subject: (_args, row) => {
    if (typeof row.sitenodeid === 'string') return { kind: 'sites', nodeid: row.sitenodeid };
    if (typeof row.areanodeid === 'string') return { kind: 'areas', nodeid: row.areanodeid };
    if (typeof row.equipmentpoolnodeid === 'string') return { kind: 'equipmentpools', nodeid: row.equipmentpoolnodeid };
    return undefined;
  },
};

function recordOf(body: CreateSubscription): SubscriptionRecord {
  // The body schema admits exactly one target.
  const target = subscriptionTarget({ sitenodeid: body.sitenodeid ?? null, areanodeid: body.areanodeid ?? null, equipmentpoolnodeid: body.equipmentpoolnodeid ?? null })!;
  return subscriptionRecord(body.usernodeid, target);
}

/** Follow a plant, an area or a pool; following it again answers the entry it has. */
export const followStructure = defineMutation({
  name: 'followStructure',
  method: 'POST',
  route: '/subscriptions',
  params: noParams,
  body: createSubscriptionSchema,
  permission: 'authenticated',
  kind: 'subscriptions',
  creates: true,
  target: ({ body }) => recordOf(body).nodeid,
  apply: (_current, { body }): Omit<SubscriptionRow, 'nodeid' | 'legalentitynodeid' | 'version'> => {
    const { nodeid: _nodeid, ...fields } = recordOf(body);
    return fields;
  },
  describe: followed,
});

/** Stop following; an entry that is gone already (its target was deleted meanwhile) is no error. */
export const unfollowStructure = defineDelete({
  name: 'unfollowStructure',
  route: '/subscriptions/:id',
  params: idParams,
  // The call has no body; a device sends none.
  body: z.object({}).nullish(),
  permission: 'authenticated',
  kind: 'subscriptions',
  describe: followed,
});

export const subscriptionMutations = [followStructure, unfollowStructure] as const;
