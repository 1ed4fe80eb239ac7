import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { linkBase } from '../../mail/link-base';
import { shareNotification } from '../../../shared/mutations/share';
import { shareNotification as shareNotificationService } from '../../services/share-service';
import { writeRoute } from '../declared-route';

/**
 * POST /api/notifications/share (spec part 1 §2.2, §5, §7; declaration src/shared/mutations/share.ts): queues the
 * e-mail and answers the notification's row. Its own plugin, so its hook (send the queued mail at once) only sees
 * this route; the answer leaves after the write's commit, so the worker finds the mail.
 */
const shareRoutes: FastifyPluginAsyncZod = async (app) => {
  writeRoute(app, shareNotification, {
    tags: ['notifications'],
    summary: 'Share a notification by e-mail: queues a mail with its summary, photos and link; answers the notification row',
    errors: [400, 401, 403, 404, 429],
    handler: (context, actor, { body }, request) =>
      shareNotificationService(context, actor, body, { publicUrl: linkBase(app.config, request), ratePerHour: app.config.shareRatePerHour }),
  });

  app.addHook('onResponse', async (_request, reply) => {
    if (reply.statusCode < 300) app.mailWorker.kick();
  });
};

export default shareRoutes;
