import type { FastifyInstance } from 'fastify';
import { cleanupPendingFiles, cleanupUnreferencedFiles } from '../services/file-service';
import { runPeriodically } from './periodic';

/** How often each instance looks for abandoned uploads. */
export const FILE_CLEANUP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Runs cleanupPendingFiles (uploads whose bytes never arrived) and cleanupUnreferencedFiles (complete files no
 * record names) every hour in this process, from the first hour after ready until close. Every instance may run
 * them: rows are claimed with SKIP LOCKED, so instances never remove the same file twice.
 */
export function scheduleFileCleanup(app: FastifyInstance): void {
  runPeriodically(app, {
    intervalMs: FILE_CLEANUP_INTERVAL_MS,
    atStart: false,
    failed: 'file cleanup failed',
    work: async () => {
      const { removed } = await cleanupPendingFiles(app.serviceContext, app.fileStorage);
      if (removed > 0) app.log.info({ removed }, 'removed abandoned uploads');
      const unreferenced = await cleanupUnreferencedFiles(app.serviceContext, app.fileStorage);
      if (unreferenced.removed > 0) app.log.info({ removed: unreferenced.removed }, 'removed files no record names');
    },
  });
}
