import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { S3Settings } from './storage/s3-storage';

/**
 * Server settings, all from environment variables (docs/configuration.md). `loadConfig` is pure over its `env`
 * argument so tests can check every rule; the only file access (the generated JWT secret) is in
 * `readOrCreateJwtSecret`, called when the app is built.
 */
export interface Config {
  port: number;
  host: string;
  /** Absolute path; holds the embedded database (db/), files, the generated JWT secret. */
  dataDir: string;
  /** postgres://… selects a PostgreSQL server; undefined means PGlite in `dataDir/db`. */
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** Undefined: generated once into `dataDir/jwt-secret` (see readOrCreateJwtSecret). */
  jwtSecret: string | undefined;
  /** Access-token lifetime in seconds. */
  accessTokenTtl: number;
  refreshTokenTtlDays: number;
  /** Without trailing slash. */
  publicUrl: string;
  /**
   * Whether PUBLIC_URL was set. Only then do clients get it for service stickers: the default
   * http://localhost:PORT names the server's own machine, which no tablet reaches; without it the client uses the
   * address its browser reached the app at.
   */
  publicUrlSet: boolean;
  logLevel: LogLevel;
  /** `auto`: readable lines on a terminal, JSON otherwise (a service manager, a container, a file). */
  logFormat: LogFormat;
  /** Passed to Fastify's trustProxy: boolean, or a comma-separated list of proxy addresses (IP or CIDR). */
  trustProxy: boolean | string;
  /** Login attempts per minute, per client IP and per account (e-mail). */
  loginRateLimit: { perIp: number; perAccount: number };
  /** Absolute path of the built client. */
  clientDist: string;
  seedDemo: boolean;
  /** Days a delete's tombstone is kept for devices that have not pulled it yet (docs/sync.md). */
  tombstoneRetentionDays: number;
  /** Largest file an upload may carry, in bytes (PUT of a signed upload URL). */
  fileMaxBytes: number;
  /** Bytes one user may register and upload within 24 hours (over it: 413). */
  uploadQuotaBytesPerDay: number;
  /** File registrations, and separately content uploads, per user and minute, per instance (over it: 429). */
  uploadRatePerMinute: number;
  /** Milliseconds a JSON body may take to arrive after its headers (over it: 408 and the connection closed). */
  requestBodyTimeoutMs: number;
  /** Milliseconds any request may take to arrive whole, a file's bytes included (Node's requestTimeout: 408). */
  requestTimeoutMs: number;
  /** Set: file bytes go to this S3 bucket; undefined: to the local disk under `dataDir/files`. */
  s3: S3Settings | undefined;
  /** smtp:// or smtps:// URL of the mail server; undefined: mails are written as .eml files into `dataDir/mail`. */
  smtpUrl: string | undefined;
  /** The From address of mails the server sends. */
  mailFrom: string;
  /** Notification shares (e-mails) one user may queue per hour (over it: 429). */
  shareRatePerHour: number;
  /** New devices (X-Client-Id) one user may register in 24 hours (over it: 429; known devices are never refused). */
  newDevicesPerDay: number;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['auto', 'pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Whether log lines are written for a person (pretty) or for a machine (JSON). */
export function prettyLogs(format: LogFormat, terminal: boolean): boolean {
  return format === 'pretty' || (format === 'auto' && terminal);
}

export const JWT_SECRET_MIN_LENGTH = 32;
export const JWT_SECRET_FILE = 'jwt-secret';

/** Thrown by loadConfig; the message names every bad variable, so main can print it and exit 1. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly { variable: string; message: string }[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p.variable}: ${p.message}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

const TRUE_WORDS = ['true', '1', 'yes', 'on'];
const FALSE_WORDS = ['false', '0', 'no', 'off'];
const boolean = z
  .string()
  .transform((v) => v.toLowerCase())
  .refine((v) => TRUE_WORDS.includes(v) || FALSE_WORDS.includes(v), 'must be true or false')
  .transform((v) => TRUE_WORDS.includes(v));

const httpUrl = z
  .string()
  .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), 'must be an http:// or https:// URL')
  .transform((v) => v.replace(/\/+$/, ''));

/**
 * One entry per variable: its default (undefined = optional) and the schema of its string value. The order is
 * the order of docs/configuration.md. `secret` keeps the value out of error messages.
 */
interface VariableSpec<T> {
  default: string | undefined;
  schema: z.ZodType<T, string>;
  secret?: boolean;
}
const variable = <T>(spec: VariableSpec<T>) => spec;

const VARIABLES = {
  PORT: variable({ default: '3000', schema: integer(1, 65535) }),
  HOST: variable({ default: '0.0.0.0', schema: z.string().min(1) }),
  DATA_DIR: variable({ default: './data', schema: z.string().min(1).transform((v) => resolve(v)) }),
  DATABASE_URL: variable({
    default: undefined,
    secret: true,
    schema: z.string().refine((v) => /^postgres(ql)?:\/\/.+/.test(v) && URL.canParse(v), 'must be a postgres:// or postgresql:// URL'),
  }),
  DATABASE_POOL_SIZE: variable({ default: '10', schema: integer(1, 1000) }),
  JWT_SECRET: variable({
    default: undefined,
    secret: true,
    schema: z.string().min(JWT_SECRET_MIN_LENGTH, `must be at least ${JWT_SECRET_MIN_LENGTH} characters long`),
  }),
  ACCESS_TOKEN_TTL: variable({ default: '900', schema: integer(10, 86_400) }),
  REFRESH_TOKEN_TTL_DAYS: variable({ default: '30', schema: integer(1, 3650) }),
  /** Default http://localhost:$PORT, filled in after PORT is parsed. */
  PUBLIC_URL: variable({ default: undefined, schema: httpUrl }),
  LOG_LEVEL: variable({
    default: 'info',
    schema: z.string().transform((v) => v.toLowerCase()).pipe(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` })),
  }),
  LOG_FORMAT: variable({
    default: 'auto',
    schema: z.string().transform((v) => v.toLowerCase()).pipe(z.enum(LOG_FORMATS, { error: `must be one of ${LOG_FORMATS.join(', ')}` })),
  }),
  TRUST_PROXY: variable({
    default: 'false',
    // why no hop count: Fastify 5 treats a number as "trust nothing" (a hop count cannot tell a proxy from a
    // client that sends its own X-Forwarded-For), so only true, false or the proxies' addresses are accepted.
    schema: z.string().transform((v, ctx): boolean | string => {
      const word = v.toLowerCase();
      if (TRUE_WORDS.includes(word)) return true;
      if (FALSE_WORDS.includes(word)) return false;
      if (/^[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*$/.test(v) && /[.:]/.test(v)) return v;
      ctx.addIssue({ code: 'custom', message: 'must be true, false or a comma-separated list of proxy addresses (IP or CIDR)' });
      return z.NEVER;
    }),
  }),
  LOGIN_RATE_LIMIT: variable({
    default: '10/5',
    schema: z
      .string()
      .regex(/^\d+\/\d+$/, 'must be <per IP>/<per account>, e.g. 10/5')
      .transform((v) => {
        const [perIp, perAccount] = v.split('/').map(Number) as [number, number];
        return { perIp, perAccount };
      })
      .refine((v) => v.perIp >= 1 && v.perAccount >= 1, 'both limits must be at least 1'),
  }),
  CLIENT_DIST: variable({ default: 'dist', schema: z.string().min(1).transform((v) => resolve(v)) }),
  SEED_DEMO: variable({ default: 'true', schema: boolean }),
  TOMBSTONE_RETENTION_DAYS: variable({ default: '90', schema: integer(1, 36_500) }),
  FILE_MAX_BYTES: variable({ default: String(50 * 1024 * 1024), schema: integer(1, 5 * 1024 * 1024 * 1024) }),
  UPLOAD_QUOTA_BYTES_PER_DAY: variable({ default: String(1024 * 1024 * 1024), schema: integer(1, Number.MAX_SAFE_INTEGER) }),
  UPLOAD_RATE_PER_MINUTE: variable({ default: '60', schema: integer(1, 100_000) }),
  REQUEST_BODY_TIMEOUT_MS: variable({ default: '60000', schema: integer(100, 900_000) }),
  REQUEST_TIMEOUT_MS: variable({ default: '1800000', schema: integer(1000, 86_400_000) }),
  S3_ENDPOINT: variable({ default: undefined, schema: httpUrl }),
  S3_BUCKET: variable({
    default: undefined,
    // why this rule: S3's bucket naming (3–63 lower-case letters, digits, dots, hyphens), so a typo fails at start.
    schema: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3–63 lower-case letters, digits, dots and hyphens)'),
  }),
  S3_REGION: variable({ default: 'us-east-1', schema: z.string().regex(/^[a-z0-9-]+$/, 'must be a region name such as us-east-1') }),
  S3_ACCESS_KEY_ID: variable({ default: undefined, schema: z.string().min(1) }),
  S3_SECRET_ACCESS_KEY: variable({ default: undefined, secret: true, schema: z.string().min(1) }),
  S3_FORCE_PATH_STYLE: variable({ default: 'true', schema: boolean }),
  SMTP_URL: variable({
    default: undefined,
    secret: true,
    schema: z.string().refine((v) => URL.canParse(v) && /^smtps?:$/.test(new URL(v).protocol), 'must be an smtp:// or smtps:// URL'),
  }),
  MAIL_FROM: variable({ default: 'Anlagenbuch <anlagenbuch@localhost>', schema: z.string().min(3).refine((v) => v.includes('@') && !/[\r\n]/.test(v), 'must be an e-mail address, e.g. Anlagenbuch <noreply@example.com>') }),
  SHARE_RATE_PER_HOUR: variable({ default: '20', schema: integer(1, 100_000) }),
  NEW_DEVICES_PER_DAY: variable({ default: '20', schema: integer(1, 1_000_000) }),
} as const;

export type ConfigVariable = keyof typeof VARIABLES;
export const CONFIG_VARIABLES = Object.keys(VARIABLES) as ConfigVariable[];

const S3_VARIABLES: ConfigVariable[] = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'];
const S3_REQUIRED: ConfigVariable[] = ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'];

type Parsed = { [K in ConfigVariable]: z.output<(typeof VARIABLES)[K]['schema']> | undefined };

/**
 * Reads and validates the settings. An empty string counts as unset (so `DATABASE_URL=` in a .env file means
 * "embedded"). Throws ConfigError naming every bad variable.
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const problems: { variable: string; message: string }[] = [];
  const parsed = {} as Record<string, unknown>;
  for (const name of CONFIG_VARIABLES) {
    const spec: VariableSpec<unknown> = VARIABLES[name];
    const given = env[name]?.trim();
    const raw = given ? given : spec.default;
    if (raw === undefined) continue;
    const result = spec.schema.safeParse(raw);
    if (result.success) {
      parsed[name] = result.data;
    } else {
      const message = result.error.issues.map((issue) => issue.message).join('; ');
      problems.push({ variable: name, message: spec.secret ? message : `${message} (got "${raw}")` });
    }
  }
  const s3Given = S3_VARIABLES.filter((name) => env[name]?.trim());
  if (s3Given.length > 0) {
    // why all or nothing: half an S3 setting would silently store files on the local disk of one instance.
    const missing = S3_REQUIRED.filter((name) => !env[name]?.trim());
    for (const name of missing) problems.push({ variable: name, message: `must be set when ${s3Given.join(', ')} ${s3Given.length === 1 ? 'is' : 'are'} set (S3 file storage needs ${S3_REQUIRED.join(', ')})` });
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const p = parsed as Parsed;
  return {
    port: p.PORT!,
    host: p.HOST!,
    dataDir: p.DATA_DIR!,
    databaseUrl: p.DATABASE_URL,
    databasePoolSize: p.DATABASE_POOL_SIZE!,
    jwtSecret: p.JWT_SECRET,
    accessTokenTtl: p.ACCESS_TOKEN_TTL!,
    refreshTokenTtlDays: p.REFRESH_TOKEN_TTL_DAYS!,
    publicUrl: p.PUBLIC_URL ?? `http://localhost:${p.PORT!}`,
    publicUrlSet: p.PUBLIC_URL !== undefined,
    logLevel: p.LOG_LEVEL!,
    logFormat: p.LOG_FORMAT!,
    trustProxy: p.TRUST_PROXY!,
    loginRateLimit: p.LOGIN_RATE_LIMIT!,
    clientDist: p.CLIENT_DIST!,
    seedDemo: p.SEED_DEMO!,
    tombstoneRetentionDays: p.TOMBSTONE_RETENTION_DAYS!,
    fileMaxBytes: p.FILE_MAX_BYTES!,
    uploadQuotaBytesPerDay: p.UPLOAD_QUOTA_BYTES_PER_DAY!,
    uploadRatePerMinute: p.UPLOAD_RATE_PER_MINUTE!,
    requestBodyTimeoutMs: p.REQUEST_BODY_TIMEOUT_MS!,
    requestTimeoutMs: p.REQUEST_TIMEOUT_MS!,
    s3: p.S3_BUCKET
      ? {
          endpoint: p.S3_ENDPOINT,
          bucket: p.S3_BUCKET,
          region: p.S3_REGION!,
          accessKeyId: p.S3_ACCESS_KEY_ID!,
          secretAccessKey: p.S3_SECRET_ACCESS_KEY!,
          forcePathStyle: p.S3_FORCE_PATH_STYLE!,
        }
      : undefined,
    smtpUrl: p.SMTP_URL,
    mailFrom: p.MAIL_FROM!,
    shareRatePerHour: p.SHARE_RATE_PER_HOUR!,
    newDevicesPerDay: p.NEW_DEVICES_PER_DAY!,
  };
}

/**
 * The signing key when JWT_SECRET is unset: 32 random bytes generated on first start and kept in
 * DATA_DIR/jwt-secret (mode 0600), so a restart keeps everyone's sessions. Several instances starting at once
 * on a shared DATA_DIR agree on one secret ('wx' lets only the first writer create the file).
 */
export async function readOrCreateJwtSecret(dataDir: string): Promise<string> {
  const path = join(dataDir, JWT_SECRET_FILE);
  const existing = await readSecretFile(path);
  if (existing !== undefined) return existing;
  await mkdir(dataDir, { recursive: true });
  try {
    await writeFile(path, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const created = await readSecretFile(path);
  if (created === undefined) throw new Error(`Could not create ${path}`);
  return created;
}

async function readSecretFile(path: string): Promise<string | undefined> {
  let content: string;
  try {
    content = (await readFile(path, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (content.length < JWT_SECRET_MIN_LENGTH) {
    throw new Error(`${path} holds fewer than ${JWT_SECRET_MIN_LENGTH} characters; delete it to generate a new secret (this ends all sessions)`);
  }
  return content;
}
