import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { langField } from '../../../shared/api/fields';
import { chatRoomSchema } from '../../../shared/api/structure';
import { SYNC_KIND_FEATURES } from '../../../shared/api/sync';
import { forbidden } from '../../http-errors';
import { listChatRooms } from '../../services/chat-service';
import { errorResponses } from '../responses';

const chatRoomRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/chatrooms', {
    // why reads: a chat room belongs to a notification; the pull withholds rooms from who may not read those.
    config: { permission: 'authenticated', reads: SYNC_KIND_FEATURES.chatrooms },
    schema: {
      tags: ['chat'],
      summary: "A user's chat rooms (one's own; admins may ask for any user of the organisation)",
      querystring: z.object({ usernodeid: z.uuid(), lang: langField }),
      response: { 200: z.array(chatRoomSchema), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const { usernodeid } = request.query;
      if (usernodeid !== request.auth.usernodeid && !request.auth.admin) throw forbidden();
      return listChatRooms(request.serviceContext, request.auth, usernodeid);
    },
  });
};

export default chatRoomRoutes;
