import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createSiteSchema, deleteSiteResultSchema, deleteSiteSchema, siteSchema, updateSiteSchema } from '../../../shared/api/sites';
import { badRequest } from '../../http-errors';
import { createSite, deleteSite, getSite, listSites, updateSite } from '../../services/site-service';
import { errorResponses, langQuerySchema, nodeidParamsSchema } from '../responses';

/** Plants (Werke), spec part 2 §2.5, §3, §7; feature key `site`. */
const siteRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/sites', {
    config: { permission: { feature: 'site', flag: 'read' } },
    schema: {
      tags: ['sites'],
      summary: "The organisation's plants with their areas, by name",
      querystring: langQuerySchema,
      response: { 200: z.array(siteSchema), ...errorResponses(400, 401, 403) },
    },
    handler: (request) => listSites(request.serviceContext, request.auth),
  });

  app.get('/sites/:id', {
    config: { permission: { feature: 'site', flag: 'read' } },
    schema: {
      tags: ['sites'],
      summary: 'One plant',
      params: nodeidParamsSchema,
      querystring: langQuerySchema,
      response: { 200: siteSchema, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => getSite(request.serviceContext, request.auth, request.params.id),
  });

  app.post('/sites', {
    config: { permission: { feature: 'site', flag: 'create' } },
    schema: {
      tags: ['sites'],
      summary: 'Create a plant (createSite)',
      body: createSiteSchema,
      response: { 201: siteSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: async (request, reply) => reply.code(201).send(await createSite(request.serviceContext, request.auth, request.body)),
  });

  app.put('/sites/:id', {
    config: { permission: { feature: 'site', flag: 'update' } },
    schema: {
      tags: ['sites'],
      summary: 'Change a plant (updateSite); only the fields sent change',
      params: nodeidParamsSchema,
      body: updateSiteSchema,
      response: { 200: siteSchema, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => updateSite(request.serviceContext, request.auth, request.params.id, request.body),
  });

  app.delete('/sites/:id', {
    config: { permission: { feature: 'site', flag: 'delete' } },
    schema: {
      tags: ['sites'],
      summary: 'Delete a plant with its areas (deleteSite); its machines stay, unlinked',
      params: nodeidParamsSchema,
      body: deleteSiteSchema,
      response: { 200: deleteSiteResultSchema, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const sitenodeid = request.body?.sitenodeid;
      if (sitenodeid !== undefined && sitenodeid !== request.params.id) {
        throw badRequest('sitenodeid does not match the path', [{ field: 'sitenodeid', message: 'Must equal the id in the path' }]);
      }
      return deleteSite(request.serviceContext, request.auth, request.params.id);
    },
  });
};

export default siteRoutes;
