import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthContext } from '../auth/auth-context';
import { createAccessTokenSigner } from '../auth/tokens';
import { batchCallerOf } from '../dispatch-context';
import { unauthorized } from '../http-errors';
import { loadAuthContext } from '../services/auth-service';

export interface AuthPluginOptions {
  jwtSecret: string;
  accessTokenTtl: number;
}

const INVALID_TOKEN = 'Access token invalid or expired';

/**
 * Bearer authentication for every /api route not marked `config.public`. The token only says who and which
 * tenant; the user, the profile's features and the organisation are loaded per request (one query over
 * primary keys, see loadAuthContext) instead of trusted from the token or cached, so deactivating a user or
 * changing a profile applies at once. The same query refuses a token whose session (`sid`, the refresh-token
 * family) has ended, so logout and refresh-token reuse end its access tokens at once, not at `exp`. A missing,
 * malformed, forged or expired token, a user who is no longer active or an ended session answers 401, on which
 * the client refreshes once and retries (spec part 1 §7).
 */
export default fp(
  async function auth(app: FastifyInstance, options: AuthPluginOptions) {
    const signer = createAccessTokenSigner(options.jwtSecret, options.accessTokenTtl);
    app.decorate('accessTokens', signer);
    // why null: set by the hook below before any handler of a protected route runs.
    app.decorateRequest('auth', null as unknown as AuthContext);

    app.addHook('onRequest', async (request) => {
      if (!requiresAuthentication(request)) return;
      // An entry of a sync batch: the batch's own request verified this token (its signature and expiry do not
      // change). The caller is loaded again, as for any request: a batch runs for seconds, and a logout, a
      // deactivation or a profile change meanwhile applies from the next entry on (one statement; the entry then
      // answers 401, which ends the batch).
      const batch = batchCallerOf(request.headers.authorization);
      if (batch) {
        const { usernodeid, legalentitynodeid, sid } = batch.auth;
        const caller = await loadAuthContext(app.serviceContext.db, { usernodeid, legalentitynodeid, ...(sid === null ? {} : { sid }) });
        if (!caller) throw unauthorized(INVALID_TOKEN);
        request.auth = caller;
        return;
      }
      const token = bearerToken(request.headers.authorization);
      if (!token) throw unauthorized();
      const claims = await signer.verify(token);
      if (!claims) throw unauthorized(INVALID_TOKEN);
      const caller = await loadAuthContext(app.serviceContext.db, claims);
      if (!caller) throw unauthorized(INVALID_TOKEN);
      request.auth = caller;
    });
  },
  { name: 'auth', dependencies: ['errors'] },
);

/**
 * Routes registered under /api that are not public. Unknown /api paths (no route, or only the static wildcard)
 * fall through to a JSON 404 instead of a 401.
 */
function requiresAuthentication(request: FastifyRequest): boolean {
  const url = request.routeOptions.url;
  return url !== undefined && url.startsWith('/api/') && request.routeOptions.config.public !== true;
}

function bearerToken(header: string | undefined): string | undefined {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}
