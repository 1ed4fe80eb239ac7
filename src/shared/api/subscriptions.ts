import { z } from 'zod';

/**
 * A user's subscriptions (`issubscriberof`, spec part 2 §3): what appears on their dashboard. One entry per
 * request, so each outbox entry changes one mirror row (docs/decisions.md "Subscriptions: one route per
 * entry"). The entry's id is derived from user and target (subscriptionNodeId), so a device offline writes the
 * row the server will store.
 *
 * POST /api/subscriptions follows a site, an area or a pool; following it again answers the existing entry.
 * DELETE /api/subscriptions/{nodeid} ends one; an entry that is gone already (its area was deleted meanwhile) is
 * not an error. Own subscriptions need no feature permission; another user's need `user` update.
 */
export const createSubscriptionSchema = z
  .object({
    usernodeid: z.uuid(),
    sitenodeid: z.uuid().nullish(),
    areanodeid: z.uuid().nullish(),
    equipmentpoolnodeid: z.uuid().nullish(),
  })
  .refine((body) => [body.sitenodeid, body.areanodeid, body.equipmentpoolnodeid].filter(Boolean).length === 1, {
    error: 'Exactly one of sitenodeid, areanodeid and equipmentpoolnodeid is required',
    path: ['sitenodeid'],
  });
export type CreateSubscription = z.output<typeof createSubscriptionSchema>;

export const subscriptionSchema = z.object({
  nodeid: z.uuid(),
  usernodeid: z.uuid(),
  sitenodeid: z.uuid().nullable(),
  areanodeid: z.uuid().nullable(),
  equipmentpoolnodeid: z.uuid().nullable(),
  /** The change version of the entry (the device's mirror takes it from the answer). */
  version: z.number().int(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

/** GET /api/subscriptions?usernodeid — one user's entries (default: the caller's). */
export const subscriptionsQuerySchema = z.object({ usernodeid: z.uuid().optional() });
