import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createEquipmentBulkResultSchema, createEquipmentBulkSchema, equipmentSchema } from '../../../shared/api/equipment';
import { createEquipment, deleteEquipment, updateEquipment } from '../../../shared/mutations/equipment';
import * as service from '../../services/equipment-service';
import { writeRoute } from '../declared-route';
import { errorResponses, langQuerySchema, nodeidParamsSchema } from '../responses';

/**
 * Equipment (machines), spec part 1 §3, §7 and part 2 §2.2, §7; feature key `equipment`. The writes come from
 * their declarations (src/shared/mutations/equipment.ts) and answer the machine's row as the change feed sends
 * it; the reads answer the spec's machine with its type, places, photo URLs and shift plan.
 */
const equipmentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/equipments', {
    config: { permission: { feature: 'equipment', flag: 'read' } },
    schema: { tags: ['equipments'], summary: 'Every machine of the organisation, by name', querystring: langQuerySchema, response: { 200: z.array(equipmentSchema), ...errorResponses(400, 401, 403) } },
    handler: (request) => service.listEquipment(request.serviceContext.db, request.auth, app.fileUrls, request.query.lang),
  });

  app.get('/equipments/:id', {
    config: { permission: { feature: 'equipment', flag: 'read' } },
    schema: { tags: ['equipments'], summary: 'One machine', params: nodeidParamsSchema, querystring: langQuerySchema, response: { 200: equipmentSchema, ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => service.getEquipment(request.serviceContext.db, request.auth, app.fileUrls, request.params.id, request.query.lang),
  });

  writeRoute(app, createEquipment, {
    tags: ['equipments'],
    summary: 'Create a machine (create equipment), with new manufacturer, brand and type if flagged isnew',
    status: 201,
    errors: [400, 401, 403, 404, 409, 410],
    handler: (context, actor, { body }) => service.createEquipment(context, actor, body),
  });

  app.post('/equipments/bulk', {
    config: { permission: { feature: 'equipment', flag: 'create' } },
    schema: {
      tags: ['equipments'],
      // why not rows: up to a thousand machines in one answer, whose rows the change feed brings anyway.
      summary: 'Create many machines at once (CSV import): one transaction, all or nothing; answers the ids and the one version, not rows',
      body: createEquipmentBulkSchema,
      response: { 201: createEquipmentBulkResultSchema, ...errorResponses(400, 401, 403, 404, 409, 410) },
    },
    handler: async (request, reply) => reply.code(201).send(await service.createEquipmentBulk(request.serviceContext, request.auth, request.body.items)),
  });

  writeRoute(app, updateEquipment, {
    tags: ['equipments'],
    summary: 'Change a machine (update equipment, memo update); only the fields sent change',
    errors: [400, 401, 403, 404, 409],
    bodyId: 'equipmentnodeid',
    handler: service.updateEquipment,
  });

  writeRoute(app, deleteEquipment, {
    tags: ['equipments'],
    summary: 'Delete a machine with its notifications, counters, tasks, FAQs and attachments',
    errors: [400, 401, 403, 404],
    bodyId: 'nodeid',
    handler: (context, actor, { params }) => service.deleteEquipment(context, actor, params.id),
  });
};

export default equipmentRoutes;
