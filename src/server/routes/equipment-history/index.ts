import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { historyQuerySchema, historySchema } from '../../../shared/api/history';
import * as service from '../../services/history-service';
import { errorResponses, nodeidParamsSchema } from '../responses';

/**
 * A machine's history (spec part 1 §2.1 history tab), for clients that do not keep a mirror (reports, integrations):
 * the tablet filters its own mirror with the same rules and needs no call. Reading notifications needs `notification`
 * read, as for the notifications themselves.
 */
const equipmentHistoryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/equipments/:id/history', {
    config: { permission: { feature: 'notification', flag: 'read' } },
    schema: {
      tags: ['equipments'],
      summary: "A machine's notifications, filtered by type (not 3, 4, 5), status and a date range (YYYY-MM-DD, whole days), newest first",
      params: nodeidParamsSchema,
      querystring: historyQuerySchema,
      response: { 200: historySchema, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => service.machineHistory(request.serviceContext, request.auth, request.params.id, request.query),
  });
};

export default equipmentHistoryRoutes;
