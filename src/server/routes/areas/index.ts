import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { areaSchema, createAreaSchema, deleteAreaSchema, updateAreaSchema } from '../../../shared/api/areas';
import { deleteResultSchema } from '../../../shared/api/fields';
import { createArea, deleteArea, getArea, listAreas, updateArea } from '../../services/area-service';
import { assertBodyIdMatches } from '../../services/structure-common';
import { errorResponses, langQuerySchema, nodeidParamsSchema } from '../responses';

/** Areas (Bereiche), spec part 2 §2.3, §7; feature key `site`: an area is part of its plant. */
const areaRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/areas', {
    config: { permission: { feature: 'site', flag: 'read' } },
    schema: { tags: ['areas'], summary: "The organisation's areas with their machines and shift plans", querystring: langQuerySchema, response: { 200: z.array(areaSchema), ...errorResponses(400, 401, 403) } },
    handler: (request) => listAreas(request.serviceContext.db, request.auth),
  });

  app.get('/areas/:id', {
    config: { permission: { feature: 'site', flag: 'read' } },
    schema: { tags: ['areas'], summary: 'One area', params: nodeidParamsSchema, querystring: langQuerySchema, response: { 200: areaSchema, ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => getArea(request.serviceContext.db, request.auth, request.params.id),
  });

  app.post('/areas', {
    config: { permission: { feature: 'site', flag: 'create' } },
    schema: {
      tags: ['areas'],
      summary: 'Create an area (create area), optionally with shifts, moved-in machines and the creator’s subscription',
      body: createAreaSchema,
      response: { 201: areaSchema, ...errorResponses(400, 401, 403, 404, 409, 410) },
    },
    handler: async (request, reply) => reply.code(201).send(await createArea(request.serviceContext, request.auth, request.body)),
  });

  app.put('/areas/:id', {
    config: { permission: { feature: 'site', flag: 'update' } },
    schema: { tags: ['areas'], summary: 'Rename an area; only the fields sent change', params: nodeidParamsSchema, body: updateAreaSchema, response: { 200: areaSchema, ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => {
      assertBodyIdMatches('areanodeid', request.body.areanodeid, request.params.id);
      return updateArea(request.serviceContext, request.auth, request.params.id, request.body);
    },
  });

  app.delete('/areas/:id', {
    config: { permission: { feature: 'site', flag: 'delete' } },
    schema: { tags: ['areas'], summary: 'Delete an area (delete area); its machines stay, unlinked', params: nodeidParamsSchema, body: deleteAreaSchema, response: { 200: deleteResultSchema, ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => {
      assertBodyIdMatches('areanodeid', request.body?.areanodeid, request.params.id);
      return deleteArea(request.serviceContext, request.auth, request.params.id);
    },
  });
};

export default areaRoutes;
