import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pullQuerySchema, pullResponseSchema } from '../../../shared/api/sync';
import { resolveSyncClient } from '../../plugins/mutation-log';
import { pullChanges } from '../../services/sync-service';
import { errorResponses } from '../responses';

/** The offline mirror's delta sync (docs/sync.md § Pull). */
const syncRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/sync/pull', {
    // why 'authenticated': a device mirrors what its user may read; the feed is filtered per kind by the user's
    // read permissions in pullChanges (SYNC_KIND_FEATURES), tenant scope as everywhere.
    config: { permission: 'authenticated' },
    schema: {
      tags: ['sync'],
      summary: 'Changes since a cursor, for the offline mirror (X-Client-Id required)',
      querystring: pullQuerySchema,
      response: { 200: pullResponseSchema, ...errorResponses(400, 401, 403) },
    },
    handler: async (request) => {
      const clientid = await resolveSyncClient(request, true);
      return pullChanges(request.serviceContext, request.auth, { clientid, cursor: request.query.cursor, limit: request.query.limit });
    },
  });
};

export default syncRoutes;
