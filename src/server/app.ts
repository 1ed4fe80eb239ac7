import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest, type FastifyServerOptions, type RawServerDefault } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { readOrCreateJwtSecret, type Config } from './config';
import type { Database } from './db/client';
import './fastify-types';
import authPlugin from './plugins/auth';
import { logSerializers } from './logging';
import errorsPlugin from './plugins/errors';
import inputHygienePlugin from './plugins/input-hygiene';
import faultInjectionPlugin, { type FaultInjector } from './plugins/fault-injection';
import mutationLogPlugin from './plugins/mutation-log';
import permissionsPlugin from './plugins/permissions';
import rateLimitPlugin from './plugins/rate-limit';
import staticClientPlugin from './plugins/static-client';
import swaggerPlugin from './plugins/swagger';
import { scheduleFileCleanup } from './jobs/file-cleanup';
import areaRoutes from './routes/areas/index';
import assignRoutes from './routes/assign/index';
import attachmentRoutes from './routes/attachments/index';
import catalogRoutes from './routes/catalog/index';
import authRoutes from './routes/auth/index';
import chatRoomRoutes from './routes/chatrooms/index';
import counterRoutes from './routes/counters/index';
import equipmentPoolRoutes from './routes/equipmentpools/index';
import equipmentRoutes from './routes/equipments/index';
import fileRoutes from './routes/files/index';
import healthRoutes from './routes/health/index';
import notificationRoutes from './routes/notifications/index';
import profileRoutes from './routes/profiles/index';
import shiftModelRoutes from './routes/shiftmodels/index';
import siteRoutes from './routes/sites/index';
import structureRoutes from './routes/structure/index';
import subscriptionRoutes from './routes/subscriptions/index';
import syncRoutes from './routes/sync/index';
import userRoutes from './routes/users/index';
import type { ServiceContext } from './services/service-context';
import { createFileStorage, createFileUrlSigner } from './storage/file-storage';

export interface BuildAppOptions {
  config: Config;
  /** An open, migrated database (src/server/db/client.ts). The app does not close it. */
  database: Database;
  /** Human-readable logs (main.ts on a terminal, when pino-pretty is installed). */
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
}

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

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
  '*.accesstoken',
  '*.refreshtoken',
  '*.authorization',
];

/**
 * The configured Fastify instance, not listening: main.ts listens on it, tests call `inject`. Plugins come
 * first (errors, auth, permissions, rate limit, OpenAPI), then the routes under /api, then the static client
 * with its SPA fallback.
 */
export async function buildApp(options: BuildAppOptions): Promise<App> {
  const { config, database } = options;
  const jwtSecret = config.jwtSecret ?? (await readOrCreateJwtSecret(config.dataDir));

  const app: App = Fastify({
    logger: loggerOptions(config, options.prettyLogs ?? false),
    trustProxy: config.trustProxy,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('serviceContext', { db: database.db, kind: database.kind, beforeCommit: options.beforeCommit });
  app.decorate('fileStorage', createFileStorage(config.dataDir));
  app.decorate('fileUrls', createFileUrlSigner(jwtSecret));
  scheduleFileCleanup(app);
  // why a getter: Fastify forbids reference-type request decorators; each request starts on the app's context.
  app.decorateRequest('serviceContext', {
    getter(this: FastifyRequest) {
      return (this as unknown as { ownServiceContext?: ServiceContext }).ownServiceContext ?? app.serviceContext;
    },
    setter(this: FastifyRequest, value: ServiceContext) {
      (this as unknown as { ownServiceContext?: ServiceContext }).ownServiceContext = value;
    },
  });

  await app.register(errorsPlugin);
  await app.register(inputHygienePlugin);
  await app.register(authPlugin, { jwtSecret, accessTokenTtl: config.accessTokenTtl });
  await app.register(permissionsPlugin);
  await app.register(mutationLogPlugin);
  if (options.faults) await app.register(faultInjectionPlugin, { injector: options.faults });
  await app.register(rateLimitPlugin, config.loginRateLimit);
  await app.register(swaggerPlugin, { version: APP_VERSION });

  await app.register(
    async (api) => {
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
      await api.register(syncRoutes);
      await api.register(notificationRoutes);
      await api.register(counterRoutes);
      await api.register(fileRoutes);
      await api.register(attachmentRoutes);
    },
    { prefix: '/api' },
  );

  await app.register(staticClientPlugin, { clientDist: config.clientDist });
  return app;
}

function loggerOptions(config: Config, pretty: boolean): FastifyServerOptions['logger'] {
  const base = { level: config.logLevel, redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' }, serializers: logSerializers };
  if (pretty && isInstalled('pino-pretty')) {
    return { ...base, transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } };
  }
  return base;
}

function isInstalled(name: string): boolean {
  try {
    createRequire(import.meta.url).resolve(name);
    return true;
  } catch {
    return false;
  }
}
