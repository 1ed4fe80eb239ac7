import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { siteSchema } from '../../../shared/api/sites';
import { createSite, deleteSite, updateSite } from '../../../shared/mutations/structure';
import * as service from '../../services/site-service';
import { writeRoute } from '../declared-route';
import { errorResponses, langQuerySchema, nodeidParamsSchema } from '../responses';
import { versionedAnswer } from '../versioned-answer';

/**
 * Plants (Werke), spec part 2 §2.5, §3, §7; feature key `site`. The writes come from their declarations
 * (src/shared/mutations/structure.ts) and answer the plant's row.
 */
const siteRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/sites', {
    config: { permission: { feature: 'site', flag: 'read' } },
    schema: {
      tags: ['sites'],
      summary: "The organisation's plants with their areas, by name",
      querystring: langQuerySchema,
      response: { 200: z.array(siteSchema), ...errorResponses(400, 401, 403) },
    },
    // Kept per tenant change state (routes/versioned-answer.ts): the list has no text in the caller's language.
    handler: (request, reply) => versionedAnswer(request, reply, [], () => service.listSites(request.serviceContext, request.auth)),
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
    handler: (request) => service.getSite(request.serviceContext, request.auth, request.params.id),
  });

  writeRoute(app, createSite, {
    tags: ['sites'],
    summary: 'Create a plant (createSite)',
    status: 201,
    errors: [400, 401, 403, 404, 409, 410],
    handler: service.createSite,
  });

  writeRoute(app, updateSite, {
    tags: ['sites'],
    summary: 'Change a plant (updateSite); only the fields sent change',
    errors: [400, 401, 403, 404],
    bodyId: 'sitenodeid',
    handler: service.updateSite,
  });

  writeRoute(app, deleteSite, {
    tags: ['sites'],
    summary: 'Delete a plant with its areas (deleteSite); its machines stay, unlinked',
    errors: [400, 401, 403, 404],
    bodyId: 'sitenodeid',
    handler: (context, actor, { params }) => service.deleteSite(context, actor, params.id),
  });
};

export default siteRoutes;
