import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listPoolsQuerySchema, poolSchema } from '../../../shared/api/equipmentpools';
import { createPool, deletePool, updatePool } from '../../../shared/mutations/structure';
import * as service from '../../services/pool-service';
import { writeRoute } from '../declared-route';
import { errorResponses, langQuerySchema, nodeidParamsSchema } from '../responses';

/**
 * Equipment pools, spec part 2 §2.4, §7; feature key `equipmentpool`. The writes come from their declarations
 * (src/shared/mutations/structure.ts) and answer the pool's row (the name in every language).
 */
const poolRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/equipmentpools', {
    config: { permission: { feature: 'equipmentpool', flag: 'read' } },
    schema: {
      tags: ['equipmentpools'],
      summary: 'Pools with their machines; with usernodeid only the pools that user subscribes to',
      querystring: listPoolsQuerySchema,
      response: { 200: z.array(poolSchema), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => service.listPools(request.serviceContext.db, request.auth, request.query.lang, request.query.usernodeid),
  });

  app.get('/equipmentpools/:id', {
    config: { permission: { feature: 'equipmentpool', flag: 'read' } },
    schema: { tags: ['equipmentpools'], summary: 'One pool', params: nodeidParamsSchema, querystring: langQuerySchema, response: { 200: poolSchema, ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => service.getPool(request.serviceContext.db, request.auth, request.params.id, request.query.lang),
  });

  writeRoute(app, createPool, {
    tags: ['equipmentpools'],
    summary: 'Create a pool (create pool), optionally moving machines into it; answers the pool’s row (its machines: GET /api/equipmentpools/{id})',
    status: 201,
    errors: [400, 401, 403, 404, 409, 410],
    handler: service.createPool,
  });

  writeRoute(app, updatePool, {
    tags: ['equipmentpools'],
    summary: 'Rename a pool in one language (update pool)',
    errors: [400, 401, 403, 404],
    bodyId: 'equipmentpoolnodeid',
    handler: service.updatePool,
  });

  writeRoute(app, deletePool, {
    tags: ['equipmentpools'],
    summary: 'Delete a pool (delete pool); its machines stay, unlinked',
    errors: [400, 401, 403, 404],
    bodyId: 'equipmentpoolnodeid',
    handler: (context, actor, { params }) => service.deletePool(context, actor, params.id),
  });
};

export default poolRoutes;
