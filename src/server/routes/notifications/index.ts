import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notificationChangesSchema, notificationParamsSchema, notificationSchema } from '../../../shared/api/notifications';
import { createNotification, deleteNotification, updateNotification } from '../../../shared/mutations/notifications';
import * as service from '../../services/notification-service';
import { writeRoute } from '../declared-route';
import { errorResponses, langQuerySchema } from '../responses';

/**
 * Notifications (Meldungen), spec part 1 §2.2, §3, §4.2, §7; feature key `notification`. The writes come from
 * their declarations (src/shared/mutations/notifications.ts) and answer the notification's row.
 */
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
    handler: (request) => service.getNotification(request.serviceContext, request.auth, request.params.nodeid, request.query.lang),
  });

  app.get('/notifications/:nodeid/changes', {
    config: { permission: { feature: 'notification', flag: 'read' } },
    schema: {
      tags: ['notifications'],
      summary: 'What writes overwrote (the record history): who changed which field when, from what to what, newest first',
      params: notificationParamsSchema,
      response: { 200: notificationChangesSchema, ...errorResponses(400, 401, 403, 404, 410) },
    },
    handler: (request) => service.notificationChanges(request.serviceContext, request.auth, request.params.nodeid),
  });

  writeRoute(app, createNotification, {
    tags: ['notifications'],
    summary: 'Create a notification with a device-chosen nodeid',
    status: 201,
    errors: [400, 401, 403, 404, 409, 410],
    handler: (context, actor, { body }) => service.createNotification(context, actor, body),
  });

  writeRoute(app, updateNotification, {
    tags: ['notifications'],
    summary: 'Change fields or the status (§4.2 transition on the server status; a stale one that would take it back: 409); only the fields sent change',
    errors: [400, 401, 403, 404, 409, 410],
    bodyId: 'nodeid',
    handler: service.updateNotification,
  });

  writeRoute(app, deleteNotification, {
    tags: ['notifications'],
    summary: 'Delete a notification with its solutions, reports, costs and attachments (tombstones)',
    errors: [400, 401, 403, 404, 410],
    bodyId: 'nodeid',
    handler: (context, actor, { params }) => service.deleteNotification(context, actor, params.nodeid),
  });
};

export default notificationRoutes;
