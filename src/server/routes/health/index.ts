import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '../../http-errors';
import { databaseIsReachable } from '../../services/health-service';
import { errorResponses } from '../responses';

export const healthSchema = z.object({
  status: z.literal('ok'),
  db: z.enum(['pglite', 'postgres']),
  version: z.string(),
});

export interface HealthRouteOptions {
  version: string;
}

/** GET /api/health: for load balancers and the e2e runner; 503 when the database does not answer. */
const healthRoutes: FastifyPluginAsyncZod<HealthRouteOptions> = async (app, options) => {
  app.get('/health', {
    config: { public: true },
    schema: {
      tags: ['system'],
      summary: 'Liveness and database check',
      response: { 200: healthSchema, ...errorResponses(503) },
    },
    handler: async (request) => {
      if (!(await databaseIsReachable(request.serviceContext))) throw new HttpError(503, 'Database unreachable');
      return { status: 'ok' as const, db: app.database.kind, version: options.version };
    },
  });
};

export default healthRoutes;
