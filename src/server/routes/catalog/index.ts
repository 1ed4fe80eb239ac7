import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  brandSchema,
  brandsTypesEquipmentsSchema,
  equipmentClassSchema,
  equipmentTypeSchema,
  getlebrtyQuerySchema,
  lebrtySchema,
  updateEquipmentTypeSchema,
  updateLegalEntitySchema,
} from '../../../shared/api/catalog';
import { deleteResultSchema, type DeleteResult } from '../../../shared/api/fields';
import { createBrand, createEquipmentClass, createEquipmentType, createManufacturer, updateBrand, updateEquipmentClass } from '../../../shared/mutations/catalog';
import { equipmentTypeRowSchema, manufacturerRowSchema } from '../../../shared/rows/catalog';
import * as catalog from '../../services/catalog-service';
import type { Actor, ServiceContext } from '../../services/service-context';
import { writeRoute } from '../declared-route';
import { errorResponses, langQuerySchema, nodeidParamsSchema } from '../responses';

const read = { permission: { feature: 'equipment', flag: 'read' } } as const;
const update = { permission: { feature: 'equipment', flag: 'update' } } as const;
const remove = { permission: { feature: 'equipment', flag: 'delete' } } as const;
const tags = ['catalog'];

/**
 * The machine catalogue (spec part 2 §3, §7): manufacturers, brands, equipment types, classes and the lists
 * the equipment form picks from. Feature key `equipment` with the flag of the action. The offline actions come
 * from their declarations (src/shared/mutations/catalog.ts); every write answers the row as the change feed
 * sends it (a delete its id and version), the lists stay in the spec's shape.
 */
const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  /** A delete of the entry the path names (online only, no declaration): 409 while something still uses it. */
  const deleteEntry = (url: string, summary: string, deleteOne: (context: ServiceContext, actor: Actor, nodeid: string) => Promise<DeleteResult>) =>
    app.delete(url, {
      config: remove,
      schema: { tags, summary, params: nodeidParamsSchema, response: { 200: deleteResultSchema, ...errorResponses(400, 401, 403, 404, 409) } },
      handler: (request) => deleteOne(request.serviceContext, request.auth, request.params.id),
    });

  app.get('/getlebrty', {
    config: read,
    schema: { tags, summary: 'Manufacturers with their brands and types', querystring: getlebrtyQuerySchema, response: { 200: lebrtySchema, ...errorResponses(400, 401, 403) } },
    handler: (request) => catalog.listLegalEntitiesWithBrands(request.serviceContext.db, request.auth, request.query),
  });

  app.get('/brands-types-equipments', {
    config: read,
    schema: { tags, summary: 'Brands with manufacturer, types and the machines of each type', querystring: langQuerySchema, response: { 200: brandsTypesEquipmentsSchema, ...errorResponses(400, 401, 403) } },
    handler: (request) => catalog.listBrandsTypesEquipments(request.serviceContext.db, request.auth),
  });

  // ---------------------------------------------------------------- manufacturers

  writeRoute(app, createManufacturer, {
    tags,
    summary: 'Record a manufacturer',
    status: 201,
    errors: [400, 401, 403, 409, 410],
    handler: (context, actor, { body }) => catalog.createLegalEntity(context, actor, body),
  });

  app.put('/legalentities/:id', {
    config: update,
    schema: { tags, summary: 'Rename a recorded manufacturer', params: nodeidParamsSchema, body: updateLegalEntitySchema, response: { 200: manufacturerRowSchema, ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => catalog.updateLegalEntity(request.serviceContext, request.auth, request.params.id, request.body),
  });

  deleteEntry('/legalentities/:id', 'Delete a recorded manufacturer without brands', catalog.deleteLegalEntity);

  // ---------------------------------------------------------------- brands

  app.get('/brands', {
    config: read,
    schema: { tags, summary: 'Brands', querystring: langQuerySchema, response: { 200: z.array(brandSchema), ...errorResponses(400, 401, 403) } },
    handler: (request) => catalog.listBrands(request.serviceContext.db, request.auth),
  });

  writeRoute(app, createBrand, {
    tags,
    summary: 'Create a brand of a manufacturer',
    status: 201,
    errors: [400, 401, 403, 404, 409, 410],
    handler: (context, actor, { body }) => catalog.createBrand(context, actor, body),
  });

  writeRoute(app, updateBrand, {
    tags,
    summary: 'Change a brand; only the fields sent change',
    errors: [400, 401, 403, 404],
    handler: catalog.updateBrand,
  });

  deleteEntry('/brands/:id', 'Delete a brand and its types (409 while machines use them)', catalog.deleteBrand);

  // ---------------------------------------------------------------- equipment types

  app.get('/equipmenttypes', {
    config: read,
    schema: { tags, summary: 'Equipment types (models)', querystring: langQuerySchema, response: { 200: z.array(equipmentTypeSchema), ...errorResponses(400, 401, 403) } },
    handler: (request) => catalog.listEquipmentTypes(request.serviceContext.db, request.auth),
  });

  writeRoute(app, createEquipmentType, {
    tags,
    summary: 'Create a model of a brand',
    status: 201,
    errors: [400, 401, 403, 404, 409, 410],
    handler: (context, actor, { body }) => catalog.createEquipmentType(context, actor, body),
  });

  app.put('/equipmenttypes/:id', {
    config: update,
    schema: { tags, summary: 'Change a model; only the fields sent change', params: nodeidParamsSchema, body: updateEquipmentTypeSchema, response: { 200: equipmentTypeRowSchema, ...errorResponses(400, 401, 403, 404) } },
    handler: (request) => catalog.updateEquipmentType(request.serviceContext, request.auth, request.params.id, request.body),
  });

  deleteEntry('/equipmenttypes/:id', 'Delete a model (409 while machines use it)', catalog.deleteEquipmentType);

  // ---------------------------------------------------------------- equipment classes

  app.get('/equipmentclasses', {
    config: read,
    schema: { tags, summary: 'Equipment classes', querystring: langQuerySchema, response: { 200: z.array(equipmentClassSchema), ...errorResponses(400, 401, 403) } },
    handler: (request) => catalog.listEquipmentClasses(request.serviceContext.db, request.auth, request.query.lang),
  });

  writeRoute(app, createEquipmentClass, {
    tags,
    summary: 'Create an equipment class',
    status: 201,
    errors: [400, 401, 403, 409, 410],
    handler: (context, actor, { body }) => catalog.createEquipmentClass(context, actor, body),
  });

  writeRoute(app, updateEquipmentClass, {
    tags,
    summary: 'Rename an equipment class in one language',
    errors: [400, 401, 403, 404],
    handler: catalog.updateEquipmentClass,
  });

  deleteEntry('/equipmentclasses/:id', 'Delete an equipment class; its machines keep existing without one', catalog.deleteEquipmentClass);
};

export default catalogRoutes;
