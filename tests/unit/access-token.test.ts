import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAccessTokenSigner, signAccessTokenAt, verifyAccessToken } from '../../src/server/auth/tokens';

// The access token check (src/server/auth/tokens.ts): node:crypto's HMAC instead of jose's jwtVerify, so every
// rule jose applied with `algorithms: ['HS256']` is pinned here with a token that breaks only that rule.

const SECRET = 'unit-test-secret-unit-test-secret-unit-test';
const key = new TextEncoder().encode(SECRET);
const NOW = 1_800_000_000;
const claims = { usernodeid: '0190a5a0-0000-7000-8000-000000000001', legalentitynodeid: '0190a5a0-0000-7000-8000-000000000002' };

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact JWS of any header and payload, signed with HMAC-SHA256 under `secret`. */
function craft(header: unknown, payload: unknown, secret = SECRET): string {
  const signingInput = `${encode(header)}.${encode(payload)}`;
  return `${signingInput}.${createHmac('sha256', secret).update(signingInput).digest('base64url')}`;
}

const goodHeader = { alg: 'HS256', typ: 'JWT' };
const goodPayload = { le: claims.legalentitynodeid, sub: claims.usernodeid, iss: 'anlagenbuch', aud: 'anlagenbuch-api', iat: NOW - 10, exp: NOW + 600 };

describe('verifyAccessToken', () => {
  it('accepts what the signer (jose) signs, and a crafted token of the same shape', async () => {
    const signed = await signAccessTokenAt(SECRET, claims, NOW - 10, NOW + 600);
    expect(verifyAccessToken(key, signed, NOW)).toEqual(claims);
    expect(verifyAccessToken(key, craft(goodHeader, goodPayload), NOW)).toEqual(claims);
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, aud: ['other', 'anlagenbuch-api'] }), NOW)).toEqual(claims);
    const live = createAccessTokenSigner(SECRET, 600);
    expect(await live.verify(await live.sign(claims))).toEqual(claims);
  });

  it('refuses a token signed with another secret, or with any part changed', async () => {
    expect(verifyAccessToken(key, craft(goodHeader, goodPayload, 'another-secret-another-secret-another'), NOW)).toBeUndefined();
    const [header, payload, signature] = craft(goodHeader, goodPayload).split('.') as [string, string, string];
    const otherPayload = encode({ ...goodPayload, sub: '0190a5a0-0000-7000-8000-000000000009' });
    expect(verifyAccessToken(key, `${header}.${otherPayload}.${signature}`, NOW)).toBeUndefined();
    // why the first character: all its 6 bits are signature bits (the last one's lowest 2 are padding).
    const flipped = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    expect(verifyAccessToken(key, `${header}.${payload}.${flipped}`, NOW)).toBeUndefined();
    expect(verifyAccessToken(key, `${header}.${payload}.${signature}=`, NOW)).toBeUndefined();
    expect(verifyAccessToken(key, `${header}.${payload}`, NOW)).toBeUndefined();
    expect(verifyAccessToken(key, `${header}.${payload}.${signature}.x`, NOW)).toBeUndefined();
    expect(verifyAccessToken(key, `${header}.${payload}.`, NOW)).toBeUndefined();
    expect(verifyAccessToken(key, 'not-a-jwt', NOW)).toBeUndefined();
  });

  it('refuses another algorithm, "none", a required extension and a header that is no object', () => {
    expect(verifyAccessToken(key, craft({ alg: 'HS512' }, goodPayload), NOW)).toBeUndefined();
    expect(verifyAccessToken(key, craft({ alg: 'none' }, goodPayload), NOW)).toBeUndefined();
    const [header, payload] = craft({ alg: 'none' }, goodPayload).split('.');
    expect(verifyAccessToken(key, `${header}.${payload}.`, NOW)).toBeUndefined();
    expect(verifyAccessToken(key, craft({ alg: 'HS256', crit: ['exp'] }, goodPayload), NOW)).toBeUndefined();
    expect(verifyAccessToken(key, craft(['HS256'], goodPayload), NOW)).toBeUndefined();
  });

  it('refuses an expired token, one without exp, one not yet valid, and claims of the wrong type', () => {
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, exp: NOW }), NOW)).toBeUndefined();
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, exp: NOW + 1 }), NOW)).toEqual(claims);
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, exp: undefined }), NOW)).toBeUndefined();
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, exp: String(NOW + 600) }), NOW)).toBeUndefined();
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, nbf: NOW + 1 }), NOW)).toBeUndefined();
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, nbf: NOW }), NOW)).toEqual(claims);
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, iat: 'yesterday' }), NOW)).toBeUndefined();
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, sub: 7 }), NOW)).toBeUndefined();
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, le: undefined }), NOW)).toBeUndefined();
    expect(verifyAccessToken(key, craft(goodHeader, [goodPayload]), NOW)).toBeUndefined();
  });

  it('refuses another issuer or audience', () => {
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, iss: 'someone-else' }), NOW)).toBeUndefined();
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, iss: undefined }), NOW)).toBeUndefined();
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, aud: 'anlagenbuch-admin' }), NOW)).toBeUndefined();
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, aud: ['anlagenbuch-admin'] }), NOW)).toBeUndefined();
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, aud: undefined }), NOW)).toBeUndefined();
  });
});
