import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { deleteResultSchema } from '../../shared/api/fields';
import { readsNeeded, type AnyMutation, type MutationParsed } from '../../shared/mutations/mutation';
import { rowSchemaOf } from '../../shared/rows/registry';
import type { AuthContext } from '../auth/auth-context';
import type { ServiceContext } from '../services/service-context';
import { assertBodyIdMatches } from '../services/structure-common';
import { errorResponses, type ErrorCode } from './responses';

/**
 * The parts of a write route that come from its declaration (src/shared/mutations): method, URL, permission, and
 * the read flags it needs besides (`readsNeeded`; plugins/permissions.ts, and `mayRun` on the device).
 */
function declaredRoute<M extends AnyMutation>(definition: M) {
  return { method: definition.method, url: definition.route, config: { permission: definition.permission, reads: readsNeeded(definition) } } as const;
}

/** …and its params and body schema. */
function declaredSchema<M extends AnyMutation>(definition: M): { params: M['params']; body: M['body'] } {
  return { params: definition.params, body: definition.body };
}

export interface WriteRouteOptions<M extends AnyMutation> {
  tags: string[];
  summary: string;
  /** 201 where the route always makes the row; default 200. */
  status?: 200 | 201;
  /** Default: the kind's row as the change feed sends it (src/shared/rows), `{nodeid, version}` for a delete. */
  answer?: z.ZodType;
  errors: readonly ErrorCode[];
  /** The body's field that repeats the path's id (the spec's payloads carry both): when sent, it must be the same (400). */
  bodyId?: string;
  /**
   * The service call, with the request's context (bound to the mutation log's transaction), caller and parsed
   * input; the request itself for what only it knows (the address the caller reached the server at).
   */
  handler(context: ServiceContext, actor: AuthContext, args: MutationParsed<M>, request: FastifyRequest): Promise<unknown>;
}

/** The id the path names (`/:id` or `/:nodeid`). */
const pathIdOf = (params: { id?: string; nodeid?: string }): string => params.id ?? params.nodeid ?? '';

/**
 * Registers the write route of a declaration: what the declaration says, the route's OpenAPI texts, its error
 * answers and the service call. Its answer is what the device puts into its mirror, so by default the schema is
 * the kind's row; a route that answers something else (a list, a record with its readings) names it.
 */
export function writeRoute<M extends AnyMutation>(app: Parameters<FastifyPluginAsyncZod>[0], definition: M, options: WriteRouteOptions<M>): void {
  const status = options.status ?? 200;
  const answer = options.answer ?? (definition.deletes ? deleteResultSchema : rowSchemaOf(definition.kind));
  const run = async (request: FastifyRequest) => {
    // why the cast: the declaration's schemas validated params and body before the handler runs.
    const args = { params: request.params, body: request.body } as MutationParsed<M>;
    const { bodyId } = options;
    if (bodyId) assertBodyIdMatches(bodyId, (args.body as Record<string, string | undefined> | null | undefined)?.[bodyId], pathIdOf(args.params as { id?: string; nodeid?: string }));
    return options.handler(request.serviceContext, request.auth, args, request);
  };
  const response: Record<number, z.ZodType> = { [status]: answer, ...errorResponses(...options.errors) };
  app.route({
    ...declaredRoute(definition),
    schema: { ...declaredSchema(definition), tags: options.tags, summary: options.summary, response },
    handler: status === 201 ? async (request, reply) => reply.code(201).send(await run(request)) : run,
  });
}
