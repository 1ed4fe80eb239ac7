import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assignEquipment } from '../../../shared/mutations/structure';
import { equipmentRowSchema } from '../../../shared/rows/equipment';
import { assignEquipments } from '../../services/assign-service';
import { writeRoute } from '../declared-route';

/**
 * The selection dialog's save (spec part 2 §2.6, §4, §7 "POST /assign/equipments"); changes machines: `equipment`
 * update. Method, URL, permission and payload come from the declaration (src/shared/mutations/structure.ts).
 */
const assignRoutes: FastifyPluginAsyncZod = async (app) => {
  writeRoute(app, assignEquipment, {
    tags: ['equipments'],
    summary:
      'Move machines into or out of areas and pools (one transaction). Answers the row of each machine the payload names, in payload order, as the change feed has it (a device sends one machine per request: a list of one)',
    answer: z.array(equipmentRowSchema),
    errors: [400, 401, 403, 404],
    handler: (context, actor, { body }) => assignEquipments(context, actor, body),
  });
};

export default assignRoutes;
