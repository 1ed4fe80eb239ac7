import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notificationListRequestSchema, notificationListSchema } from '../../../shared/api/notification-lists';
import { listNotifications, type NotificationListName } from '../../services/notification-list-service';
import { errorResponses } from '../responses';

/**
 * The notification lists of spec part 1 §7: POST /notifications/equipments, /unassigned, /assigned with
 * `{equipmentnodeids, lang}` (contract: src/shared/api/notification-lists.ts). Reads: permission `notification`
 * read; POST only because the spec calls them so (the machine list can be long).
 */
const LISTS: Record<NotificationListName, string> = {
  equipments: 'Notifications of the machines named, newest first',
  unassigned: 'Open notifications nobody is assigned to, of the machines named (or all), newest first',
  assigned: 'Open notifications assigned to the caller, of the machines named (or all), newest first',
};

const notificationListRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const [list, summary] of Object.entries(LISTS) as [NotificationListName, string][]) {
    app.post(`/notifications/${list}`, {
      config: { permission: { feature: 'notification', flag: 'read' } },
      schema: { tags: ['notifications'], summary, body: notificationListRequestSchema, response: { 200: notificationListSchema, ...errorResponses(400, 401, 403) } },
      handler: (request) => listNotifications(request.serviceContext, request.auth, list, request.body),
    });
  }
};

export default notificationListRoutes;
