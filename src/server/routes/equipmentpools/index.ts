import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createPoolSchema, deletePoolSchema, listPoolsQuerySchema, poolSchema, updatePoolSchema } from '../../../shared/api/equipmentpools';
import { deleteResultSchema } from '../../../shared/api/fields';
import { createPool, deletePool, getPool, listPools, updatePool } from '../../services/pool-service';
import { assertBodyIdMatches } from '../../services/structure-common';
import { errorResponses, langQuerySchema, nodeidParamsSchema } from '../responses';

/** Equipment pools, spec part 2 §2.4, §7; feature key `equipmentpool`. */
const poolRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/equipmentpools', {
    config: { permission: { feature: 'equipmentpool', flag: 'read' } },
    schema: {
      tags: ['equipmentpools'],
      summary: 'Pools with their machines; with usernodeid only the pools that user subscribes to',
      querystring: listPoolsQuerySchema,
      response: { 200: z.array(poolSchema), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => listPools(request.serviceContext.db, request.auth, request.query.lang, request.query.usernodeid),
  });

  app.get('/equipmentpools/:id', {
    config: { permission: { feature: 'equipmentpool', flag: 'read' } },
    schema: { tags: ['equipmentpools'], summary: 'One pool', params: nodeidParamsSchema, querystring: langQuerySchema, response: { 200: poolSchema, ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => getPool(request.serviceContext.db, request.auth, request.params.id, request.query.lang),
  });

  app.post('/equipmentpools', {
    config: { permission: { feature: 'equipmentpool', flag: 'create' } },
    schema: { tags: ['equipmentpools'], summary: 'Create a pool (create pool), optionally moving machines into it', body: createPoolSchema, response: { 201: poolSchema, ...errorResponses(400, 401, 403, 404, 409, 410) } },
    handler: async (request, reply) => reply.code(201).send(await createPool(request.serviceContext, request.auth, request.body)),
  });

  app.put('/equipmentpools/:id', {
    config: { permission: { feature: 'equipmentpool', flag: 'update' } },
    schema: { tags: ['equipmentpools'], summary: 'Rename a pool in one language (update pool)', params: nodeidParamsSchema, body: updatePoolSchema, response: { 200: poolSchema, ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => {
      assertBodyIdMatches('equipmentpoolnodeid', request.body.equipmentpoolnodeid, request.params.id);
      return updatePool(request.serviceContext, request.auth, request.params.id, request.body);
    },
  });

  app.delete('/equipmentpools/:id', {
    config: { permission: { feature: 'equipmentpool', flag: 'delete' } },
    schema: { tags: ['equipmentpools'], summary: 'Delete a pool (delete pool); its machines stay, unlinked', params: nodeidParamsSchema, body: deletePoolSchema, response: { 200: deleteResultSchema, ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => {
      assertBodyIdMatches('equipmentpoolnodeid', request.body?.equipmentpoolnodeid, request.params.id);
      return deletePool(request.serviceContext, request.auth, request.params.id);
    },
  });
};

export default poolRoutes;
