import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { dispatchContext } from '../dispatch-context';

/**
 * TEST ONLY. Faults the sync tests drive the real server into, over a real port (docs/sync.md § Fault
 * injection). Registered by buildApp only when it is handed a FaultInjector; nothing in the environment can
 * enable it.
 *
 * - `delay-before-commit`: the write's transaction waits `delayMs` before it commits (locks held).
 * - `fail-before-commit`: the write's transaction throws just before commit: everything rolls back, 500.
 * - `fail-after-commit`: the write commits, then the client gets a 500 instead of the answer.
 * - `drop-after-commit`: the write commits, then the connection is destroyed: the answer is lost.
 * - `delay-after-commit`: the write commits, then its answer waits `delayMs` (no lock held: other requests run
 *   meanwhile; inside a batch, the next entry waits).
 *
 * "Before commit" runs in the ServiceContext's beforeCommit of the first write transaction of the request (for a
 * request with a mutation id, that transaction is nested in the mutation log's, which is still open).
 */
export type FaultKind = 'delay-before-commit' | 'fail-before-commit' | 'fail-after-commit' | 'drop-after-commit' | 'delay-after-commit';

export interface FaultRule {
  kind: FaultKind;
  /** Only requests with this method (default: any write). */
  method?: string;
  /** Only requests whose path matches (default: any). */
  path?: string | RegExp;
  /** How many matching requests it hits (default 1). */
  times?: number;
  delayMs?: number;
}

export interface ActiveFault {
  kind: FaultKind;
  delayMs: number;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export class InjectedFault extends Error {
  constructor(kind: FaultKind) {
    super(`injected fault: ${kind}`);
    this.name = 'InjectedFault';
  }
}

/** The test's handle: arm faults, see which fired. */
export class FaultInjector {
  private rules: (FaultRule & { remaining: number })[] = [];
  readonly fired: { kind: FaultKind; method: string; path: string }[] = [];

  inject(rule: FaultRule): this {
    this.rules.push({ ...rule, remaining: rule.times ?? 1 });
    return this;
  }

  clear(): void {
    this.rules = [];
    this.fired.length = 0;
  }

  /** The fault for this request, if an armed rule matches; consumes one of its hits. */
  take(method: string, path: string): ActiveFault | undefined {
    const rule = this.rules.find((r) => r.remaining > 0 && matches(r, method, path));
    if (!rule) return undefined;
    rule.remaining -= 1;
    this.fired.push({ kind: rule.kind, method, path });
    return { kind: rule.kind, delayMs: rule.delayMs ?? 0 };
  }
}

function matches(rule: FaultRule, method: string, path: string): boolean {
  if (rule.method ? rule.method.toUpperCase() !== method : !WRITE_METHODS.has(method)) return false;
  if (rule.path === undefined) return true;
  return typeof rule.path === 'string' ? rule.path === path : rule.path.test(path);
}

export interface FaultInjectionOptions {
  injector: FaultInjector;
}

export default fp(
  async function faultInjection(app: FastifyInstance, options: FaultInjectionOptions) {
    const { injector } = options;
    app.decorateRequest('fault', undefined);

    app.addHook('onRequest', async (request) => {
      // The batch itself is no write: its entries, each a request of its own, meet the faults.
      if (request.routeOptions.config.dispatchesWrites) return;
      request.fault = injector.take(request.method, request.url.split('?')[0] ?? request.url);
    });

    app.addHook('preHandler', async (request) => {
      const fault = request.fault;
      if (!fault || (fault.kind !== 'delay-before-commit' && fault.kind !== 'fail-before-commit')) return;
      const ctx = request.serviceContext;
      let done = false;
      request.serviceContext = {
        ...ctx,
        beforeCommit: async (operation) => {
          if (!done) {
            done = true;
            if (fault.kind === 'fail-before-commit') throw new InjectedFault(fault.kind);
            await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
          }
          await ctx.beforeCommit?.(operation);
        },
      };
    });

    // why per route, appended in onRoute: route onSend hooks run after global ones, and this one must run after
    // the mutation log's (which may still commit an early 4xx in its own onSend).
    app.addHook('onRoute', (route) => {
      const existing = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
      route.onSend = [...existing, afterCommit];
    });

    async function afterCommit(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
      const fault = request.fault;
      if (!fault || reply.statusCode >= 500) return payload;
      if (fault.kind === 'drop-after-commit') {
        // An entry of a batch has no connection (inject): the batch's answer is lost instead.
        (dispatchContext.getStore()?.socket ?? request.raw.socket)?.destroy();
        return payload;
      }
      if (fault.kind === 'delay-after-commit') {
        await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
        return payload;
      }
      if (fault.kind === 'fail-after-commit') {
        reply.code(500).type('application/json; charset=utf-8');
        return JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' });
      }
      return payload;
    }
  },
  { name: 'fault-injection', dependencies: ['errors'] },
);
