import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createEquipmentBulkResultSchema, createEquipmentBulkSchema, createEquipmentSchema, deleteEquipmentSchema, equipmentSchema, updateEquipmentSchema } from '../../../shared/api/equipment';
import { deleteResultSchema } from '../../../shared/api/fields';
import { createEquipment, createEquipmentBulk, deleteEquipment, getEquipment, listEquipment, updateEquipment } from '../../services/equipment-service';
import { assertBodyIdMatches } from '../../services/structure-common';
import { errorResponses, langQuerySchema, nodeidParamsSchema } from '../responses';

/** Equipment (machines), spec part 1 §3, §7 and part 2 §2.2, §7; feature key `equipment`. */
const equipmentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/equipments', {
    config: { permission: { feature: 'equipment', flag: 'read' } },
    schema: { tags: ['equipments'], summary: 'Every machine of the organisation, by name', querystring: langQuerySchema, response: { 200: z.array(equipmentSchema), ...errorResponses(400, 401, 403) } },
    handler: (request) => listEquipment(request.serviceContext.db, request.auth, app.fileUrls, request.query.lang),
  });

  app.get('/equipments/:id', {
    config: { permission: { feature: 'equipment', flag: 'read' } },
    schema: { tags: ['equipments'], summary: 'One machine', params: nodeidParamsSchema, querystring: langQuerySchema, response: { 200: equipmentSchema, ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => getEquipment(request.serviceContext.db, request.auth, app.fileUrls, request.params.id, request.query.lang),
  });

  app.post('/equipments', {
    config: { permission: { feature: 'equipment', flag: 'create' } },
    schema: {
      tags: ['equipments'],
      summary: 'Create a machine (create equipment), with new manufacturer, brand and type if flagged isnew',
      body: createEquipmentSchema,
      response: { 201: equipmentSchema, ...errorResponses(400, 401, 403, 404, 409, 410) },
    },
    handler: async (request, reply) => reply.code(201).send(await createEquipment(request.serviceContext, request.auth, app.fileUrls, request.body)),
  });

  app.post('/equipments/bulk', {
    config: { permission: { feature: 'equipment', flag: 'create' } },
    schema: {
      tags: ['equipments'],
      summary: 'Create many machines at once (CSV import): one transaction, all or nothing',
      body: createEquipmentBulkSchema,
      response: { 201: createEquipmentBulkResultSchema, ...errorResponses(400, 401, 403, 404, 409, 410) },
    },
    handler: async (request, reply) => reply.code(201).send(await createEquipmentBulk(request.serviceContext, request.auth, request.body.items)),
  });

  app.put('/equipments/:id', {
    config: { permission: { feature: 'equipment', flag: 'update' } },
    schema: {
      tags: ['equipments'],
      summary: 'Change a machine (update equipment, memo update); only the fields sent change',
      params: nodeidParamsSchema,
      body: updateEquipmentSchema,
      response: { 200: equipmentSchema, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => updateEquipment(request.serviceContext, request.auth, app.fileUrls, request.params.id, request.body),
  });

  app.delete('/equipments/:id', {
    config: { permission: { feature: 'equipment', flag: 'delete' } },
    schema: {
      tags: ['equipments'],
      summary: 'Delete a machine with its notifications, counters, tasks, FAQs and attachments',
      params: nodeidParamsSchema,
      body: deleteEquipmentSchema,
      response: { 200: deleteResultSchema, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => {
      assertBodyIdMatches('nodeid', request.body?.nodeid, request.params.id);
      return deleteEquipment(request.serviceContext, request.auth, request.params.id);
    },
  });
};

export default equipmentRoutes;
