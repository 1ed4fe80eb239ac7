import { z } from 'zod';
import { langField } from '../../shared/api/fields';
import { apiErrorSchema } from '../../shared/api/errors';

export type ErrorCode = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 429 | 503;

/** The error answers a route can give, for its response schema and the OpenAPI document. */
export function errorResponses<const Codes extends readonly ErrorCode[]>(...codes: Codes) {
  return Object.fromEntries(codes.map((code) => [code, apiErrorSchema])) as { [K in Codes[number]]: typeof apiErrorSchema };
}

export const langQuerySchema = z.object({ lang: langField });
export const nodeidParamsSchema = z.object({ id: z.uuid() });
