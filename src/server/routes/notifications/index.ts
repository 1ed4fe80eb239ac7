import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createNotificationSchema,
  deleteNotificationResultSchema,
  deleteNotificationSchema,
  notificationParamsSchema,
  notificationSchema,
  updateNotificationSchema,
} from '../../../shared/api/notifications';
import { badRequest } from '../../http-errors';
import { createNotification, deleteNotification, getNotification, updateNotification } from '../../services/notification-service';
import { errorResponses, langQuerySchema } from '../responses';

/** Notifications (Meldungen), spec part 1 §2.2, §3, §4.2, §7; feature key `notification`. */
const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/notifications/:nodeid', {
    config: { permission: { feature: 'notification', flag: 'read' } },
    schema: {
      tags: ['notifications'],
      summary: 'One notification with its machine, author and counts',
      params: notificationParamsSchema,
      querystring: langQuerySchema,
      response: { 200: notificationSchema, ...errorResponses(400, 401, 403, 404, 410) },
    },
    handler: (request) => getNotification(request.serviceContext, request.auth, request.params.nodeid, request.query.lang),
  });

  app.post('/notifications', {
    config: { permission: { feature: 'notification', flag: 'create' } },
    schema: {
      tags: ['notifications'],
      summary: 'Create a notification with a device-chosen nodeid',
      body: createNotificationSchema,
      response: { 201: notificationSchema, ...errorResponses(400, 401, 403, 404, 409, 410) },
    },
    handler: async (request, reply) => reply.code(201).send(await createNotification(request.serviceContext, request.auth, request.body, request.body.lang)),
  });

  app.put('/notifications/:nodeid', {
    config: { permission: { feature: 'notification', flag: 'update' } },
    schema: {
      tags: ['notifications'],
      summary: 'Change fields or the status (§4.2 transition on the server status); only the fields sent change',
      params: notificationParamsSchema,
      body: updateNotificationSchema,
      response: { 200: notificationSchema, ...errorResponses(400, 401, 403, 404, 410) },
    },
    handler: (request) => updateNotification(request.serviceContext, request.auth, request.params.nodeid, request.body, request.body.lang),
  });

  app.delete('/notifications/:nodeid', {
    config: { permission: { feature: 'notification', flag: 'delete' } },
    schema: {
      tags: ['notifications'],
      summary: 'Delete a notification with its solutions, reports, costs and attachments (tombstones)',
      params: notificationParamsSchema,
      body: deleteNotificationSchema,
      response: { 200: deleteNotificationResultSchema, ...errorResponses(400, 401, 403, 404, 410) },
    },
    handler: async (request) => {
      const nodeid = request.body?.nodeid;
      if (nodeid !== undefined && nodeid !== request.params.nodeid) {
        throw badRequest('nodeid does not match the path', [{ field: 'nodeid', message: 'Must equal the id in the path' }]);
      }
      return deleteNotification(request.serviceContext, request.auth, request.params.nodeid);
    },
  });
};

export default notificationRoutes;
