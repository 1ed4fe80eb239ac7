import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAccessTokenSigner, signAccessTokenAt, verifyAccessToken } from '../../src/server/auth/tokens';

// The access token check (src/server/auth/tokens.ts): node:crypto's HMAC instead of jose's jwtVerify, so every
// rule jose applied with `algorithms: ['HS256']` is pinned here with a token that breaks only that rule.

const SECRET = 'unit-test-secret-unit-test-secret-unit-test';
const key = new TextEncoder().encode(SECRET);
const NOW = 1_800_000_000;
const TTL = 600;
const claims = { usernodeid: '0190a5a0-0000-7000-8000-000000000001', legalentitynodeid: '0190a5a0-0000-7000-8000-000000000002' };
const SID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';

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
    expect(verifyAccessToken(key, signed, NOW, TTL)).toEqual(claims);
    expect(verifyAccessToken(key, craft(goodHeader, goodPayload), NOW, TTL)).toEqual(claims);
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, aud: ['other', 'anlagenbuch-api'] }), NOW, TTL)).toEqual(claims);
    const live = createAccessTokenSigner(SECRET, TTL);
    expect(await live.verify(await live.sign({ ...claims, sid: SID }))).toEqual({ ...claims, sid: SID });
  });

  it('returns the session (sid) the signer puts in every token; refuses a sid that is not a UUID', async () => {
    const live = createAccessTokenSigner(SECRET, TTL);
    const [, payload] = (await live.sign({ ...claims, sid: SID })).split('.') as [string, string];
    // The claim set stays minimal (docs/api.md § Authentication).
    expect(Object.keys(JSON.parse(Buffer.from(payload, 'base64url').toString())).sort()).toEqual(['aud', 'exp', 'iat', 'iss', 'le', 'sid', 'sub']);
    expect(verifyAccessToken(key, await signAccessTokenAt(SECRET, { ...claims, sid: SID }, NOW - 10, NOW + 600), NOW, TTL)).toEqual({ ...claims, sid: SID });
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, sid: SID }), NOW, TTL)).toEqual({ ...claims, sid: SID });
    for (const sid of [null, 7, '', 'family-1', `${SID} `, `'${SID}'`, [SID]]) {
      expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, sid }), NOW, TTL), JSON.stringify(sid)).toBeUndefined();
    }
  });

  it('accepts a token without sid (from before sessions were named) only for one access-token lifetime', () => {
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, exp: NOW + TTL }), NOW, TTL)).toEqual(claims);
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, exp: NOW + TTL + 1 }), NOW, TTL)).toBeUndefined();
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, exp: NOW + 30 * 24 * 3600 }), NOW, TTL)).toBeUndefined();
    // With a sid the session check in the auth query ends it, so only exp bounds it here.
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, sid: SID, exp: NOW + TTL + 1 }), NOW, TTL)).toEqual({ ...claims, sid: SID });
  });

  it('refuses a token signed with another secret, or with any part changed', async () => {
    expect(verifyAccessToken(key, craft(goodHeader, goodPayload, 'another-secret-another-secret-another'), NOW, TTL)).toBeUndefined();
    const [header, payload, signature] = craft(goodHeader, goodPayload).split('.') as [string, string, string];
    const otherPayload = encode({ ...goodPayload, sub: '0190a5a0-0000-7000-8000-000000000009' });
    expect(verifyAccessToken(key, `${header}.${otherPayload}.${signature}`, NOW, TTL)).toBeUndefined();
    // why the first character: all its 6 bits are signature bits (the last one's lowest 2 are padding).
    const flipped = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    expect(verifyAccessToken(key, `${header}.${payload}.${flipped}`, NOW, TTL)).toBeUndefined();
    expect(verifyAccessToken(key, `${header}.${payload}.${signature}=`, NOW, TTL)).toBeUndefined();
    expect(verifyAccessToken(key, `${header}.${payload}`, NOW, TTL)).toBeUndefined();
    expect(verifyAccessToken(key, `${header}.${payload}.${signature}.x`, NOW, TTL)).toBeUndefined();
    expect(verifyAccessToken(key, `${header}.${payload}.`, NOW, TTL)).toBeUndefined();
    expect(verifyAccessToken(key, 'not-a-jwt', NOW, TTL)).toBeUndefined();
  });

  it('refuses another algorithm, "none", a required extension and a header that is no object', () => {
    expect(verifyAccessToken(key, craft({ alg: 'HS512' }, goodPayload), NOW, TTL)).toBeUndefined();
    expect(verifyAccessToken(key, craft({ alg: 'none' }, goodPayload), NOW, TTL)).toBeUndefined();
    const [header, payload] = craft({ alg: 'none' }, goodPayload).split('.');
    expect(verifyAccessToken(key, `${header}.${payload}.`, NOW, TTL)).toBeUndefined();
    expect(verifyAccessToken(key, craft({ alg: 'HS256', crit: ['exp'] }, goodPayload), NOW, TTL)).toBeUndefined();
    expect(verifyAccessToken(key, craft(['HS256'], goodPayload), NOW, TTL)).toBeUndefined();
  });

  it('refuses an expired token, one without exp, one not yet valid, and claims of the wrong type', () => {
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, exp: NOW }), NOW, TTL)).toBeUndefined();
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, exp: NOW + 1 }), NOW, TTL)).toEqual(claims);
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, exp: undefined }), NOW, TTL)).toBeUndefined();
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, exp: String(NOW + 600) }), NOW, TTL)).toBeUndefined();
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, nbf: NOW + 1 }), NOW, TTL)).toBeUndefined();
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, nbf: NOW }), NOW, TTL)).toEqual(claims);
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, iat: 'yesterday' }), NOW, TTL)).toBeUndefined();
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, sub: 7 }), NOW, TTL)).toBeUndefined();
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, le: undefined }), NOW, TTL)).toBeUndefined();
    expect(verifyAccessToken(key, craft(goodHeader, [goodPayload]), NOW, TTL)).toBeUndefined();
  });

  it('refuses another issuer or audience', () => {
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, iss: 'someone-else' }), NOW, TTL)).toBeUndefined();
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, iss: undefined }), NOW, TTL)).toBeUndefined();
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, aud: 'anlagenbuch-admin' }), NOW, TTL)).toBeUndefined();
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, aud: ['anlagenbuch-admin'] }), NOW, TTL)).toBeUndefined();
    expect(verifyAccessToken(key, craft(goodHeader, { ...goodPayload, aud: undefined }), NOW, TTL)).toBeUndefined();
  });
});
