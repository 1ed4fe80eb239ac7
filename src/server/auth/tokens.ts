import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

const ISSUER = 'anlagenbuch';
const AUDIENCE = 'anlagenbuch-api';
const ALGORITHM = 'HS256';

/**
 * What an access token carries: who (sub = usernodeid) and which tenant (le). Nothing else on purpose:
 * permissions, admin flag and the active flag are loaded per request (plugins/auth.ts), so a profile change or
 * a deactivation takes effect on the next request, not when the token expires.
 */
export interface AccessClaims {
  usernodeid: string;
  legalentitynodeid: string;
}

export interface AccessTokenSigner {
  sign(claims: AccessClaims): Promise<string>;
  /** Resolves to the claims, or undefined for a token that is malformed, forged or expired. */
  verify(token: string): Promise<AccessClaims | undefined>;
}

export function createAccessTokenSigner(secret: string, ttlSeconds: number): AccessTokenSigner {
  const key = new TextEncoder().encode(secret);
  return {
    sign: ({ usernodeid, legalentitynodeid }) =>
      new SignJWT({ le: legalentitynodeid })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(usernodeid)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(key),
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: AUDIENCE, algorithms: [ALGORITHM] });
        if (typeof payload.sub !== 'string' || typeof payload.le !== 'string') return undefined;
        return { usernodeid: payload.sub, legalentitynodeid: payload.le };
      } catch (error) {
        if (error instanceof joseErrors.JOSEError) return undefined;
        throw error;
      }
    },
  };
}

/** Test support and scripts: a token with explicit times (e.g. already expired), signed like the real ones. */
export function signAccessTokenAt(secret: string, claims: AccessClaims, issuedAt: number, expiresAt: number): Promise<string> {
  return new SignJWT({ le: claims.legalentitynodeid })
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
