import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { profileSchema } from '../../../shared/api/auth';
import { listProfiles } from '../../services/profile-service';
import { errorResponses } from '../responses';

const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/profiles', {
    // why 'authenticated': every user needs the list to resolve their own and others' profile names.
    config: { permission: 'authenticated' },
    schema: {
      tags: ['users'],
      summary: "The organisation's permission profiles",
      querystring: z.object({}),
      response: { 200: z.array(profileSchema), ...errorResponses(401) },
    },
    handler: (request) => listProfiles(request.serviceContext, request.auth),
  });
};

export default profileRoutes;
