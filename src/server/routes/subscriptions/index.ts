import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createSubscriptionSchema, deleteSubscriptionResultSchema, subscriptionSchema, subscriptionsQuerySchema } from '../../../shared/api/subscriptions';
import { createSubscription, deleteSubscription, listSubscriptions } from '../../services/subscription-service';
import { errorResponses, nodeidParamsSchema } from '../responses';

/**
 * Subscriptions (`issubscriberof`, spec part 2 §1, §3): which plants, areas and pools a user's dashboard shows.
 * Signed-in users manage their own; another user's need the `user` update permission (checked in the service).
 */
const subscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/subscriptions', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['subscriptions'],
      summary: "A user's subscriptions (default: the caller's)",
      querystring: subscriptionsQuerySchema,
      response: { 200: z.array(subscriptionSchema), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => listSubscriptions(request.serviceContext, request.auth, request.query.usernodeid),
  });

  app.post('/subscriptions', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['subscriptions'],
      summary: 'Follow a plant, an area or an equipment pool; following it again answers the existing entry',
      body: createSubscriptionSchema,
      response: { 200: subscriptionSchema, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => createSubscription(request.serviceContext, request.auth, request.body),
  });

  app.delete('/subscriptions/:id', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['subscriptions'],
      summary: 'Stop following; an entry that is gone already answers deleted: false',
      params: nodeidParamsSchema,
      response: { 200: deleteSubscriptionResultSchema, ...errorResponses(400, 401, 403) },
    },
    handler: (request) => deleteSubscription(request.serviceContext, request.auth, request.params.id),
  });
};

export default subscriptionRoutes;
