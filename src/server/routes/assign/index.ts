import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { noParams } from '../../../shared/mutations/mutation';
import { assignEquipment } from '../../../shared/mutations/structure';
import { equipmentRowSchema } from '../../../shared/rows/equipment';
import { assignEquipments } from '../../services/assign-service';
import { declaredRoute, declaredSchema } from '../declared-route';
import { errorResponses } from '../responses';

/**
 * The selection dialog's save (spec part 2 §2.6, §4, §7 "POST /assign/equipments"); changes machines: `equipment`
 * update. Method, URL, permission and payload come from the declaration (src/shared/mutations/structure.ts).
 */
const assignRoutes: FastifyPluginAsyncZod = async (app) => {
  app.route({
    ...declaredRoute(assignEquipment),
    schema: {
      ...declaredSchema(assignEquipment),
      // why not the declaration's params: they carry what only the device knows (`linktype`), never on the wire;
      // the URL has no path parameter.
      params: noParams,
      tags: ['equipments'],
      summary:
        'Move machines into or out of areas and pools (one transaction). Answers the row of each machine the payload names, in payload order, as the change feed has it (a device sends one machine per request: a list of one)',
      response: { 200: z.array(equipmentRowSchema), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => assignEquipments(request.serviceContext, request.auth, request.body),
  });
};

export default assignRoutes;
