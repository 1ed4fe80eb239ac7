import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loginRequestSchema, logoutRequestSchema, refreshRequestSchema, refreshResponseSchema, sessionSchema } from '../../../shared/api/auth';
import { login, logout, refresh, type TokenSettings } from '../../services/auth-service';
import { errorResponses } from '../responses';

/** The largest body a route without a login takes (a login, a refresh token): generous for long passwords and e-mails. */
const PUBLIC_BODY_LIMIT = 16 * 1024;

/**
 * Login, token refresh and logout (spec part 2 §4 "Login result", "Token refresh"; docs/api.md § Auth).
 * The refresh path is the spec's: /api/object/refresh-token.
 */
const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const tokens: TokenSettings = { signer: app.accessTokens, refreshTokenTtlDays: app.config.refreshTokenTtlDays };

  app.post('/auth/login', {
    config: { public: true },
    // A login is a few hundred bytes: a bigger body is refused at its headers (413), before it is read or parsed.
    bodyLimit: PUBLIC_BODY_LIMIT,
    onRequest: app.loginRateLimit.byIp,
    preHandler: app.loginRateLimit.byAccountAndClient,
    onResponse: async (request, reply) => {
      app.loginRateLimit.settle(request, reply.statusCode === 401);
    },
    schema: {
      tags: ['auth'],
      summary: 'Log in with e-mail and password; answers the session payload',
      body: loginRequestSchema,
      response: { 200: sessionSchema, ...errorResponses(400, 401, 403, 429) },
    },
    handler: async (request) => {
      const session = await login(request.serviceContext, tokens, request.body, { accountBlockedForSeconds: app.loginRateLimit.accountBlockedFor(request) });
      // Only a configured PUBLIC_URL: the localhost default would make every sticker point at the server's own machine.
      return { ...session, baseinfo: { ...session.baseinfo, ...(app.config.publicUrlSet && { publicurl: app.config.publicUrl }) } };
    },
  });

  app.post('/object/refresh-token', {
    config: { public: true },
    bodyLimit: PUBLIC_BODY_LIMIT,
    schema: {
      tags: ['auth'],
      summary: 'Exchange a refresh token for a new access and refresh token (rotation), from the device the login was bound to',
      body: refreshRequestSchema,
      response: { 200: refreshResponseSchema, ...errorResponses(400, 401) },
    },
    handler: (request) => refresh(request.serviceContext, tokens, request.body),
  });

  app.post('/auth/logout', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['auth'],
      summary: 'End the session of the access token used and of the given refresh token (their token families); their access tokens stop working at once',
      body: logoutRequestSchema.nullish(),
      response: { 204: z.undefined(), ...errorResponses(400, 401) },
    },
    handler: async (request, reply) => {
      await logout(request.serviceContext, request.auth, request.body?.token);
      return reply.code(204).send();
    },
  });
};

export default authRoutes;
