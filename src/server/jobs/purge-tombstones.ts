import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../services/service-context';
import { purgeTombstones as purgeOlderThan, type PurgeResult } from '../services/sync-service';
import { runPeriodically } from './periodic';

/** How often each instance purges expired tombstones. */
export const TOMBSTONE_PURGE_INTERVAL_MS = 60 * 60 * 1000;
const DAY_MS = 86_400_000;

/**
 * Removes tombstones older than the retention (TOMBSTONE_RETENTION_DAYS) and raises each tenant's purged_through,
 * so devices with an older cursor reset (docs/sync.md § Tombstone retention). Safe to run on several instances at
 * once (see services/sync-service.ts purgeTombstones); `now` is a parameter so tests can run it directly.
 */
export function purgeTombstones(ctx: ServiceContext, retentionDays: number, now: Date = new Date()): Promise<PurgeResult> {
  return purgeOlderThan(ctx.db, new Date(now.getTime() - retentionDays * DAY_MS));
}

/** Runs purgeTombstones every hour in this process, from ready until close. Failures are logged and retried. */
export function scheduleTombstonePurge(app: FastifyInstance): void {
  runPeriodically(app, {
    intervalMs: TOMBSTONE_PURGE_INTERVAL_MS,
    atStart: true,
    failed: 'tombstone purge failed',
    work: async () => {
      const { tombstones, tenants } = await purgeTombstones(app.serviceContext, app.config.tombstoneRetentionDays);
      if (tombstones > 0) app.log.info({ tombstones, tenants }, 'purged expired tombstones');
    },
  });
}
