import { createHash } from 'node:crypto';
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
 * Login attempts per minute (LOGIN_RATE_LIMIT `<perIp>/<perAccount>`), docs/api.md § Login lockout:
 * - all attempts per client IP, against guessing from one machine;
 * - failed attempts per account AND client (the device's client id when it sends one, else its IP): that client
 *   gets 429 for that account, against guessing one account from one device;
 * - failed attempts per account from anywhere: the account is *limited*, and then only a device that has signed
 *   this user in before gets through (checked by the login service against the refresh-token families), so an
 *   attacker's wrong passwords from elsewhere neither continue nor lock the real user's tablet out.
 * Counters live in this process's memory: with several instances each counts for itself, so the effective limit
 * is N times higher (a shared store, e.g. Redis, would fix that; see docs/configuration.md).
 */
export default fp(
  async function loginRateLimit(app: FastifyInstance, options: RateLimitPluginOptions) {
    await app.register(rateLimit, { global: false });

    const ipLimiter = app.createRateLimit({ max: options.perIp, timeWindow: WINDOW_MS, keyGenerator: (request) => `login-ip:${request.ip}` });
    const failures = new WindowCounter(options.perAccount, WINDOW_MS);
    // Attempts whose password is being checked: counted as failures until they turn out otherwise. Counted only
    // once answered, fifty wrong passwords sent at once all passed the check (an attacker's probe; on PostgreSQL
    // many are checked at the same time).
    const inFlight = new Map<string, number>();
    const attempts = new WeakMap<FastifyRequest, readonly [account: string, client: string]>();
    const pending = (key: string) => inFlight.get(key) ?? 0;
    const shift = (key: string, by: number) => {
      const next = pending(key) + by;
      if (next > 0) inFlight.set(key, next);
      else inFlight.delete(key);
    };

    app.decorate('loginRateLimit', {
      byIp: async (request: FastifyRequest) => {
        const result = await ipLimiter(request);
        if (!result.isAllowed && result.isExceeded) throw tooManyRequests(Math.max(1, result.ttlInSeconds));
      },
      byAccountAndClient: async (request: FastifyRequest) => {
        const keys = [accountKey(request), accountClientKey(request)] as const;
        const retryAfterSeconds = failures.blockedFor(keys[1], Date.now(), pending(keys[1]));
        if (retryAfterSeconds > 0) throw tooManyRequests(retryAfterSeconds);
        keys.forEach((key) => shift(key, 1));
        attempts.set(request, keys);
      },
      // The other attempts on the account still being checked count; this one's own does not.
      accountBlockedFor: (request: FastifyRequest) => {
        const key = accountKey(request);
        return failures.blockedFor(key, Date.now(), Math.max(0, pending(key) - (attempts.has(request) ? 1 : 0)));
      },
      settle: (request: FastifyRequest, failed: boolean) => {
        const keys = attempts.get(request);
        if (!keys) return;
        attempts.delete(request);
        const now = Date.now();
        for (const key of keys) {
          shift(key, -1);
          if (failed) failures.add(key, now);
        }
      },
    });
  },
  { name: 'login-rate-limit', dependencies: ['errors'] },
);

const WINDOW_SWEEP_MIN = 10_000;

/**
 * Events per key in a fixed window (failed logins here, uploads in routes/files); forgets expired keys so memory
 * stays bounded by one window.
 */
export class WindowCounter {
  private readonly entries = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds until `key` may try again, or 0; `pending` events not counted yet count as well. */
  blockedFor(key: string, now: number, pending = 0): number {
    const entry = this.entries.get(key);
    const live = entry && entry.resetAt > now ? entry : undefined;
    if ((live?.count ?? 0) + pending < this.max) return 0;
    // Over the limit only with attempts still being checked: a second, by when they are answered.
    return live ? Math.max(1, Math.ceil((live.resetAt - now) / 1000)) : 1;
  }

  /** Counts one event unless `key` is over the limit; answers the seconds to wait (0: counted, go on). */
  hit(key: string, now: number): number {
    const wait = this.blockedFor(key, now);
    if (wait === 0) this.add(key, now);
    return wait;
  }

  /** The size at which expired keys are swept next: doubles while the live keys fill it, so a sweep is not run per event. */
  private sweepAt = WINDOW_SWEEP_MIN;

  add(key: string, now: number): void {
    if (this.entries.size >= this.sweepAt) {
      for (const [k, e] of this.entries) if (e.resetAt <= now) this.entries.delete(k);
      this.sweepAt = Math.max(WINDOW_SWEEP_MIN, this.entries.size * 2);
    }
    const entry = this.entries.get(key);
    if (!entry || entry.resetAt <= now) this.entries.set(key, { count: 1, resetAt: now + this.windowMs });
    else entry.count += 1;
  }
}

/** The account as a fixed-size key (a digest of the normalised e-mail): what is kept per failed login stays small. */
function accountKey(request: FastifyRequest): string {
  return `account:${createHash('sha256').update(normalizeEmail(bodyField(request, 'email'))).digest('base64url')}`;
}

/** Per account and client: the device's client id when the body names one, otherwise the address it calls from. */
function accountClientKey(request: FastifyRequest): string {
  const deviceid = bodyField(request, 'deviceid');
  return `${accountKey(request)}|${deviceid ? `device:${deviceid}` : `ip:${request.ip}`}`;
}

function bodyField(request: FastifyRequest, name: string): string {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}
