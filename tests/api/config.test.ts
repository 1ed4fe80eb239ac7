import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, readOrCreateJwtSecret } from '../../src/server/config';

function problemOf(env: Record<string, string>): { variable: string; message: string }[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems.slice();
  }
  throw new Error('loadConfig accepted the environment');
}

describe('loadConfig', () => {
  it('has a default for every variable', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: resolve('data'),
      databaseUrl: undefined,
      databasePoolSize: 10,
      jwtSecret: undefined,
      accessTokenTtl: 900,
      refreshTokenTtlDays: 30,
      publicUrl: 'http://localhost:3000',
      publicUrlSet: false,
      logLevel: 'info',
      logFormat: 'auto',
      trustProxy: false,
      loginRateLimit: { perIp: 10, perAccount: 5 },
      clientDist: resolve('dist'),
      seedDemo: true,
      tombstoneRetentionDays: 90,
      fileMaxBytes: 50 * 1024 * 1024,
      uploadQuotaBytesPerDay: 1024 * 1024 * 1024,
      uploadRatePerMinute: 60,
      requestBodyTimeoutMs: 60_000,
      requestTimeoutMs: 1_800_000,
      s3: undefined,
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/var/lib/anlagenbuch',
      DATABASE_URL: 'postgres://u:p@db:5432/anlagenbuch',
      DATABASE_POOL_SIZE: '25',
      JWT_SECRET: 'x'.repeat(32),
      ACCESS_TOKEN_TTL: '300',
      REFRESH_TOKEN_TTL_DAYS: '7',
      PUBLIC_URL: 'https://wartung.example.com/',
      LOG_LEVEL: 'WARN',
      LOG_FORMAT: 'JSON',
      TRUST_PROXY: '10.0.0.0/8, 192.168.1.1',
      LOGIN_RATE_LIMIT: '20/3',
      CLIENT_DIST: '/srv/client',
      SEED_DEMO: 'false',
      TOMBSTONE_RETENTION_DAYS: '30',
      FILE_MAX_BYTES: '1048576',
      UPLOAD_QUOTA_BYTES_PER_DAY: '104857600',
      UPLOAD_RATE_PER_MINUTE: '12',
      REQUEST_BODY_TIMEOUT_MS: '30000',
      REQUEST_TIMEOUT_MS: '600000',
      S3_ENDPOINT: 'https://minio.example.com:9000/',
      S3_BUCKET: 'anlagenbuch-files',
      S3_REGION: 'eu-central-1',
      S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      S3_SECRET_ACCESS_KEY: 'secret-key',
      S3_FORCE_PATH_STYLE: 'false',
      SMTP_URL: 'smtp://mailer:pw@mail.example.com:587',
      MAIL_FROM: 'Wartung <wartung@example.com>',
      SHARE_RATE_PER_HOUR: '5',
      NEW_DEVICES_PER_DAY: '7',
    });
    expect(config).toEqual({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/var/lib/anlagenbuch',
      databaseUrl: 'postgres://u:p@db:5432/anlagenbuch',
      databasePoolSize: 25,
      jwtSecret: 'x'.repeat(32),
      accessTokenTtl: 300,
      refreshTokenTtlDays: 7,
      publicUrl: 'https://wartung.example.com',
      publicUrlSet: true,
      logLevel: 'warn',
      logFormat: 'json',
      trustProxy: '10.0.0.0/8, 192.168.1.1',
      loginRateLimit: { perIp: 20, perAccount: 3 },
      clientDist: '/srv/client',
      seedDemo: false,
      tombstoneRetentionDays: 30,
      fileMaxBytes: 1048576,
      uploadQuotaBytesPerDay: 104857600,
      uploadRatePerMinute: 12,
      requestBodyTimeoutMs: 30_000,
      requestTimeoutMs: 600_000,
      s3: { endpoint: 'https://minio.example.com:9000', bucket: 'anlagenbuch-files', region: 'eu-central-1', accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret-key', forcePathStyle: false },
      smtpUrl: 'smtp://mailer:pw@mail.example.com:587',
      mailFrom: 'Wartung <wartung@example.com>',
      shareRatePerHour: 5,
      newDevicesPerDay: 7,
    });
  });

  it('derives PUBLIC_URL from PORT and treats empty values as unset', () => {
    expect(loadConfig({ PORT: '4000', DATABASE_URL: '' })).toMatchObject({ publicUrl: 'http://localhost:4000', databaseUrl: undefined });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '0'],
    ['DATABASE_POOL_SIZE', '-1'],
    ['ACCESS_TOKEN_TTL', '15m'],
    ['REFRESH_TOKEN_TTL_DAYS', '0'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['PUBLIC_URL', 'localhost:3000'],
    ['LOG_LEVEL', 'verbose'],
    ['TRUST_PROXY', 'maybe'],
    ['LOGIN_RATE_LIMIT', '10'],
    ['LOGIN_RATE_LIMIT', '0/5'],
    ['SEED_DEMO', 'sometimes'],
    ['FILE_MAX_BYTES', '0'],
    ['FILE_MAX_BYTES', '50MB'],
    ['UPLOAD_QUOTA_BYTES_PER_DAY', '0'],
    ['UPLOAD_QUOTA_BYTES_PER_DAY', '1GB'],
    ['UPLOAD_RATE_PER_MINUTE', '0'],
    ['UPLOAD_RATE_PER_MINUTE', '-3'],
    ['REQUEST_BODY_TIMEOUT_MS', '10'],
    // Above the body deadline's own ceiling (15 min) it would have been ignored.
    ['REQUEST_BODY_TIMEOUT_MS', '1800000'],
    ['REQUEST_TIMEOUT_MS', 'lang'],
    ['SMTP_URL', 'mail.example.com:25'],
    ['SMTP_URL', 'https://mail.example.com'],
    ['MAIL_FROM', 'wartung'],
    ['SHARE_RATE_PER_HOUR', '0'],
    ['NEW_DEVICES_PER_DAY', '0'],
  ])('rejects %s=%s naming the variable', (variable, value) => {
    const problems = problemOf({ [variable]: value });
    expect(problems.map((p) => p.variable)).toEqual([variable]);
    expect(() => loadConfig({ [variable]: value })).toThrow(new RegExp(`${variable}: `));
  });

  it('rejects a JWT_SECRET shorter than 32 characters without printing it', () => {
    const secret = 'too-short-secret';
    const problems = problemOf({ JWT_SECRET: secret });
    expect(problems).toEqual([{ variable: 'JWT_SECRET', message: 'must be at least 32 characters long' }]);
    expect(() => loadConfig({ JWT_SECRET: secret })).toThrow(/JWT_SECRET: must be at least 32 characters/);
    expect(() => loadConfig({ JWT_SECRET: secret })).not.toThrow(new RegExp(secret));
  });

  describe('S3 storage, all or nothing', () => {
    const complete = { S3_BUCKET: 'anlagenbuch-files', S3_ACCESS_KEY_ID: 'key', S3_SECRET_ACCESS_KEY: 'secret-value' };

    it('needs bucket and credentials; region and path style have defaults, the endpoint is optional (AWS)', () => {
      expect(loadConfig(complete).s3).toEqual({ endpoint: undefined, bucket: 'anlagenbuch-files', region: 'us-east-1', accessKeyId: 'key', secretAccessKey: 'secret-value', forcePathStyle: true });
    });

    it('a bucket without credentials is an error naming the missing ones', () => {
      const problems = problemOf({ S3_BUCKET: 'anlagenbuch-files' });
      expect(problems.map((p) => p.variable)).toEqual(['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']);
      expect(problems[0]!.message).toMatch(/must be set when S3_BUCKET is set/);
    });

    it('credentials or an endpoint without a bucket are an error too (files would silently stay on one disk)', () => {
      expect(problemOf({ S3_ENDPOINT: 'http://minio:9000', S3_ACCESS_KEY_ID: 'key', S3_SECRET_ACCESS_KEY: 'secret-value' }).map((p) => p.variable)).toEqual(['S3_BUCKET']);
    });

    it('rejects a bucket name S3 would refuse, and never prints the secret key', () => {
      expect(problemOf({ ...complete, S3_BUCKET: 'Anlagenbuch_Files' }).map((p) => p.variable)).toEqual(['S3_BUCKET']);
      expect(problemOf({ ...complete, S3_ENDPOINT: 'minio:9000' }).map((p) => p.variable)).toEqual(['S3_ENDPOINT']);
      expect(() => loadConfig({ S3_SECRET_ACCESS_KEY: 'secret-value' })).not.toThrow(/secret-value/);
    });
  });

  it('names every bad variable at once', () => {
    expect(problemOf({ PORT: 'x', SEED_DEMO: 'x' }).map((p) => p.variable)).toEqual(['PORT', 'SEED_DEMO']);
  });
});

describe('readOrCreateJwtSecret', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('generates the secret once, readable only by the owner, and reuses it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'anlagenbuch-secret-'));
    const dataDir = join(dir, 'nested', 'data');
    const first = await readOrCreateJwtSecret(dataDir);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect((await stat(join(dataDir, 'jwt-secret'))).mode & 0o777).toBe(0o600);
    expect(await readOrCreateJwtSecret(dataDir)).toBe(first);
    expect((await readFile(join(dataDir, 'jwt-secret'), 'utf8')).trim()).toBe(first);
  });

  it('refuses a secret file that is too short', async () => {
    dir = await mkdtemp(join(tmpdir(), 'anlagenbuch-secret-'));
    await writeFile(join(dir, 'jwt-secret'), 'short');
    await expect(readOrCreateJwtSecret(dir)).rejects.toThrow(/fewer than 32 characters/);
  });
});
