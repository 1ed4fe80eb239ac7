import type { FastifyInstance } from 'fastify';
import { runPeriodically } from './periodic';

/** How often each instance logs its kept read answers. */
export const KEPT_ANSWERS_LOG_INTERVAL_MS = 15 * 60 * 1000;

/**
 * Logs the kept read answers of this instance (routes/versioned-answer.ts) every 15 minutes in which any read
 * asked for one: entries and bytes against their limits, and hits, builds and evictions in the interval. Many
 * evictions with a low hit rate mean the limits are too small for the tenants and trees this instance serves
 * (docs/operations.md § Where the next limit is).
 */
export function scheduleKeptAnswersLog(app: FastifyInstance): void {
  let last = app.versionedAnswers.counts;
  runPeriodically(app, {
    intervalMs: KEPT_ANSWERS_LOG_INTERVAL_MS,
    atStart: false,
    failed: 'kept answers log failed',
    work: async () => {
      const now = app.versionedAnswers.counts;
      const interval = { hits: now.hits - last.hits, builds: now.builds - last.builds, evicted: now.evicted - last.evicted };
      last = now;
      const asked = interval.hits + interval.builds;
      if (asked === 0) return;
      const hitRate = Math.round((interval.hits / asked) * 1000) / 1000;
      app.log.info({ keptAnswers: { ...app.versionedAnswers.size, ...interval, hitRate } }, 'kept read answers');
    },
  });
}
