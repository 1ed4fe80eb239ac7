import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deleteResultSchema } from '../../../shared/api/fields';
import { createShiftModelSchema, deleteShiftModelSchema, shiftModelSchema, updateShiftModelSchema } from '../../../shared/api/shiftmodels';
import { createShiftModel, deleteShiftModel, getShiftModel, updateShiftModel } from '../../services/shiftmodel-service';
import { assertBodyIdMatches } from '../../services/structure-common';
import { errorResponses, nodeidParamsSchema } from '../responses';

/**
 * Shift plans, spec part 2 §2.7, §7 "shiftmodel POST, PUT (shifts only), DELETE". The flag needed depends on the
 * owner (an area's plan: `site` update; a machine's: `equipment` update), so the service checks it; the route
 * only requires a signed-in caller.
 */
const shiftModelRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/shiftmodels/:id', {
    config: { permission: { feature: 'equipment', flag: 'read' } },
    schema: { tags: ['shiftmodels'], summary: 'One shift plan with its rows', params: nodeidParamsSchema, response: { 200: shiftModelSchema, ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => getShiftModel(request.serviceContext.db, request.auth, request.params.id),
  });

  app.post('/shiftmodels', {
    config: { permission: 'authenticated' },
    schema: { tags: ['shiftmodels'], summary: 'Create the shift plan of an area or machine (replaces its old one)', body: createShiftModelSchema, response: { 201: shiftModelSchema, ...errorResponses(400, 401, 403, 404, 409, 410) } },
    handler: async (request, reply) => reply.code(201).send(await createShiftModel(request.serviceContext, request.auth, request.body)),
  });

  app.put('/shiftmodels/:id', {
    config: { permission: 'authenticated' },
    schema: { tags: ['shiftmodels'], summary: 'Replace the rows of a shift plan (shifts only)', params: nodeidParamsSchema, body: updateShiftModelSchema, response: { 200: shiftModelSchema, ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => {
      assertBodyIdMatches('shiftnodeid', request.body.shiftnodeid, request.params.id);
      return updateShiftModel(request.serviceContext, request.auth, request.params.id, request.body);
    },
  });

  app.delete('/shiftmodels/:id', {
    config: { permission: 'authenticated' },
    schema: { tags: ['shiftmodels'], summary: 'Delete a shift plan; its area or machine stays without one', params: nodeidParamsSchema, body: deleteShiftModelSchema, response: { 200: deleteResultSchema, ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => {
      assertBodyIdMatches('shiftnodeid', request.body?.shiftnodeid, request.params.id);
      return deleteShiftModel(request.serviceContext, request.auth, request.params.id);
    },
  });
};

export default shiftModelRoutes;
