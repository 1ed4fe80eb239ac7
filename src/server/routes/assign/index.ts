import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { assignEquipmentsSchema, assignResultSchema } from '../../../shared/api/assign';
import { assignEquipments } from '../../services/assign-service';
import { errorResponses } from '../responses';

/** The selection dialog's save (spec part 2 §2.6, §4, §7 "POST /assign/equipments"); changes machines: `equipment` update. */
const assignRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/assign/equipments', {
    config: { permission: { feature: 'equipment', flag: 'update' } },
    schema: {
      tags: ['equipments'],
      summary: 'Move machines into or out of areas and pools (one transaction)',
      body: assignEquipmentsSchema,
      response: { 200: assignResultSchema, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => assignEquipments(request.serviceContext, request.auth, request.body),
  });
};

export default assignRoutes;
