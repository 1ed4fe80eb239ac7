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
 * Login attempts per minute, per client IP and per account (LOGIN_RATE_LIMIT), against password guessing from
 * one machine and against one account from many. Counters live in this process's memory: with several
 * instances each counts for itself, so the effective limit is N times higher (a shared store, e.g. Redis,
 * would fix that; see docs/configuration.md).
 */
export default fp(
  async function loginRateLimit(app: FastifyInstance, options: RateLimitPluginOptions) {
    await app.register(rateLimit, { global: false });

    const ipLimiter = app.createRateLimit({ max: options.perIp, timeWindow: WINDOW_MS, keyGenerator: (request) => `login-ip:${request.ip}` });
    const accountLimiter = app.createRateLimit({
      max: options.perAccount,
      timeWindow: WINDOW_MS,
      keyGenerator: (request) => `login-account:${normalizeEmail(emailOf(request))}`,
    });

    const enforce = async (check: (request: FastifyRequest) => ReturnType<typeof ipLimiter>, request: FastifyRequest) => {
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded) throw tooManyRequests(Math.max(1, result.ttlInSeconds));
    };
    app.decorate('loginRateLimit', {
      byIp: (request: FastifyRequest) => enforce(ipLimiter, request),
      byAccount: (request: FastifyRequest) => enforce(accountLimiter, request),
    });
  },
  { name: 'login-rate-limit', dependencies: ['errors'] },
);

function emailOf(request: FastifyRequest): string {
  const body = request.body as { email?: unknown } | undefined;
  return typeof body?.email === 'string' ? body.email : '';
}
