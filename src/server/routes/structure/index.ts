import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { structureTreeSchema } from '../../../shared/api/structure';
import { loadStructureTree } from '../../services/structure-service';
import { errorResponses, langQuerySchema } from '../responses';
import { versionedAnswer } from '../versioned-answer';

/**
 * The structure trees the client loads after login (spec part 2 §4). They list every machine, so they need the
 * `equipment` read flag; what a user may do with a record is checked on that record. The dashboard reads them on
 * every visit: their answers are kept per tenant change state (routes/versioned-answer.ts).
 */
const structureRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/allsitesareasequipments', {
    config: { permission: { feature: 'equipment', flag: 'read' } },
    schema: {
      tags: ['structure'],
      summary: "The organisation's sites, areas, pools and machines",
      querystring: langQuerySchema,
      response: { 200: structureTreeSchema, ...errorResponses(400, 401, 403) },
    },
    handler: (request, reply) => versionedAnswer(request, reply, [request.query.lang], () => loadStructureTree(request.serviceContext, request.auth, 'all', request.query.lang)),
  });

  app.get('/sitesareasequipments', {
    config: { permission: { feature: 'equipment', flag: 'read' } },
    schema: {
      tags: ['structure'],
      summary: 'Only the sites, areas and pools the caller subscribes to',
      querystring: langQuerySchema,
      response: { 200: structureTreeSchema, ...errorResponses(400, 401, 403) },
    },
    // The subscribed tree is the caller's own: the user is part of its key.
    handler: (request, reply) =>
      versionedAnswer(request, reply, [request.query.lang, request.auth.usernodeid], () => loadStructureTree(request.serviceContext, request.auth, 'subscribed', request.query.lang)),
  });
};

export default structureRoutes;
