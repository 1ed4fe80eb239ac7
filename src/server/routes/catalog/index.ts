import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  brandSchema,
  brandsTypesEquipmentsSchema,
  createBrandSchema,
  createEquipmentClassSchema,
  createEquipmentTypeSchema,
  createLegalEntitySchema,
  equipmentClassSchema,
  equipmentTypeSchema,
  getlebrtyQuerySchema,
  lebrtySchema,
  legalEntitySchema,
  updateBrandSchema,
  updateEquipmentClassSchema,
  updateEquipmentTypeSchema,
  updateLegalEntitySchema,
} from '../../../shared/api/catalog';
import { deleteResultSchema } from '../../../shared/api/fields';
import * as catalog from '../../services/catalog-service';
import { errorResponses, langQuerySchema, nodeidParamsSchema } from '../responses';

/**
 * The machine catalogue (spec part 2 §3, §7): manufacturers, brands, equipment types, classes and the lists
 * the equipment form picks from. Feature key `equipment` with the flag of the action.
 */
const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = { permission: { feature: 'equipment', flag: 'read' } } as const;
  const create = { permission: { feature: 'equipment', flag: 'create' } } as const;
  const update = { permission: { feature: 'equipment', flag: 'update' } } as const;
  const remove = { permission: { feature: 'equipment', flag: 'delete' } } as const;
  const deleted = { 200: deleteResultSchema, ...errorResponses(400, 401, 403, 404, 409) };

  app.get('/getlebrty', {
    config: read,
    schema: { tags: ['catalog'], summary: 'Manufacturers with their brands and types', querystring: getlebrtyQuerySchema, response: { 200: lebrtySchema, ...errorResponses(400, 401, 403) } },
    handler: (request) => catalog.listLegalEntitiesWithBrands(request.serviceContext.db, request.auth, request.query),
  });

  app.get('/brands-types-equipments', {
    config: read,
    schema: { tags: ['catalog'], summary: 'Brands with manufacturer, types and the machines of each type', querystring: langQuerySchema, response: { 200: brandsTypesEquipmentsSchema, ...errorResponses(400, 401, 403) } },
    handler: (request) => catalog.listBrandsTypesEquipments(request.serviceContext.db, request.auth),
  });

  // ------------------------------------------------ manufacturers
  app.post('/legalentities', {
    config: create,
    schema: { tags: ['catalog'], summary: 'Record a manufacturer', body: createLegalEntitySchema, response: { 201: legalEntitySchema, ...errorResponses(400, 401, 403, 409, 410) } },
    handler: async (request, reply) => reply.code(201).send(await catalog.createLegalEntity(request.serviceContext, request.auth, request.body)),
  });
  app.put('/legalentities/:id', {
    config: update,
    schema: { tags: ['catalog'], summary: 'Rename a recorded manufacturer', params: nodeidParamsSchema, body: updateLegalEntitySchema, response: { 200: legalEntitySchema, ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => catalog.updateLegalEntity(request.serviceContext, request.auth, request.params.id, request.body),
  });
  app.delete('/legalentities/:id', {
    config: remove,
    schema: { tags: ['catalog'], summary: 'Delete a recorded manufacturer without brands', params: nodeidParamsSchema, response: deleted },
    handler: (request) => catalog.deleteLegalEntity(request.serviceContext, request.auth, request.params.id),
  });

  // ------------------------------------------------ brands
  app.get('/brands', {
    config: read,
    schema: { tags: ['catalog'], summary: 'Brands', querystring: langQuerySchema, response: { 200: z.array(brandSchema), ...errorResponses(400, 401, 403) } },
    handler: (request) => catalog.listBrands(request.serviceContext.db, request.auth),
  });
  app.post('/brands', {
    config: create,
    schema: { tags: ['catalog'], summary: 'Create a brand of a manufacturer', body: createBrandSchema, response: { 201: brandSchema, ...errorResponses(400, 401, 403, 404, 409, 410) } },
    handler: async (request, reply) => reply.code(201).send(await catalog.createBrand(request.serviceContext, request.auth, request.body)),
  });
  app.put('/brands/:id', {
    config: update,
    schema: { tags: ['catalog'], summary: 'Change a brand; only the fields sent change', params: nodeidParamsSchema, body: updateBrandSchema, response: { 200: brandSchema, ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => catalog.updateBrand(request.serviceContext, request.auth, request.params.id, request.body),
  });
  app.delete('/brands/:id', {
    config: remove,
    schema: { tags: ['catalog'], summary: 'Delete a brand and its types (409 while machines use them)', params: nodeidParamsSchema, response: deleted },
    handler: (request) => catalog.deleteBrand(request.serviceContext, request.auth, request.params.id),
  });

  // ------------------------------------------------ equipment types
  app.get('/equipmenttypes', {
    config: read,
    schema: { tags: ['catalog'], summary: 'Equipment types (models)', querystring: langQuerySchema, response: { 200: z.array(equipmentTypeSchema), ...errorResponses(400, 401, 403) } },
    handler: (request) => catalog.listEquipmentTypes(request.serviceContext.db, request.auth),
  });
  app.post('/equipmenttypes', {
    config: create,
    schema: { tags: ['catalog'], summary: 'Create a model of a brand', body: createEquipmentTypeSchema, response: { 201: equipmentTypeSchema, ...errorResponses(400, 401, 403, 404, 409, 410) } },
    handler: async (request, reply) => reply.code(201).send(await catalog.createEquipmentType(request.serviceContext, request.auth, request.body)),
  });
  app.put('/equipmenttypes/:id', {
    config: update,
    schema: { tags: ['catalog'], summary: 'Change a model; only the fields sent change', params: nodeidParamsSchema, body: updateEquipmentTypeSchema, response: { 200: equipmentTypeSchema, ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => catalog.updateEquipmentType(request.serviceContext, request.auth, request.params.id, request.body),
  });
  app.delete('/equipmenttypes/:id', {
    config: remove,
    schema: { tags: ['catalog'], summary: 'Delete a model (409 while machines use it)', params: nodeidParamsSchema, response: deleted },
    handler: (request) => catalog.deleteEquipmentType(request.serviceContext, request.auth, request.params.id),
  });

  // ------------------------------------------------ equipment classes
  app.get('/equipmentclasses', {
    config: read,
    schema: { tags: ['catalog'], summary: 'Equipment classes', querystring: langQuerySchema, response: { 200: z.array(equipmentClassSchema), ...errorResponses(400, 401, 403) } },
    handler: (request) => catalog.listEquipmentClasses(request.serviceContext.db, request.auth, request.query.lang),
  });
  app.post('/equipmentclasses', {
    config: create,
    schema: { tags: ['catalog'], summary: 'Create an equipment class', body: createEquipmentClassSchema, response: { 201: equipmentClassSchema, ...errorResponses(400, 401, 403, 409, 410) } },
    handler: async (request, reply) => reply.code(201).send(await catalog.createEquipmentClass(request.serviceContext, request.auth, request.body)),
  });
  app.put('/equipmentclasses/:id', {
    config: update,
    schema: { tags: ['catalog'], summary: 'Rename an equipment class in one language', params: nodeidParamsSchema, body: updateEquipmentClassSchema, response: { 200: equipmentClassSchema, ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => catalog.updateEquipmentClass(request.serviceContext, request.auth, request.params.id, request.body),
  });
  app.delete('/equipmentclasses/:id', {
    config: remove,
    schema: { tags: ['catalog'], summary: 'Delete an equipment class; its machines keep existing without one', params: nodeidParamsSchema, response: deleted },
    handler: (request) => catalog.deleteEquipmentClass(request.serviceContext, request.auth, request.params.id),
  });
};

export default catalogRoutes;
