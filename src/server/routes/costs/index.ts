import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { costTypeSchema, costUnitSchema } from '../../../shared/api/costs';
import { SYNC_KIND_FEATURES } from '../../../shared/api/sync';
import { createCost as createCostDeclaration, updateCost as updateCostDeclaration } from '../../../shared/mutations/costs';
import { createCost, listCostTypes, listUnits, updateCost } from '../../services/cost-service';
import { writeRoute } from '../declared-route';
import { errorResponses, langQuerySchema } from '../responses';

/**
 * Effort and costs, spec part 1 §2.2, §3, §5, §7; feature key `notification.cost`. The effort tab reads costs,
 * cost types and units from the pull (kinds `costs`, `costtypes`, `units`); these reads serve plain API clients.
 */
const costRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/costtypes', {
    // why reads: cost types are the pull's `costtypes`, which also need `notification` read.
    config: { permission: { feature: 'notification.cost', flag: 'read' }, reads: SYNC_KIND_FEATURES.costtypes },
    schema: {
      tags: ['costs'],
      summary: "The organisation's cost types (the standard ones with their key) with their units, names in lang",
      querystring: langQuerySchema,
      response: { 200: z.array(costTypeSchema), ...errorResponses(400, 401, 403) },
    },
    handler: (request) => listCostTypes(request.serviceContext, request.auth, request.query.lang),
  });

  app.get('/units', {
    // why any signed-in user: units are reference data every device gets in the pull (counters use them too).
    config: { permission: 'authenticated' },
    schema: {
      tags: ['costs'],
      summary: 'The units of measure (EUR, hours, …) with their names in lang',
      querystring: langQuerySchema,
      response: { 200: z.array(costUnitSchema), ...errorResponses(400, 401) },
    },
    handler: (request) => listUnits(request.serviceContext, request.query.lang),
  });

  writeRoute(app, createCostDeclaration, {
    tags: ['costs'],
    summary: 'Book a cost on a notification, report or maintenance task; the same nodeid again answers the cost it made',
    status: 201,
    errors: [400, 401, 403, 404, 409, 410],
    handler: (context, actor, { body }) => createCost(context, actor, body),
  });

  writeRoute(app, updateCostDeclaration, {
    tags: ['costs'],
    summary: 'Change a cost (value, name, type, specifier); only the fields sent change',
    errors: [400, 401, 403, 404, 409],
    bodyId: 'nodeid',
    handler: (context, actor, { params, body }) => updateCost(context, actor, params.id, body),
  });
};

export default costRoutes;
