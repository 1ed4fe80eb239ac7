import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';

const ISSUER = 'anlagenbuch';
const AUDIENCE = 'anlagenbuch-api';
const ALGORITHM = 'HS256';

/**
 * What an access token carries: who (sub = usernodeid), which tenant (le) and which session (sid = the
 * refresh-token family of the login that issued it; a refresh keeps the family). Nothing else on purpose:
 * permissions, admin flag and the active flag are loaded per request (plugins/auth.ts), so a profile change or
 * a deactivation takes effect on the next request, not when the token expires; `sid` lets that same request
 * refuse a token whose session was ended (logout, refresh-token reuse), instead of honouring it until `exp`.
 */
export interface AccessClaims {
  usernodeid: string;
  legalentitynodeid: string;
  /**
   * The refresh-token family (a UUID). Absent only in tokens signed before access tokens carried it: those are
   * accepted for at most `ttlSeconds` of their life (verifyAccessToken), since no session check can apply to them.
   */
  sid?: string;
}

/** What the server signs: every token it issues names its session. */
export type SessionClaims = AccessClaims & { sid: string };

export interface AccessTokenSigner {
  sign(claims: SessionClaims): Promise<string>;
  /** Resolves to the claims, or undefined for a token that is malformed, forged or expired. */
  verify(token: string): Promise<AccessClaims | undefined>;
}

export function createAccessTokenSigner(secret: string, ttlSeconds: number): AccessTokenSigner {
  const key = new TextEncoder().encode(secret);
  return {
    sign: ({ usernodeid, legalentitynodeid, sid }) =>
      new SignJWT({ le: legalentitynodeid, sid })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(usernodeid)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(key),
    verify: (token) => Promise.resolve(verifyAccessToken(key, token, Math.floor(Date.now() / 1000), ttlSeconds)),
  };
}

/** Base64url without padding, as JWS compact serialisation writes it (RFC 7515 § 2). */
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** A UUID in its canonical text form: `sid` is passed to PostgreSQL as a uuid, so nothing else may reach it. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The claims of a valid access token, else undefined. Checked with node:crypto on the spot instead of jose's
 * `jwtVerify`: jose goes through WebCrypto (a key import and an asynchronous job per token), which was a tenth
 * of a small read's server CPU (docs/decisions.md). What is accepted is the same or narrower than with jose and
 * `algorithms: ['HS256']`: a compact JWS of three base64url parts; a header that is a JSON object with alg HS256
 * and no `crit` (no extension is understood, so none may be required); an HMAC-SHA256 over the first two parts
 * with the secret, compared in constant time; a payload that is a JSON object with iss and aud ours, a numeric
 * exp still in the future (required here; jose would have accepted a token without one, ours always have it),
 * nbf and iat numeric if present, nbf not in the future; sub and le strings.
 *
 * `sid`, when present, must be a UUID. A token without it (signed before tokens carried it) is still accepted,
 * but only while its exp is at most `ttlSeconds` away: no revocation check can apply to it, so it must not
 * outlive one access-token lifetime. Every token issued before the upgrade meets that and runs out within
 * ACCESS_TOKEN_TTL of it; the server signs none without sid any more.
 */
export function verifyAccessToken(key: Uint8Array, token: string, nowSeconds: number, ttlSeconds: number): AccessClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) return undefined;
  const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];
  const expected = createHmac('sha256', key).update(`${encodedHeader}.${encodedPayload}`).digest();
  const signature = Buffer.from(encodedSignature, 'base64url');
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return undefined;
  const header = parseJsonObject(encodedHeader);
  if (!header || header.alg !== ALGORITHM || header.crit !== undefined) return undefined;
  const payload = parseJsonObject(encodedPayload);
  if (!payload || payload.iss !== ISSUER) return undefined;
  const audience = payload.aud;
  if (!(audience === AUDIENCE || (Array.isArray(audience) && audience.includes(AUDIENCE)))) return undefined;
  const { exp, nbf, iat } = payload;
  if (!isNumericDate(exp) || exp <= nowSeconds) return undefined;
  if (nbf !== undefined && (!isNumericDate(nbf) || nbf > nowSeconds)) return undefined;
  if (iat !== undefined && !isNumericDate(iat)) return undefined;
  if (typeof payload.sub !== 'string' || typeof payload.le !== 'string') return undefined;
  const { sid } = payload;
  if (sid === undefined) {
    if (exp - nowSeconds > ttlSeconds) return undefined;
    return { usernodeid: payload.sub, legalentitynodeid: payload.le };
  }
  if (typeof sid !== 'string' || !UUID.test(sid)) return undefined;
  return { usernodeid: payload.sub, legalentitynodeid: payload.le, sid };
}

function parseJsonObject(encoded: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function isNumericDate(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * Test support and scripts: a token with explicit times (e.g. already expired), signed like the real ones; without
 * `sid` it is one of the tokens from before sessions were named (verifyAccessToken).
 */
export function signAccessTokenAt(secret: string, claims: AccessClaims, issuedAt: number, expiresAt: number): Promise<string> {
  return new SignJWT({ le: claims.legalentitynodeid, ...(claims.sid !== undefined && { sid: claims.sid }) })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(claims.usernodeid)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(new TextEncoder().encode(secret));
}

/**
 * Refresh tokens are 32 random bytes (base64url). Only their SHA-256 is stored: a leaked database dump holds no
 * usable token, and a plain hash suffices (unlike passwords) because the token has 256 bits of entropy.
 */
export function generateRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashRefreshToken(token) };
}

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The stored form of a device secret (docs/api.md § Refresh): like refresh tokens, a random value of at least
 * 32 characters made by the device, so a plain SHA-256 suffices and a database dump holds nothing usable.
 */
export function hashDeviceSecret(secret: string): string {
  return createHash('sha256').update(`device:${secret}`).digest('hex');
}

/** Compares two hex hashes in constant time, so the answer time says nothing about how much of a guess matched. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
