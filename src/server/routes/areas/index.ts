import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { areaSchema } from '../../../shared/api/areas';
import { createArea, deleteArea, updateArea } from '../../../shared/mutations/structure';
import * as service from '../../services/area-service';
import { writeRoute } from '../declared-route';
import { errorResponses, langQuerySchema, nodeidParamsSchema } from '../responses';

/**
 * Areas (Bereiche), spec part 2 §2.3, §7; feature key `site`: an area is part of its plant. The writes come from
 * their declarations (src/shared/mutations/structure.ts) and answer the area's row.
 */
const areaRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/areas', {
    config: { permission: { feature: 'site', flag: 'read' } },
    schema: { tags: ['areas'], summary: "The organisation's areas with their machines and shift plans", querystring: langQuerySchema, response: { 200: z.array(areaSchema), ...errorResponses(400, 401, 403) } },
    handler: (request) => service.listAreas(request.serviceContext.db, request.auth),
  });

  app.get('/areas/:id', {
    config: { permission: { feature: 'site', flag: 'read' } },
    schema: { tags: ['areas'], summary: 'One area', params: nodeidParamsSchema, querystring: langQuerySchema, response: { 200: areaSchema, ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => service.getArea(request.serviceContext.db, request.auth, request.params.id),
  });

  writeRoute(app, createArea, {
    tags: ['areas'],
    summary: 'Create an area (create area), optionally with shifts, moved-in machines and the creator’s subscription; answers the area’s row (its machines and plan: GET /api/areas/{id})',
    status: 201,
    errors: [400, 401, 403, 404, 409, 410],
    handler: service.createArea,
  });

  writeRoute(app, updateArea, {
    tags: ['areas'],
    summary: 'Rename an area; only the fields sent change',
    errors: [400, 401, 403, 404],
    bodyId: 'areanodeid',
    handler: service.updateArea,
  });

  writeRoute(app, deleteArea, {
    tags: ['areas'],
    summary: 'Delete an area (delete area); its machines stay, unlinked',
    errors: [400, 401, 403, 404],
    bodyId: 'areanodeid',
    handler: (context, actor, { params }) => service.deleteArea(context, actor, params.id),
  });
};

export default areaRoutes;
