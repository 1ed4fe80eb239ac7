import type { FastifyInstance } from 'fastify';
import { deleteExpiredRefreshTokens } from '../services/auth-service';
import type { ServiceContext } from '../services/service-context';
import { runPeriodically } from './periodic';

/** How often each instance deletes expired refresh tokens. */
export const SESSION_CLEANUP_INTERVAL_MS = 6 * 60 * 60 * 1000;
/** Rows are kept this long after they expired: a device that signed in counts as known to the login lockout a while longer. */
export const EXPIRED_REFRESH_TOKEN_KEEP_DAYS = 30;
const DAY_MS = 86_400_000;

/** Deletes refresh-token rows expired more than EXPIRED_REFRESH_TOKEN_KEEP_DAYS ago; `now` is a parameter for tests. */
export function cleanUpSessions(ctx: ServiceContext, now: Date = new Date()): Promise<number> {
  return deleteExpiredRefreshTokens(ctx.db, new Date(now.getTime() - EXPIRED_REFRESH_TOKEN_KEEP_DAYS * DAY_MS));
}

/** Runs cleanUpSessions every six hours in this process, from ready until close. Failures are logged and retried. */
export function scheduleSessionCleanup(app: FastifyInstance): void {
  runPeriodically(app, {
    intervalMs: SESSION_CLEANUP_INTERVAL_MS,
    atStart: true,
    failed: 'refresh-token cleanup failed',
    work: async () => {
      const removed = await cleanUpSessions(app.serviceContext);
      if (removed > 0) app.log.info({ removed }, 'deleted expired refresh tokens');
    },
  });
}
