import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { subscriptionSchema, subscriptionsQuerySchema } from '../../../shared/api/subscriptions';
import { followStructure, unfollowStructure } from '../../../shared/mutations/subscriptions';
import * as service from '../../services/subscription-service';
import { writeRoute } from '../declared-route';
import { errorResponses } from '../responses';

/**
 * Subscriptions (`issubscriberof`, spec part 2 §1, §3): which plants, areas and pools a user's dashboard shows.
 * Signed-in users manage their own; another user's need the `user` update permission (checked in the service).
 * The writes come from their declarations (src/shared/mutations/subscriptions.ts).
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
    handler: (request) => service.listSubscriptions(request.serviceContext, request.auth, request.query.usernodeid),
  });

  writeRoute(app, followStructure, {
    tags: ['subscriptions'],
    summary: 'Follow a plant, an area or an equipment pool; following it again answers the existing entry (the entry’s row)',
    errors: [400, 401, 403, 404],
    handler: (context, actor, { body }) => service.createSubscription(context, actor, body),
  });

  writeRoute(app, unfollowStructure, {
    tags: ['subscriptions'],
    summary: 'Stop following; an entry that is gone already is no error and answers the version of the delete that ended it; an id the tenant never had is 404',
    errors: [400, 401, 403, 404],
    handler: (context, actor, { params }) => service.deleteSubscription(context, actor, params.id),
  });
};

export default subscriptionRoutes;
