import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pullQuerySchema, pullResponseSchema } from '../../../shared/api/sync';
import { resolveSyncClient, syncClientIdOf } from '../../plugins/mutation-log';
import { pullChanges, readPullHead, upToDateAnswer } from '../../services/sync-service';
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
    handler: async (request, reply) => {
      // why no zod serializer for this answer: it would parse the whole page (thousands of rows) on every pull,
      // a seventh of a full pull's CPU. The answer is built from the row shapes field by field (sync-service
      // rowData); tests/api/sync-row-shapes.test.ts checks it against pullResponseSchema, which stays the
      // documented schema.
      reply.serializer(JSON.stringify);
      const { cursor, limit } = request.query;
      // The head check first (one statement): a device that is up to date gets its empty page from it alone, and
      // a device already registered to this user is not registered again (docs/sync.md § The head check).
      const clientid = syncClientIdOf(request, true);
      const head = await readPullHead(request.serviceContext.db, request.auth.legalentitynodeid, clientid);
      if (head.clientUser !== request.auth.usernodeid) await resolveSyncClient(request, true);
      return upToDateAnswer(request.auth, head, cursor) ?? pullChanges(request.serviceContext, request.auth, { clientid, cursor, limit });
    },
  });
};

export default syncRoutes;
