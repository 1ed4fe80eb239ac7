import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest, type ErrorDetail } from '../http-errors';

/**
 * PostgreSQL cannot store the NUL character in text (error 22P05, which names no column). Rejecting it here,
 * for every route and before validation, turns that into a 400 naming the field, as for any other bad input.
 */
export default fp(
  async function inputHygiene(app: FastifyInstance) {
    app.addHook('preValidation', async (request) => {
      const details = [...nulFields(request.body, ''), ...nulFields(request.query, 'query')];
      if (details.length > 0) throw badRequest('Text must not contain NUL characters', details);
    });
  },
  { name: 'input-hygiene' },
);

/** Paths (`items.2.title`) of every string under `value` that holds a NUL character. */
export function nulFields(value: unknown, path: string): ErrorDetail[] {
  if (typeof value === 'string') return value.includes('\u0000') ? [{ field: path || '(body)', message: 'Must not contain NUL characters' }] : [];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => nulFields(child, path ? `${path}.${key}` : key));
}
