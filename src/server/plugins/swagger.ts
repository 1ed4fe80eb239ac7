import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

export interface SwaggerPluginOptions {
  version: string;
}

export const DOCS_PREFIX = '/api/docs';

/**
 * The OpenAPI 3 document, generated from the zod schemas of the routes, and Swagger UI at /api/docs
 * (document at /api/docs/json). Every /api route must carry a response schema; one that doesn't fails at
 * startup. Routes are bearer-protected unless public, which the document states per operation.
 */
export default fp(
  async function openApi(app: FastifyInstance, options: SwaggerPluginOptions) {
    app.addHook('onRoute', (route) => {
      if (route.url.startsWith('/api/') && !route.schema?.hide && !route.schema?.response) {
        throw new Error(`${String(route.method)} ${route.url}: declare a response schema`);
      }
    });

    const zodTransform = createJsonSchemaTransform({ skipList: [] });
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'Anlagenbuch API',
          version: options.version,
          description: 'Maintenance of industrial plants. Conventions, authentication and errors: docs/api.md.',
        },
        components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
        security: [{ bearerAuth: [] }],
      },
      transform: (input) => {
        const output = zodTransform(input);
        if (input.route.config?.public) return { ...output, schema: { ...output.schema, security: [] } };
        return output;
      },
      transformObject: jsonSchemaTransformObject,
    });

    // why a child context: its onRoute hook marks only Swagger UI's own routes public.
    await app.register(async (docs) => {
      docs.addHook('onRoute', (route) => {
        route.config = { ...route.config, public: true };
      });
      await docs.register(swaggerUi, { routePrefix: DOCS_PREFIX });
    });
  },
  { name: 'swagger', dependencies: ['errors'] },
);
