import type { FastifyInstance } from 'fastify';
import { cleanupPendingFiles } from '../services/file-service';

/** How often each instance looks for abandoned uploads. */
export const FILE_CLEANUP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Runs cleanupPendingFiles every hour in this process, starting once the app is ready and stopping when it
 * closes. Every instance may run it: rows are claimed with SKIP LOCKED, so instances never remove the same
 * file twice. Failures are logged and retried on the next tick.
 */
export function scheduleFileCleanup(app: FastifyInstance): void {
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      cleanupPendingFiles(app.serviceContext, app.fileStorage)
        .then(({ removed }) => {
          if (removed > 0) app.log.info({ removed }, 'removed abandoned uploads');
        })
        .catch((error: unknown) => app.log.error({ err: error }, 'file cleanup failed'));
    }, FILE_CLEANUP_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
