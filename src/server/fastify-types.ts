import type { FeatureKey, Permission } from '../shared/permissions';
import type { AuthContext } from './auth/auth-context';
import type { AccessTokenSigner } from './auth/tokens';
import type { Config } from './config';
import type { Database } from './db/client';
import type { AnswerCompression } from './plugins/answer-compression';
import type { ActiveFault } from './plugins/fault-injection';
import type { DeclaredApiRoute } from './plugins/permissions';
import type { PendingMutation } from './plugins/mutation-log';
import type { VersionedAnswers } from './routes/versioned-answer';
import type { ServiceContext } from './services/service-context';
import type { FileStorage, FileUrlSigner } from './storage/file-storage';

/**
 * Who may call a route (plugins/permissions.ts): any signed-in user ('authenticated', for routes that check
 * ownership themselves), only admins, or holders of a feature flag of spec part 1 §6.
 */
export type RoutePermission = 'authenticated' | 'admin' | Permission;

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    serviceContext: ServiceContext;
    accessTokens: AccessTokenSigner;
    /** Bytes of uploaded files (storage/file-storage.ts). */
    fileStorage: FileStorage;
    /** Signs and checks the expiring file URLs. */
    fileUrls: FileUrlSigner;
    /** The API answers' compression choice and compressor (plugins/answer-compression.ts). */
    answerCompression: AnswerCompression;
    /** GET answers kept per tenant change state (routes/versioned-answer.ts). */
    versionedAnswers: VersionedAnswers;
    /** Every /api route with its declared permission, in registration order (plugins/permissions.ts). */
    declaredRoutes: readonly DeclaredApiRoute[];
    /**
     * Whether `method path` (no query string) reaches a write the mutation log wraps: authenticated, not a session
     * route, not streaming its body (plugins/mutation-log.ts). What `POST /api/sync/batch` may run.
     */
    isLoggedWritePath(method: string, path: string): boolean;
    loginRateLimit: {
      /** onRequest hook: attempts per client IP. */
      byIp(request: FastifyRequest): Promise<void>;
      /** preHandler hook (after validation): failed attempts per e-mail address and client, those being checked included. */
      byAccountAndClient(request: FastifyRequest): Promise<void>;
      /** Seconds the request's account is limited for (failed attempts from anywhere), 0 when it is not. */
      accountBlockedFor(request: FastifyRequest): number;
      /** The attempt answered: no longer being checked, and counted as a failure (401) or not. */
      settle(request: FastifyRequest, failed: boolean): void;
    };
  }

  interface FastifyRequest {
    /** The caller; set by plugins/auth.ts on every /api route that is not public. */
    auth: AuthContext;
    /**
     * The service context for this request. Handlers pass it to services instead of the app-wide one, so a
     * plugin can bind a request's work to a transaction it opened (the offline mutation log, issue #3).
     */
    serviceContext: ServiceContext;
    /** The caller's device (X-Client-Id), once registered (plugins/mutation-log.ts). */
    syncClientId: string | undefined;
    /** Set when a write carries X-Client-Id + X-Mutation-Id (plugins/mutation-log.ts). */
    mutation: PendingMutation | undefined;
    /** Test-only: the fault chosen for this request (plugins/fault-injection.ts). */
    fault: ActiveFault | undefined;
  }

  interface FastifyContextConfig {
    /** No bearer token needed (health, login, refresh, docs). */
    public?: boolean;
    /** Required on every non-public /api route; checked before validation. */
    permission?: RoutePermission;
    /**
     * Read flags the caller needs besides the permission, checked with it: a declared write's `readsNeeded` (its
     * answer is the row it wrote), a read's kind as the pull has it.
     */
    reads?: readonly FeatureKey[];
    /**
     * The handler reads the raw request stream itself (a file upload) and commits in transactions of its own: it
     * is not wrapped in one transaction with its answer (plugins/mutation-log.ts), since that transaction would
     * stay open — on PGlite, hold the only connection — while the bytes arrive. Such a route must be idempotent.
     */
    streamsBody?: boolean;
    /**
     * The handler runs other routes' requests through the app, each with its own transaction and mutation log
     * entry (`POST /api/sync/batch`): not wrapped in a transaction itself, and not a logged write.
     */
    dispatchesWrites?: boolean;
    /**
     * The handler works on the caller's mutation log itself, in a transaction of its own (`POST /api/sync/set-aside`):
     * not wrapped, not a logged write, and never run inside a batch.
     */
    ownsMutationLog?: boolean;
  }
}
