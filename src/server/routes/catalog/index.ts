import type { FastifyInstance, FastifySchema, FastifyTypeProviderDefault } from 'fastify';
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
import { deleteResultSchema, type DeleteResult } from '../../../shared/api/fields';
import * as catalog from '../../services/catalog-service';
import type { Actor, ServiceContext } from '../../services/service-context';
import { errorResponses, langQuerySchema, nodeidParamsSchema, type ErrorCode } from '../responses';

const read = { permission: { feature: 'equipment', flag: 'read' } } as const;
const create = { permission: { feature: 'equipment', flag: 'create' } } as const;
const update = { permission: { feature: 'equipment', flag: 'update' } } as const;
const remove = { permission: { feature: 'equipment', flag: 'delete' } } as const;

/**
 * The machine catalogue (spec part 2 §3, §7): manufacturers, brands, equipment types, classes and the lists
 * the equipment form picks from. Feature key `equipment` with the flag of the action.
 */
const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
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

  registerCatalogResource(app, '/legalentities', legalEntitySchema, {
    create: { summary: 'Record a manufacturer', body: createLegalEntitySchema, errors: [400, 401, 403, 409, 410], run: catalog.createLegalEntity },
    update: { summary: 'Rename a recorded manufacturer', body: updateLegalEntitySchema, run: catalog.updateLegalEntity },
    remove: { summary: 'Delete a recorded manufacturer without brands', run: catalog.deleteLegalEntity },
  });
  registerCatalogResource(app, '/brands', brandSchema, {
    list: { summary: 'Brands', run: catalog.listBrands },
    create: { summary: 'Create a brand of a manufacturer', body: createBrandSchema, errors: [400, 401, 403, 404, 409, 410], run: catalog.createBrand },
    update: { summary: 'Change a brand; only the fields sent change', body: updateBrandSchema, run: catalog.updateBrand },
    remove: { summary: 'Delete a brand and its types (409 while machines use them)', run: catalog.deleteBrand },
  });
  registerCatalogResource(app, '/equipmenttypes', equipmentTypeSchema, {
    list: { summary: 'Equipment types (models)', run: catalog.listEquipmentTypes },
    create: { summary: 'Create a model of a brand', body: createEquipmentTypeSchema, errors: [400, 401, 403, 404, 409, 410], run: catalog.createEquipmentType },
    update: { summary: 'Change a model; only the fields sent change', body: updateEquipmentTypeSchema, run: catalog.updateEquipmentType },
    remove: { summary: 'Delete a model (409 while machines use it)', run: catalog.deleteEquipmentType },
  });
  registerCatalogResource(app, '/equipmentclasses', equipmentClassSchema, {
    list: { summary: 'Equipment classes', run: catalog.listEquipmentClasses },
    create: { summary: 'Create an equipment class', body: createEquipmentClassSchema, errors: [400, 401, 403, 409, 410], run: catalog.createEquipmentClass },
    update: { summary: 'Rename an equipment class in one language', body: updateEquipmentClassSchema, run: catalog.updateEquipmentClass },
    remove: { summary: 'Delete an equipment class; its machines keep existing without one', run: catalog.deleteEquipmentClass },
  });
};

export default catalogRoutes;

/** What differs between the catalogue's resources; the four routes are the same for each. */
interface CatalogResource<Row extends z.ZodType, Create extends z.ZodType, Update extends z.ZodType> {
  list?: { summary: string; run: (db: ServiceContext['db'], actor: Actor, lang: string) => Promise<z.output<Row>[]> };
  /** Creating a brand or type names a parent that may be missing (404); a manufacturer or class has none. */
  create: { summary: string; body: Create; errors: readonly ErrorCode[]; run: (ctx: ServiceContext, actor: Actor, input: z.output<Create>) => Promise<z.output<Row>> };
  update: { summary: string; body: Update; run: (ctx: ServiceContext, actor: Actor, nodeid: string, input: z.output<Update>) => Promise<z.output<Row>> };
  remove: { summary: string; run: (ctx: ServiceContext, actor: Actor, nodeid: string) => Promise<DeleteResult> };
}

/** GET (when listed), POST, PUT /:id and DELETE /:id of one catalogue resource under `path`. */
function registerCatalogResource<Row extends z.ZodType, Create extends z.ZodType, Update extends z.ZodType>(
  zodApp: FastifyInstance,
  path: string,
  row: Row,
  resource: CatalogResource<Row, Create, Update>,
): void {
  // The zod type provider cannot resolve request and reply types from schemas that are still type parameters,
  // so these routes are registered untyped. Validation still runs against the same schemas, and CatalogResource
  // ties each `run` to its schema, so the casts below only state what validation proved.
  const app = zodApp.withTypeProvider<FastifyTypeProviderDefault>();
  const { list, create: creating, update: updating, remove: removing } = resource;
  if (list) {
    app.get(path, {
      config: read,
      schema: route({ summary: list.summary, querystring: langQuerySchema, response: { 200: z.array(row), ...errorResponses(400, 401, 403) } }),
      handler: (request) => list.run(request.serviceContext.db, request.auth, (request.query as z.output<typeof langQuerySchema>).lang),
    });
  }
  app.post(path, {
    config: create,
    schema: route({ summary: creating.summary, body: creating.body, response: { 201: row, ...errorResponses(...creating.errors) } }),
    handler: async (request, reply) => reply.code(201).send(await creating.run(request.serviceContext, request.auth, request.body as z.output<Create>)),
  });
  app.put(`${path}/:id`, {
    config: update,
    schema: route({ summary: updating.summary, params: nodeidParamsSchema, body: updating.body, response: { 200: row, ...errorResponses(400, 401, 403, 404) } }),
    handler: (request) => updating.run(request.serviceContext, request.auth, (request.params as NodeidParams).id, request.body as z.output<Update>),
  });
  app.delete(`${path}/:id`, {
    config: remove,
    schema: route({ summary: removing.summary, params: nodeidParamsSchema, response: { 200: deleteResultSchema, ...errorResponses(400, 401, 403, 404, 409) } }),
    handler: (request) => removing.run(request.serviceContext, request.auth, (request.params as NodeidParams).id),
  });
}

type NodeidParams = z.output<typeof nodeidParamsSchema>;

/** A catalogue route's schema, typed as fastify's plain schema so no type parameter reaches the route types. */
function route(schema: Omit<FastifySchema, 'tags'> & { summary: string }): FastifySchema {
  return { tags: ['catalog'], ...schema };
}
