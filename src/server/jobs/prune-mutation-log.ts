import type { FastifyInstance } from 'fastify';
import { pruneMutationLog as pruneOlderThan } from '../services/mutation-log-service';
import type { ServiceContext } from '../services/service-context';
import { runPeriodically } from './periodic';

/** How often each instance prunes the mutation log. */
export const MUTATION_LOG_PRUNE_INTERVAL_MS = 6 * 60 * 60 * 1000;
/** Outcomes younger than this are kept (a frozen tab's stale request, a slow network). */
export const MUTATION_LOG_MIN_AGE_DAYS = 30;
/** The newest outcomes kept per client below its last applied id, however old. */
export const MUTATION_LOG_KEEP_LAST = 100;
const DAY_MS = 86_400_000;

/**
 * Removes stored mutation outcomes no client can ask for again (docs/sync.md § Pruning the mutation log). Safe on
 * several instances at once (services/mutation-log-service.ts pruneMutationLog); `now` is a parameter for tests.
 */
export function pruneMutationLog(ctx: ServiceContext, now: Date = new Date()): Promise<number> {
  return pruneOlderThan(ctx.db, { keepLast: MUTATION_LOG_KEEP_LAST, olderThan: new Date(now.getTime() - MUTATION_LOG_MIN_AGE_DAYS * DAY_MS) });
}

/** Runs pruneMutationLog every six hours in this process, from ready until close. Failures are logged and retried. */
export function scheduleMutationLogPrune(app: FastifyInstance): void {
  runPeriodically(app, {
    intervalMs: MUTATION_LOG_PRUNE_INTERVAL_MS,
    atStart: true,
    failed: 'mutation log prune failed',
    work: async () => {
      const removed = await pruneMutationLog(app.serviceContext);
      if (removed > 0) app.log.info({ removed }, 'pruned the mutation log');
    },
  });
}
