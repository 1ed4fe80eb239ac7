import type { z } from 'zod';
import type { AnyMutation } from '../../shared/mutations/mutation';

/**
 * The parts of a write route that come from its declaration (src/shared/mutations): method, URL, permission,
 * params and body schema. A route spreads them and adds only its OpenAPI texts, its answers and its handler:
 *
 *   app.route({ ...declaredRoute(updateNotification), schema: { ...declaredSchema(updateNotification), tags, summary, response }, handler })
 */
export function declaredRoute<M extends AnyMutation>(definition: M) {
  return { method: definition.method, url: definition.route, config: { permission: definition.permission } } as const;
}

export function declaredSchema<M extends AnyMutation>(definition: M): { params: M['params']; body: M['body'] } {
  return { params: definition.params, body: definition.body };
}

/** The parsed arguments of a declared route's request, as `apply` takes them. */
export function declaredArgs<M extends AnyMutation>(request: { params: unknown; body: unknown }): { params: z.output<M['params']>; body: z.output<M['body']> } {
  return { params: request.params as z.output<M['params']>, body: request.body as z.output<M['body']> };
}
