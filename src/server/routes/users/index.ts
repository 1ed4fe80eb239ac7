import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { aclUserSchema } from '../../../shared/api/structure';
import { userSchema } from '../../../shared/api/users';
import { mayReadUserDetails } from '../../../shared/domain/user';
import { forbidden, notFound } from '../../http-errors';
import { getUser, listAclUsers } from '../../services/user-service';
import { errorResponses, nodeidParamsSchema } from '../responses';

const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/users/acl/:clientid', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['users'],
      summary: "The users of the caller's organisation (pickers, chat, planning board)",
      params: z.object({ clientid: z.string().min(1) }),
      response: { 200: z.array(aclUserSchema), ...errorResponses(401, 404) },
    },
    handler: async (request) => {
      // why 404: another organisation's client id is not the caller's to know about.
      if (request.params.clientid !== request.auth.clientid) throw notFound('Client not found');
      return listAclUsers(request.serviceContext, request.auth);
    },
  });

  app.get('/users/:id', {
    // why 'authenticated': everyone may read their own record; others need the user feature's read flag
    // (mayReadUserDetails, the rule the pull's users rows follow for the e-mail address).
    config: { permission: 'authenticated' },
    schema: {
      tags: ['users'],
      summary: 'One user of the organisation (user feature read, or oneself)',
      params: nodeidParamsSchema,
      response: { 200: userSchema, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => {
      if (!mayReadUserDetails(request.auth, request.params.id)) throw forbidden();
      return getUser(request.serviceContext, request.auth, request.params.id);
    },
  });
};

export default userRoutes;
