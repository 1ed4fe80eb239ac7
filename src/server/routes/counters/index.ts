import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  counterListQuerySchema,
  counterSchema,
  counterTypeSchema,
  createCounterSchema,
  createCounterTypeResultSchema,
  createCounterTypeSchema,
} from '../../../shared/api/counters';
import { deleteResultSchema } from '../../../shared/api/fields';
import { updateCounter as updateCounterDeclaration } from '../../../shared/mutations/counters';
import { createCounter, createCounterType, deleteCounter, listCounterTypes, listCounters, updateCounter } from '../../services/counter-service';
import { writeRoute } from '../declared-route';
import { errorResponses, langQuerySchema, nodeidParamsSchema } from '../responses';

/** Counters and counter types, spec part 1 §2.1 counters tab, §3, §4.6, §7; feature key `equipment.counter`. */
const counterRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/counters', {
    config: { permission: { feature: 'equipment.counter', flag: 'read' } },
    schema: {
      tags: ['counters'],
      summary: "The organisation's counters (or one machine's with equipmentnodeid) with type, unit and readings",
      querystring: counterListQuerySchema,
      response: { 200: z.array(counterSchema), ...errorResponses(400, 401, 403) },
    },
    handler: (request) => listCounters(request.serviceContext, request.auth, { equipmentnodeid: request.query.equipmentnodeid }, request.query.lang),
  });

  app.post('/counters/create', {
    config: { permission: { feature: 'equipment.counter', flag: 'create' } },
    schema: {
      tags: ['counters'],
      summary: 'Create a counter on a machine, with first readings',
      body: createCounterSchema,
      response: { 201: counterSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: async (request, reply) => reply.code(201).send(await createCounter(request.serviceContext, request.auth, request.body)),
  });

  writeRoute(app, updateCounterDeclaration, {
    tags: ['counters'],
    summary: 'Rename a counter and add readings (merged, never replaced); answers the counter with its readings',
    // why the counter and not a row: the route also writes readings, rows of another kind (counterreadings),
    // so no single row is what it changed.
    answer: counterSchema,
    errors: [400, 401, 403, 404, 409],
    bodyId: 'nodeid',
    handler: (context, actor, { params, body }) => updateCounter(context, actor, params.id, body),
  });

  app.delete('/counters/delete/:id', {
    config: { permission: { feature: 'equipment.counter', flag: 'delete' } },
    schema: {
      tags: ['counters'],
      summary: 'Delete a counter with its readings (not the built-in operating hours)',
      params: nodeidParamsSchema,
      response: { 200: deleteResultSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: (request) => deleteCounter(request.serviceContext, request.auth, request.params.id),
  });

  app.get('/countertypes', {
    config: { permission: { feature: 'equipment.counter', flag: 'read' } },
    schema: {
      tags: ['counters'],
      summary: "The organisation's counter types with their units",
      querystring: langQuerySchema,
      response: { 200: z.array(counterTypeSchema), ...errorResponses(400, 401, 403) },
    },
    handler: (request) => listCounterTypes(request.serviceContext, request.auth, request.query.lang),
  });

  app.post('/countertypes/create', {
    config: { permission: { feature: 'equipment.counter', flag: 'create' } },
    schema: {
      tags: ['counters'],
      summary: 'Create a counter type, optionally with a first counter of it',
      body: createCounterTypeSchema,
      response: { 201: createCounterTypeResultSchema, ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: async (request, reply) => reply.code(201).send(await createCounterType(request.serviceContext, request.auth, request.body)),
  });
};

export default counterRoutes;
