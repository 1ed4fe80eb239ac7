import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions, type RawServerDefault } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import compress, { type FastifyCompressOptions } from '@fastify/compress';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants as zlibConstants } from 'node:zlib';
import { createRequire } from 'node:module';
import { readOrCreateJwtSecret, type Config } from './config';
import type { Database } from './db/client';
import './fastify-types';
import authPlugin from './plugins/auth';
import { logMethodHook, logSerializers, maskUrl } from './logging';
import errorsPlugin from './plugins/errors';
import { createVersionedAnswers } from './routes/versioned-answer';
import answerCompressionPlugin, { type AnswerCompressionOptions } from './plugins/answer-compression';
import bodyTimeoutPlugin from './plugins/body-timeout';
import inputHygienePlugin from './plugins/input-hygiene';
import faultInjectionPlugin, { type FaultInjector } from './plugins/fault-injection';
import mutationLogPlugin from './plugins/mutation-log';
import permissionsPlugin from './plugins/permissions';
import rateLimitPlugin from './plugins/rate-limit';
import securityHeadersPlugin from './plugins/security-headers';
import staticClientPlugin from './plugins/static-client';
import swaggerPlugin from './plugins/swagger';
import { scheduleFileCleanup } from './jobs/file-cleanup';
import { scheduleKeptAnswersLog } from './jobs/kept-answers-log';
import { scheduleMailWorker } from './mail/worker';
import areaRoutes from './routes/areas/index';
import assignRoutes from './routes/assign/index';
import attachmentRoutes from './routes/attachments/index';
import catalogRoutes from './routes/catalog/index';
import authRoutes from './routes/auth/index';
import chatRoomRoutes from './routes/chatrooms/index';
import costRoutes from './routes/costs/index';
import counterRoutes from './routes/counters/index';
import equipmentHistoryRoutes from './routes/equipment-history/index';
import equipmentPoolRoutes from './routes/equipmentpools/index';
import equipmentRoutes from './routes/equipments/index';
import faqRoutes from './routes/faqs/index';
import workflowRoutes from './routes/workflows/index';
import fileRoutes from './routes/files/index';
import healthRoutes from './routes/health/index';
import notificationRoutes from './routes/notifications/index';
import notificationListRoutes from './routes/notifications/lists';
import notificationShareRoutes from './routes/notifications/share';
import profileRoutes from './routes/profiles/index';
import shiftModelRoutes from './routes/shiftmodels/index';
import siteRoutes from './routes/sites/index';
import structureRoutes from './routes/structure/index';
import subscriptionRoutes from './routes/subscriptions/index';
import syncRoutes, { type SyncRoutesOptions } from './routes/sync/index';
import userRoutes from './routes/users/index';
import type { ServiceContext } from './services/service-context';
import { createFileStorage, createFileUrlSigner } from './storage/file-storage';

export interface BuildAppOptions {
  config: Config;
  /** An open, migrated database (src/server/db/client.ts). The app does not close it. */
  database: Database;
  /**
   * Human-readable, quiet logs for a person at a terminal (main.ts: LOG_FORMAT, else whether stdout is one): no line
   * per request at info (LOG_LEVEL=debug shows one short line each), no "Server listening" (the banner says it).
   * Needs pino-pretty (a dev dependency); without it the lines stay JSON.
   */
  prettyLogs?: boolean;
  /**
   * Test-only fault injection: runs inside every write transaction just before it commits; throwing rolls the
   * whole write back. Never set in production (see ServiceContext).
   */
  beforeCommit?: ServiceContext['beforeCommit'];
  /**
   * Test-only fault injection for the sync tests (plugins/fault-injection.ts): lost answers, 5xx before and after
   * commit, delayed commits. Only a test can pass it; no environment variable enables it.
   */
  faults?: FaultInjector;
  /** Test-only: lower budgets for one sync batch (routes/sync, SYNC_BATCH_BUDGET), to drive a batch answered in part. */
  syncBatchBudget?: SyncRoutesOptions['batchBudget'];
}

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

/**
 * Brotli or gzip by the client's Accept-Encoding, for JSON answers of 1 KB and more. Brotli at quality 1 and gzip
 * at level 1: the cheapest CPU per answer, and still 7–8× smaller; higher levels cost more server CPU than the
 * bytes they save take to send (figures in docs/decisions.md). A route opts out with `config.compress: false`.
 */
export const API_COMPRESSION: FastifyCompressOptions = {
  globalCompression: true,
  globalDecompression: false,
  encodings: ['br', 'gzip'],
  threshold: 1024,
  brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1, [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT } },
  zlibOptions: { level: 1 },
};

/**
 * The same choice for every JSON answer, compressed in one call (plugins/answer-compression.ts); API_COMPRESSION
 * above stays for whatever that leaves alone (a streamed answer). Up to 64 KB on the event loop, longer in the pool.
 */
export const ANSWER_COMPRESSION: AnswerCompressionOptions = {
  encodings: ['br', 'gzip'],
  threshold: API_COMPRESSION.threshold!,
  brotliQuality: 1,
  gzipLevel: 1,
  inlineLimit: 64 * 1024,
};

export const APP_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** What must never reach a log line: credentials in headers and in request or response bodies. */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.actualPassword',
  '*.token',
  '*.devicesecret',
  '*.accesstoken',
  '*.refreshtoken',
  '*.authorization',
];

/**
 * A request target in absolute form (`GET http://host/api/sites`, valid HTTP/1.1) as its path and query. The router
 * matches either, but everything after it reads `request.url` as a path: such a request got no `no-store` on its
 * tenant data and the app's HTML for an unknown API path.
 */
export function originFormUrl(request: { url?: string }): string {
  const url = request.url ?? '/';
  if (url.startsWith('/')) return url;
  if (!/^https?:\/\//i.test(url)) return url;
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

/**
 * The configured Fastify instance, not listening: main.ts listens on it, tests call `inject`. Plugins come
 * first (errors, security headers, auth, permissions, rate limit, OpenAPI), then the routes under /api, then the static client
 * with its SPA fallback.
 */
export async function buildApp(options: BuildAppOptions): Promise<App> {
  const { config, database } = options;
  const jwtSecret = config.jwtSecret ?? (await readOrCreateJwtSecret(config.dataDir));

  const pretty = (options.prettyLogs ?? false) && isInstalled('pino-pretty');
  const app: App = Fastify({
    logger: loggerOptions(config, pretty),
    ...(pretty ? { logController: new QuietRequestLog() } : {}),
    trustProxy: config.trustProxy,
    // why: a request dripping in (a byte every few seconds) otherwise holds its connection forever (408 past it).
    requestTimeout: config.requestTimeoutMs,
    // why: the specification writes some paths with a trailing slash (`GET /getlebrty/`); both spellings are one route.
    routerOptions: { ignoreTrailingSlash: true },
    rewriteUrl: originFormUrl,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('serviceContext', { db: database.db, kind: database.kind, beforeCommit: options.beforeCommit });
  app.decorate('fileStorage', createFileStorage(config));
  app.decorate('versionedAnswers', createVersionedAnswers());
  app.addHook('onClose', async () => app.fileStorage.close());
  app.decorate('fileUrls', createFileUrlSigner(jwtSecret));
  scheduleFileCleanup(app);
  scheduleMailWorker(app);
  scheduleKeptAnswersLog(app);
  // why a getter: Fastify forbids reference-type request decorators; each request starts on the app's context.
  app.decorateRequest('serviceContext', {
    getter(this: FastifyRequest) {
      return (this as unknown as { ownServiceContext?: ServiceContext }).ownServiceContext ?? app.serviceContext;
    },
    setter(this: FastifyRequest, value: ServiceContext) {
      (this as unknown as { ownServiceContext?: ServiceContext }).ownServiceContext = value;
    },
  });

  // A refused request (401, 404, 400) is the caller's business: on a terminal not worth a line at info.
  await app.register(errorsPlugin, { rejectionLogLevel: pretty ? 'debug' : 'info' });
  // First among the hooks, so every answer carries the headers, even a 401, a 404 or a rate-limit 429.
  await app.register(securityHeadersPlugin);
  await app.register(inputHygienePlugin);
  await app.register(bodyTimeoutPlugin, { timeoutMs: config.requestBodyTimeoutMs });
  await app.register(authPlugin, { jwtSecret, accessTokenTtl: config.accessTokenTtl });
  await app.register(permissionsPlugin);
  await app.register(mutationLogPlugin);
  if (options.faults) await app.register(faultInjectionPlugin, { injector: options.faults });
  await app.register(rateLimitPlugin, config.loginRateLimit);
  await app.register(swaggerPlugin, { version: APP_VERSION });

  await app.register(
    async (api) => {
      // Compressed API answers (docs/api.md § Compression): only inside /api, so the static client's precompressed
      // files are never compressed twice; request bodies are not decompressed (the body limits count what arrives).
      await api.register(answerCompressionPlugin, ANSWER_COMPRESSION);
      await api.register(compress, API_COMPRESSION);
      await api.register(healthRoutes, { version: APP_VERSION });
      await api.register(authRoutes);
      await api.register(profileRoutes);
      await api.register(userRoutes);
      await api.register(chatRoomRoutes);
      await api.register(structureRoutes);
      await api.register(subscriptionRoutes);
      await api.register(siteRoutes);
      await api.register(areaRoutes);
      await api.register(equipmentPoolRoutes);
      await api.register(shiftModelRoutes);
      await api.register(assignRoutes);
      await api.register(catalogRoutes);
      await api.register(equipmentRoutes);
      await api.register(equipmentHistoryRoutes);
      await api.register(syncRoutes, { batchBudget: options.syncBatchBudget });
      await api.register(notificationRoutes);
      await api.register(notificationShareRoutes);
      await api.register(notificationListRoutes);
      await api.register(counterRoutes);
      await api.register(fileRoutes);
      await api.register(attachmentRoutes);
      await api.register(faqRoutes);
      await api.register(workflowRoutes);
      await api.register(costRoutes);
    },
    { prefix: '/api' },
  );

  await app.register(staticClientPlugin, { clientDist: config.clientDist });
  return app;
}

/** Logs for a person: one short line per request at debug instead of two JSON lines at info; failures stay errors. */
class QuietRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ err: error }, 'request errored');
    else request.log.debug(`${request.method} ${maskUrl(request.url)} ${reply.statusCode} ${Math.round(reply.elapsedTime)} ms`);
  }
}

function loggerOptions(config: Config, pretty: boolean): FastifyServerOptions['logger'] {
  const base = { level: config.logLevel, redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' }, serializers: logSerializers };
  // why quietListening with pretty: Fastify logs "Server listening at …" per address; the start banner says where.
  const hooks = { logMethod: logMethodHook(pretty) };
  if (!pretty) return { ...base, hooks };
  return {
    ...base,
    transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname,reqId', singleLine: true } },
    hooks,
  };
}

function isInstalled(name: string): boolean {
  try {
    createRequire(import.meta.url).resolve(name);
    return true;
  } catch {
    return false;
  }
}
