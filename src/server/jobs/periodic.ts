import type { FastifyInstance } from 'fastify';

export interface PeriodicJob {
  intervalMs: number;
  /** Also once as soon as the app is ready (work that may be due from before a restart). */
  atStart: boolean;
  /** The log message of a failed run. */
  failed: string;
  work(): Promise<void>;
}

/**
 * Runs a job every `intervalMs` in this process, from ready until close; the timer does not keep the process
 * alive. Every instance may run it (each job is safe with several). A failure is logged and retried on the next
 * tick.
 */
export function runPeriodically(app: FastifyInstance, job: PeriodicJob): void {
  let timer: NodeJS.Timeout | undefined;
  const run = () => job.work().catch((error: unknown) => app.log.error({ err: error }, job.failed));
  app.addHook('onReady', async () => {
    if (job.atStart) void run();
    timer = setInterval(() => void run(), job.intervalMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
