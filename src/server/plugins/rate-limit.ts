import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { normalizeEmail } from '../../shared/validation';
import { tooManyRequests } from '../http-errors';

export interface RateLimitPluginOptions {
  perIp: number;
  perAccount: number;
}

const WINDOW_MS = 60_000;

/**
 * Login attempts per minute (LOGIN_RATE_LIMIT): all attempts per client IP, against guessing from one machine;
 * FAILED attempts per account, against guessing one account from many machines. Only failures count per
 * account, so nobody can lock a colleague out by posting their e-mail address (OWASP's account-lockout
 * advice). Counters live in this process's memory: with several instances each counts for itself, so the
 * effective limit is N times higher (a shared store, e.g. Redis, would fix that; see docs/configuration.md).
 */
export default fp(
  async function loginRateLimit(app: FastifyInstance, options: RateLimitPluginOptions) {
    await app.register(rateLimit, { global: false });

    const ipLimiter = app.createRateLimit({ max: options.perIp, timeWindow: WINDOW_MS, keyGenerator: (request) => `login-ip:${request.ip}` });
    const failures = new FailureCounter(options.perAccount, WINDOW_MS);

    app.decorate('loginRateLimit', {
      byIp: async (request: FastifyRequest) => {
        const result = await ipLimiter(request);
        if (!result.isAllowed && result.isExceeded) throw tooManyRequests(Math.max(1, result.ttlInSeconds));
      },
      byAccount: async (request: FastifyRequest) => {
        const retryAfterSeconds = failures.blockedFor(accountKey(request), Date.now());
        if (retryAfterSeconds > 0) throw tooManyRequests(retryAfterSeconds);
      },
      recordFailure: (request: FastifyRequest) => failures.add(accountKey(request), Date.now()),
    });
  },
  { name: 'login-rate-limit', dependencies: ['errors'] },
);

/** Failed attempts per key in a fixed window; forgets expired keys so memory stays bounded by one window. */
class FailureCounter {
  private readonly entries = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds until `key` may try again, or 0. */
  blockedFor(key: string, now: number): number {
    const entry = this.entries.get(key);
    if (!entry || entry.resetAt <= now || entry.count < this.max) return 0;
    return Math.max(1, Math.ceil((entry.resetAt - now) / 1000));
  }

  add(key: string, now: number): void {
    if (this.entries.size > 10_000) for (const [k, e] of this.entries) if (e.resetAt <= now) this.entries.delete(k);
    const entry = this.entries.get(key);
    if (!entry || entry.resetAt <= now) this.entries.set(key, { count: 1, resetAt: now + this.windowMs });
    else entry.count += 1;
  }
}

function accountKey(request: FastifyRequest): string {
  return normalizeEmail(emailOf(request));
}

function emailOf(request: FastifyRequest): string {
  const body = request.body as { email?: unknown } | undefined;
  return typeof body?.email === 'string' ? body.email : '';
}
