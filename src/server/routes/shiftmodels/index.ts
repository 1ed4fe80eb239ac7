import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deleteResultSchema } from '../../../shared/api/fields';
import { deleteShiftModelSchema, shiftModelSchema } from '../../../shared/api/shiftmodels';
import { createShifts, updateShifts } from '../../../shared/mutations/structure';
import * as service from '../../services/shiftmodel-service';
import { assertBodyIdMatches } from '../../services/structure-common';
import { writeRoute } from '../declared-route';
import { errorResponses, nodeidParamsSchema } from '../responses';

/**
 * Shift plans, spec part 2 §2.7, §7 "shiftmodel POST, PUT (shifts only), DELETE". The flag needed depends on the
 * owner (an area's plan: `site` update; a machine's: `equipment` update), so the service checks it; the route
 * only requires a signed-in caller. POST and PUT come from their declarations (src/shared/mutations/structure.ts)
 * and answer the plan's row; the plan's rows are rows of their own (`shifts` in the change feed).
 */
const shiftModelRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/shiftmodels/:id', {
    config: { permission: { feature: 'equipment', flag: 'read' } },
    schema: { tags: ['shiftmodels'], summary: 'One shift plan with its rows', params: nodeidParamsSchema, response: { 200: shiftModelSchema, ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => service.getShiftModel(request.serviceContext.db, request.auth, request.params.id),
  });

  writeRoute(app, createShifts, {
    tags: ['shiftmodels'],
    summary: 'Create the shift plan of an area or machine (replaces its old one); answers the plan’s row (its rows: GET /api/shiftmodels/{id})',
    status: 201,
    errors: [400, 401, 403, 404, 409, 410],
    handler: (context, actor, { body }) => service.createShiftModel(context, actor, body),
  });

  writeRoute(app, updateShifts, {
    tags: ['shiftmodels'],
    summary: 'Replace the rows of a shift plan (shifts only); answers the plan’s row (its rows: GET /api/shiftmodels/{id})',
    errors: [400, 401, 403, 404],
    bodyId: 'shiftnodeid',
    handler: (context, actor, { params, body }) => service.updateShiftModel(context, actor, params.id, body),
  });

  app.delete('/shiftmodels/:id', {
    config: { permission: 'authenticated' },
    schema: { tags: ['shiftmodels'], summary: 'Delete a shift plan; its area or machine stays without one', params: nodeidParamsSchema, body: deleteShiftModelSchema, response: { 200: deleteResultSchema, ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => {
      assertBodyIdMatches('shiftnodeid', request.body?.shiftnodeid, request.params.id);
      return service.deleteShiftModel(request.serviceContext, request.auth, request.params.id);
    },
  });
};

export default shiftModelRoutes;
