import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  counterListQuerySchema,
  counterSchema,
  counterTypeSchema,
  counterWriteAnswerSchema,
  createCounterTypeResultSchema,
} from '../../../shared/api/counters';
import {
  createCounter as createCounterDeclaration,
  createCounterType as createCounterTypeDeclaration,
  deleteCounter as deleteCounterDeclaration,
  updateCounter as updateCounterDeclaration,
} from '../../../shared/mutations/counters';
import { createCounter, createCounterType, deleteCounter, listCounterTypes, listCounters, updateCounter } from '../../services/counter-service';
import { writeRoute } from '../declared-route';
import { errorResponses, langQuerySchema } from '../responses';

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

  writeRoute(app, createCounterDeclaration, {
    tags: ['counters'],
    summary: 'Create a counter on a machine, with first readings; answers it with the readings sent; the same create again answers the counter it made',
    status: 201,
    // why the counter and not a row: the route also writes readings, rows of another kind (counterreadings).
    answer: counterWriteAnswerSchema,
    errors: [400, 401, 403, 404, 409, 410],
    handler: (context, actor, { body }) => createCounter(context, actor, body),
  });

  writeRoute(app, updateCounterDeclaration, {
    tags: ['counters'],
    summary: 'Add readings to a counter (merged, never replaced); answers the counter with the readings sent, as stored',
    // why the counter and not a row: the route also writes readings, rows of another kind (counterreadings),
    // so no single row is what it changed. Only the readings sent: the answer grows with the request, not with the
    // counter's history (counterWriteAnswerSchema).
    answer: counterWriteAnswerSchema,
    errors: [400, 401, 403, 404, 409],
    bodyId: 'nodeid',
    handler: (context, actor, { params, body }) => updateCounter(context, actor, params.id, body),
  });

  writeRoute(app, deleteCounterDeclaration, {
    tags: ['counters'],
    summary: 'Delete a counter with its readings (not the built-in operating hours)',
    errors: [400, 401, 403, 404, 409],
    bodyId: 'nodeid',
    handler: (context, actor, { params }) => deleteCounter(context, actor, params.id),
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

  writeRoute(app, createCounterTypeDeclaration, {
    tags: ['counters'],
    summary: 'Create a counter type, optionally with a first counter of it; the same nodeid again answers the type it made',
    status: 201,
    answer: createCounterTypeResultSchema,
    errors: [400, 401, 403, 404, 409, 410],
    handler: (context, actor, { body }) => createCounterType(context, actor, body),
  });
};

export default counterRoutes;
