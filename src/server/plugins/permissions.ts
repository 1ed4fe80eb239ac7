import type { FastifyInstance } from 'fastify';
import type { RoutePermission } from '../fastify-types';
import fp from 'fastify-plugin';
import { can, permits, type FeatureKey } from '../../shared/permissions';
import { forbidden } from '../http-errors';
import { DOCS_PREFIX } from './swagger';

/**
 * Feature permissions of spec part 1 §6, enforced by the server. Each /api route declares
 * `config.permission` (or `config.public`); a route that forgets fails at startup instead of being open.
 * A route may name read flags the caller needs as well (`config.reads`; every declared write does, writeRoute:
 * `readsNeeded`), or a write's answer — the row — would show what the pull withholds (costs to someone without
 * `notification` read, say).
 * The check runs before validation, so a caller without the permission learns nothing about the input rules.
 */
export default fp(
  async function permissions(app: FastifyInstance) {
    const declared: DeclaredApiRoute[] = [];
    app.decorate('declaredRoutes', declared);
    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith('/api/')) return;
      // Swagger UI's own routes are marked public by its child context only after this hook has seen them.
      const isDocs = route.url === DOCS_PREFIX || route.url.startsWith(`${DOCS_PREFIX}/`);
      const methods = (Array.isArray(route.method) ? route.method : [route.method]).map(String);
      for (const method of methods) {
        declared.push({ method, url: route.url, ...(route.config?.public || isDocs ? { public: true } : {}), ...(route.config?.permission ? { permission: route.config.permission } : {}), ...(route.config?.reads?.length ? { reads: route.config.reads } : {}) });
      }
      if (route.config?.public || isDocs) return;
      if (!route.config?.permission) {
        throw new Error(`${String(route.method)} ${route.url}: declare config.permission or config.public`);
      }
    });

    app.addHook('preValidation', async (request) => {
      const { permission, reads, public: isPublic } = request.routeOptions.config;
      if (!permission || isPublic) return;
      if (reads && !reads.every((feature) => can(request.auth, feature, 'read'))) throw forbidden();
      if (permission === 'authenticated') return;
      const allowed = permission === 'admin' ? request.auth.admin : permits(request.auth, permission);
      if (!allowed) throw forbidden();
    });
  },
  { name: 'permissions', dependencies: ['auth'] },
);

/** One /api route as registered, with what it declared: the authorization matrix test walks every one of them. */
export interface DeclaredApiRoute {
  method: string;
  url: string;
  public?: true;
  permission?: RoutePermission;
  /** Read flags the caller needs besides the permission (config.reads). */
  reads?: readonly FeatureKey[];
}
