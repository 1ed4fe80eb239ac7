import { eq } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionSchema } from '../../src/shared/api/auth';
import { ACCESS_DENIED_MESSAGE, apiErrorSchema, LOGIN_FAILED_MESSAGE } from '../../src/shared/api/errors';
import { hashRefreshToken, signAccessTokenAt } from '../../src/server/auth/tokens';
import { REFRESH_REUSE_GRACE_MS } from '../../src/server/services/auth-service';
import { billingInfos, plans, refreshTokens, subscriptions, users } from '../../src/server/db/schema';
import { allFeatures, insertProfile, insertTenant, insertUser, loginAs, type TestTenant } from '../factories/tenant';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from './support/test-app';

const refreshWith = (t: TestApp, token: string, device?: TestDevice) =>
  t.app.inject({ method: 'POST', url: '/api/object/refresh-token', payload: { token, ...device } });

/** A device as the client makes one: a client id and a secret, kept in its IndexedDB. */
interface TestDevice {
  deviceid: string;
  devicesecret: string;
}
const newDevice = (): TestDevice => ({ deviceid: uuidv4(), devicesecret: randomBytes(32).toString('base64url') });

/** Logs in from `device` (client id + secret in the body, as the app sends them). */
async function loginFrom(t: TestApp, user: { email: string; password: string }, device: TestDevice) {
  const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: user.password, ...device } });
  expect(response.statusCode, response.body).toBe(200);
  return sessionSchema.parse(response.json());
}

const tokenRow = async (t: TestApp, token: string) => (await t.database.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hashRefreshToken(token))))[0]!;
const familyRows = (t: TestApp, familyId: string) => t.database.db.select().from(refreshTokens).where(eq(refreshTokens.familyId, familyId));
const pairOf = (response: { json(): unknown }) => response.json() as { accesstoken: string; refreshtoken: string };
const profilesWith = (t: TestApp, accesstoken: string) => t.app.inject({ method: 'GET', url: '/api/profiles', headers: { authorization: `Bearer ${accesstoken}` } });

describe('auth', () => {
  let t: TestApp;
  let tenant: TestTenant;

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await insertTenant(t.database.db, { name: 'Beispielwerke AG' });
  });
  afterAll(() => t?.close());

  describe('POST /api/auth/login', () => {
    it('answers the full session payload, filled from the database', async () => {
      const le = tenant.legalEntity.nodeid;
      const reader = await insertProfile(t.database.db, { legalentitynodeid: le, profileid: 'reader', features: { site: [false, true, false, false] } });
      const [plan] = await t.database.db
        .insert(plans)
        .values({ nodeid: uuidv7(), planid: `free-${Date.now()}`, name: 'Testversion', pricepermonth: 0, maxusers: 5, term: '30d', position: 0, quotas: [{ type: 'USERS', quota: '5' }, { type: 'TERM', quota: '30d' }] })
        .returning();
      const startingfrom = new Date();
      await t.database.db.insert(subscriptions).values({
        nodeid: uuidv7(),
        legalentitynodeid: le,
        plannodeid: plan!.nodeid,
        subscriptionid: `SUB-${Date.now()}`,
        term: '30d',
        quotas: plan!.quotas,
        startingfrom,
        noticeperiod: '1m',
        status: 'trial',
      });
      await t.database.db.insert(billingInfos).values({
        nodeid: uuidv7(),
        legalentitynodeid: le,
        billingname: 'Beispielwerke AG',
        billingstreet: 'Hauptstraße',
        billingstreetnumber: '1',
        billingzipcode: '12345',
        billingcity: 'Musterstadt',
        billingcountry: 'DE',
        billingbillingemail: 'rechnung@example.test',
      });
      const user = await insertUser(t.database.db, { legalentitynodeid: le, profileid: reader.profileid, givenname: 'Jonas', surname: 'Weber', email: 'Jonas.Weber@Example.test' });

      const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: ' jonas.weber@example.TEST ', password: user.password } });
      expect(response.statusCode).toBe(200);
      const session = sessionSchema.parse(response.json());
      expect(session).toMatchObject({
        legalentitynodeid: le,
        usernodeid: user.nodeid,
        userid: user.userid,
        clientid: tenant.legalEntity.clientid,
        clientinfo: { name: 'Beispielwerke AG', clienttype: 'company' },
        appid: 'anlagenbuch',
        superuser: false,
        userType: 'reader',
        autologoutweb: false,
        twoFa: false,
        twoFaGenerated: false,
        userinfo: { admin: false, profileid: 'reader', givenname: 'Jonas', surname: 'Weber', email: 'Jonas.Weber@Example.test' },
        baseinfo: { organisation: 'Beispielwerke AG', lang: 'de' },
        billinginfo: { billingname: 'Beispielwerke AG', billingcity: 'Musterstadt', billingcountry: 'DE', billingbillingemail: 'rechnung@example.test' },
      });
      expect(session.billinginfo?.subscriptionid).toMatch(/^SUB-/);
      expect(session.profiles.map((p) => p.id).sort()).toEqual(['admin', 'reader']);
      expect(session.profiles.find((p) => p.id === 'reader')!.features).toEqual({ site: [false, true, false, false] });
      expect(session.plans).toEqual([
        { nodeid: expect.any(String), name: plan!.planid, quotas: plan!.quotas, startingfrom: startingfrom.getTime(), noticeperiod: '1m', status: { isvalid: true } },
      ]);
      expect(session.clients).toBeUndefined();
    });

    it('reports only the active plans once a trial has been followed by a paid plan', async () => {
      const other = await insertTenant(t.database.db);
      const le = other.legalEntity.nodeid;
      const suffix = Date.now();
      const [free, paid] = await t.database.db
        .insert(plans)
        .values([
          { nodeid: uuidv7(), planid: `free-x-${suffix}`, name: 'Testversion', pricepermonth: 0, maxusers: 5, term: '30d', position: 0, quotas: [{ type: 'TERM', quota: '30d' }] },
          { nodeid: uuidv7(), planid: `pro-x-${suffix}`, name: 'Professional', pricepermonth: 450, maxusers: 30, term: '12m', position: 1, quotas: [{ type: 'USERS', quota: '30' }] },
        ])
        .returning();
      const base = { legalentitynodeid: le, noticeperiod: '1m' };
      await t.database.db.insert(subscriptions).values([
        { ...base, nodeid: uuidv7(), plannodeid: free!.nodeid, subscriptionid: `T-${suffix}`, term: '30d', quotas: free!.quotas, startingfrom: new Date(Date.now() - 90 * 86_400_000), status: 'expired' },
        { ...base, nodeid: uuidv7(), plannodeid: paid!.nodeid, subscriptionid: `P-${suffix}`, term: '12m', quotas: paid!.quotas, startingfrom: new Date(Date.now() - 50 * 86_400_000), status: 'active' },
      ]);
      const session = await loginAs(t.app, other.admin);
      expect(session.plans.map((p) => [p.name, p.status.isvalid])).toEqual([[paid!.planid, true]]);
      expect(session.billinginfo).toBeNull();

      const lapsed = await insertTenant(t.database.db);
      await t.database.db.insert(subscriptions).values({ ...base, legalentitynodeid: lapsed.legalEntity.nodeid, nodeid: uuidv7(), plannodeid: free!.nodeid, subscriptionid: `L-${suffix}`, term: '30d', quotas: free!.quotas, startingfrom: new Date(Date.now() - 40 * 86_400_000), status: 'trial' });
      const lapsedSession = await loginAs(t.app, lapsed.admin);
      expect(lapsedSession.plans.map((p) => [p.name, p.status.isvalid])).toEqual([[free!.planid, false]]);
    });

    it('gives a superuser the list of clients', async () => {
      const superuser = await insertUser(t.database.db, { legalentitynodeid: tenant.legalEntity.nodeid, profileid: 'admin', superuser: true });
      const session = await loginAs(t.app, superuser);
      expect(session.clients).toEqual(expect.arrayContaining([{ clientid: tenant.legalEntity.clientid, name: 'Beispielwerke AG' }]));
    });

    it('rejects a wrong password with 401 and the spec text', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: tenant.admin.email, password: 'Falsches!Passwort1' } });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: LOGIN_FAILED_MESSAGE });
    });

    it('rejects an unknown e-mail with the same 401', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'niemand@example.test', password: 'Irgendwas!123' } });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: LOGIN_FAILED_MESSAGE });
    });

    it('answers 403 Access Denied for an inactive account with the right password', async () => {
      const inactive = await insertUser(t.database.db, { legalentitynodeid: tenant.legalEntity.nodeid, profileid: 'admin', active: false });
      const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: inactive.email, password: inactive.password } });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ statusCode: 403, message: 'Access Denied' });
      const wrong = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: inactive.email, password: 'Falsches!Passwort1' } });
      expect(wrong.statusCode).toBe(401);
    });

    it('rejects a deleted account like an unknown one', async () => {
      const deleted = await insertUser(t.database.db, { legalentitynodeid: tenant.legalEntity.nodeid, profileid: 'admin', deletedAt: new Date() });
      const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: deleted.email, password: deleted.password } });
      expect(response.statusCode).toBe(401);
    });

    it.each([
      [{ password: 'Passwort!123' }, ['email']],
      [{ email: 'a@example.test' }, ['password']],
      [{}, ['email', 'password']],
      [{ email: 'not-an-email', password: 'Passwort!123' }, ['email']],
    ])('answers 400 naming the missing or bad fields for %j', async (payload, fields) => {
      const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload });
      expect(response.statusCode).toBe(400);
      const body = apiErrorSchema.parse(response.json());
      expect(body.details?.map((d) => d.field).sort()).toEqual(fields);
    });
  });

  describe('tokens', () => {
    it('lets an access token call a protected route; no token, garbage or a forged token get 401', async () => {
      const session = await loginAs(t.app, tenant.admin);
      expect((await t.app.inject({ method: 'GET', url: '/api/profiles', headers: { authorization: session.authorization } })).statusCode).toBe(200);
      for (const authorization of [undefined, 'Bearer not-a-jwt', 'Basic abc', `Bearer ${session.accesstoken}x`]) {
        const response = await t.app.inject({ method: 'GET', url: '/api/profiles', headers: authorization ? { authorization } : {} });
        expect(response.statusCode, String(authorization)).toBe(401);
        expect(apiErrorSchema.parse(response.json()).statusCode).toBe(401);
      }
      const forged = await signAccessTokenAt('another-secret-another-secret-another-secret', { usernodeid: tenant.admin.nodeid, legalentitynodeid: tenant.legalEntity.nodeid }, nowSeconds(), nowSeconds() + 600);
      expect((await t.app.inject({ method: 'GET', url: '/api/profiles', headers: { authorization: `Bearer ${forged}` } })).statusCode).toBe(401);
    });

    it('rejects an expired access token with 401', async () => {
      const expired = await signAccessTokenAt(TEST_JWT_SECRET, { usernodeid: tenant.admin.nodeid, legalentitynodeid: tenant.legalEntity.nodeid }, nowSeconds() - 3600, nowSeconds() - 60);
      const response = await t.app.inject({ method: 'GET', url: '/api/profiles', headers: { authorization: `Bearer ${expired}` } });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
    });

    it('applies a deactivation to the next request, not at token expiry', async () => {
      const user = await insertUser(t.database.db, { legalentitynodeid: tenant.legalEntity.nodeid, profileid: 'admin' });
      const session = await loginAs(t.app, user);
      await t.database.db.update(users).set({ active: false }).where(eq(users.nodeid, user.nodeid));
      expect((await t.app.inject({ method: 'GET', url: '/api/profiles', headers: { authorization: session.authorization } })).statusCode).toBe(401);
      expect((await refreshWith(t, session.refreshtoken)).statusCode).toBe(401);
    });

    it('applies a profile change to the next request', async () => {
      const le = tenant.legalEntity.nodeid;
      const profile = await insertProfile(t.database.db, { legalentitynodeid: le, features: allFeatures() });
      const user = await insertUser(t.database.db, { legalentitynodeid: le, profileid: profile.profileid });
      const session = await loginAs(t.app, user);
      const listSites = () => t.app.inject({ method: 'GET', url: '/api/sites', headers: { authorization: session.authorization } });
      expect((await listSites()).statusCode).toBe(200);
      const noSites = await insertProfile(t.database.db, { legalentitynodeid: le, features: allFeatures({ site: [false, false, false, false] }) });
      await t.database.db.update(users).set({ profileid: noSites.profileid }).where(eq(users.nodeid, user.nodeid));
      const denied = await listSites();
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toMatchObject({ message: ACCESS_DENIED_MESSAGE });
    });
  });

  describe('POST /api/object/refresh-token', () => {
    it('rotates: a new pair, the old token marked rotated, the new access token works', async () => {
      const session = await loginAs(t.app, tenant.admin);
      const response = await refreshWith(t, session.refreshtoken);
      expect(response.statusCode).toBe(200);
      const pair = response.json() as { accesstoken: string; refreshtoken: string };
      expect(Object.keys(pair).sort()).toEqual(['accesstoken', 'refreshtoken']);
      expect(pair.refreshtoken).not.toBe(session.refreshtoken);
      expect((await t.app.inject({ method: 'GET', url: '/api/profiles', headers: { authorization: `Bearer ${pair.accesstoken}` } })).statusCode).toBe(200);

      const [old] = await t.database.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hashRefreshToken(session.refreshtoken)));
      const [current] = await t.database.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hashRefreshToken(pair.refreshtoken)));
      expect(old!.rotatedAt).not.toBeNull();
      expect(current).toMatchObject({ familyId: old!.familyId, rotatedAt: null, revokedAt: null });
      // Only hashes are stored.
      const stored = await t.database.db.select({ hash: refreshTokens.tokenHash }).from(refreshTokens);
      expect(stored.some((r) => r.hash === session.refreshtoken || r.hash === pair.refreshtoken)).toBe(false);
    });

    it('detects reuse: a rotated token whose successor was already used revokes the whole family, even from its device', async () => {
      const device = newDevice();
      const session = await loginFrom(t, tenant.admin, device);
      const other = await loginFrom(t, tenant.admin, device);
      const first = pairOf(await refreshWith(t, session.refreshtoken, device));
      const second = pairOf(await refreshWith(t, first.refreshtoken, device));

      const replay = await refreshWith(t, session.refreshtoken, device);
      expect(replay.statusCode).toBe(401);
      // The legitimate holder's newest token dies with the family...
      expect((await refreshWith(t, second.refreshtoken, device)).statusCode).toBe(401);
      // ...while another login (another family) is untouched.
      expect((await refreshWith(t, other.refreshtoken, device)).statusCode).toBe(200);
    });

    it('detects reuse: a rotated token presented after the grace window revokes the family, even from its device', async () => {
      const device = newDevice();
      const session = await loginFrom(t, tenant.admin, device);
      const first = pairOf(await refreshWith(t, session.refreshtoken, device));
      await t.database.db
        .update(refreshTokens)
        .set({ rotatedAt: new Date(Date.now() - REFRESH_REUSE_GRACE_MS - 1000) })
        .where(eq(refreshTokens.tokenHash, hashRefreshToken(session.refreshtoken)));

      expect((await refreshWith(t, session.refreshtoken, device)).statusCode).toBe(401);
      expect((await refreshWith(t, first.refreshtoken, device)).statusCode).toBe(401);
    });

    it('lets the device whose refresh answer was lost retry once within the grace window (scenario 7)', async () => {
      const device = newDevice();
      const session = await loginFrom(t, tenant.admin, device);
      const lost = pairOf(await refreshWith(t, session.refreshtoken, device));

      const retry = await refreshWith(t, session.refreshtoken, device);
      expect(retry.statusCode).toBe(200);
      const pair = pairOf(retry);
      expect((await t.app.inject({ method: 'GET', url: '/api/profiles', headers: { authorization: `Bearer ${pair.accesstoken}` } })).statusCode).toBe(200);
      // The answer that never arrived is retired, unused; the retried one carries the login on.
      expect(await tokenRow(t, lost.refreshtoken)).toMatchObject({ rotatedAt: null, revokedAt: expect.any(Date) });
      expect(await tokenRow(t, session.refreshtoken)).toMatchObject({ retriedAt: expect.any(Date), revokedAt: null });
      expect((await refreshWith(t, pair.refreshtoken, device)).statusCode).toBe(200);
    });

    it('rejects an expired refresh token', async () => {
      const session = await loginAs(t.app, tenant.admin);
      await t.database.db.update(refreshTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(refreshTokens.usernodeid, tenant.admin.nodeid));
      expect((await refreshWith(t, session.refreshtoken)).statusCode).toBe(401);
    });

    it('rejects an unknown token, and an empty one with 400', async () => {
      expect((await refreshWith(t, 'bm90LWEtcmVhbC10b2tlbg')).statusCode).toBe(401);
      expect((await refreshWith(t, '')).statusCode).toBe(400);
    });
  });

  describe('refresh-token families bound to the device (issue #10, defect 4)', () => {
    const revokedFamily = async (familyId: string) => (await familyRows(t, familyId)).every((row) => row.revokedAt !== null);

    it('stores the device client id and only a hash of its secret on the family', async () => {
      const device = newDevice();
      const session = await loginFrom(t, tenant.admin, device);
      const row = await tokenRow(t, session.refreshtoken);
      expect(row.deviceClientId).toBe(device.deviceid);
      expect(row.deviceSecretHash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(await familyRows(t, row.familyId))).not.toContain(device.devicesecret);
      const next = pairOf(await refreshWith(t, session.refreshtoken, device));
      expect(await tokenRow(t, next.refreshtoken)).toMatchObject({ familyId: row.familyId, deviceClientId: device.deviceid, deviceSecretHash: row.deviceSecretHash });
    });

    it('the issue’s replay: R1 → R2, R1 replayed from elsewhere within the grace window → 401, family revoked, owner’s R2 → 401', async () => {
      const device = newDevice();
      const r1 = (await loginFrom(t, tenant.admin, device)).refreshtoken;
      const r2 = pairOf(await refreshWith(t, r1, device)).refreshtoken;
      const { familyId } = await tokenRow(t, r1);

      const replay = await refreshWith(t, r1);
      expect(replay.statusCode).toBe(401);
      expect(await revokedFamily(familyId)).toBe(true);
      expect((await refreshWith(t, r2, device)).statusCode).toBe(401);
    });

    it('a replay from another device, or with the right client id and a wrong secret, is reuse too', async () => {
      for (const thief of [newDevice(), (d: TestDevice) => ({ ...d, devicesecret: newDevice().devicesecret })] as const) {
        const device = newDevice();
        const r1 = (await loginFrom(t, tenant.admin, device)).refreshtoken;
        const r2 = pairOf(await refreshWith(t, r1, device)).refreshtoken;
        const other = typeof thief === 'function' ? thief(device) : thief;
        expect((await refreshWith(t, r1, other)).statusCode).toBe(401);
        expect(await revokedFamily((await tokenRow(t, r1)).familyId)).toBe(true);
        expect((await refreshWith(t, r2, device)).statusCode).toBe(401);
      }
    });

    it('even the current token is refused from another device: the family is revoked', async () => {
      const device = newDevice();
      const session = await loginFrom(t, tenant.admin, device);
      expect((await refreshWith(t, session.refreshtoken, newDevice())).statusCode).toBe(401);
      expect((await refreshWith(t, session.refreshtoken, device)).statusCode).toBe(401);
    });

    it('the same device retries once: a new pair; a second retry revokes the family', async () => {
      const device = newDevice();
      const r1 = (await loginFrom(t, tenant.admin, device)).refreshtoken;
      pairOf(await refreshWith(t, r1, device));
      const retried = await refreshWith(t, r1, device);
      expect(retried.statusCode).toBe(200);
      const r2b = pairOf(retried).refreshtoken;

      expect((await refreshWith(t, r1, device)).statusCode).toBe(401);
      expect(await revokedFamily((await tokenRow(t, r1)).familyId)).toBe(true);
      expect((await refreshWith(t, r2b, device)).statusCode).toBe(401);
    });

    it('after a retry the retired R2 is a second holder: presenting it revokes the family', async () => {
      const device = newDevice();
      const r1 = (await loginFrom(t, tenant.admin, device)).refreshtoken;
      const r2 = pairOf(await refreshWith(t, r1, device)).refreshtoken;
      const r2b = pairOf(await refreshWith(t, r1, device)).refreshtoken;

      expect((await refreshWith(t, r2, device)).statusCode).toBe(401);
      expect((await refreshWith(t, r2b, device)).statusCode).toBe(401);
    });

    it('five parallel refreshes of one token from its device: one rotation and one retry succeed, three are reuse and revoke the family', async () => {
      const device = newDevice();
      const r1 = (await loginFrom(t, tenant.admin, device)).refreshtoken;
      const answers = await Promise.all(Array.from({ length: 5 }, () => refreshWith(t, r1, device)));
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 401, 401, 401]);
      expect(await revokedFamily((await tokenRow(t, r1)).familyId)).toBe(true);
      for (const ok of answers.filter((a) => a.statusCode === 200)) expect((await refreshWith(t, pairOf(ok).refreshtoken, device)).statusCode).toBe(401);
    });

    it('five parallel refreshes of one token from elsewhere: none succeeds, the family is revoked', async () => {
      const device = newDevice();
      const r1 = (await loginFrom(t, tenant.admin, device)).refreshtoken;
      const thief = newDevice();
      const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => refreshWith(t, r1, i % 2 ? thief : undefined)));
      expect(answers.map((a) => a.statusCode)).toEqual([401, 401, 401, 401, 401]);
      expect(await revokedFamily((await tokenRow(t, r1)).familyId)).toBe(true);
    });

    it('a family from a login without device credentials gets no grace: exactly one of five parallel refreshes succeeds', async () => {
      const session = await loginAs(t.app, tenant.admin);
      const answers = await Promise.all(Array.from({ length: 5 }, () => refreshWith(t, session.refreshtoken)));
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401, 401, 401, 401]);
      expect(await revokedFamily((await tokenRow(t, session.refreshtoken)).familyId)).toBe(true);
    });

    it('a family without a device is bound to the first device that refreshes it; afterwards only that device may', async () => {
      const session = await loginAs(t.app, tenant.admin);
      const device = newDevice();
      const r2 = pairOf(await refreshWith(t, session.refreshtoken, device)).refreshtoken;
      expect(await tokenRow(t, session.refreshtoken)).toMatchObject({ deviceClientId: device.deviceid });
      // The binding device's lost answer is covered like any other.
      const r2b = pairOf(await refreshWith(t, session.refreshtoken, device)).refreshtoken;
      expect(r2b).not.toBe(r2);
      expect((await refreshWith(t, r2b)).statusCode).toBe(401);
      expect((await refreshWith(t, r2b, device)).statusCode).toBe(401);
    });
  });

  describe('POST /api/auth/logout', () => {
    it('revokes the refresh token family', async () => {
      const session = await loginAs(t.app, tenant.admin);
      const rotated = (await refreshWith(t, session.refreshtoken)).json() as { accesstoken: string; refreshtoken: string };
      const response = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { authorization: `Bearer ${rotated.accesstoken}` }, payload: { token: rotated.refreshtoken } });
      expect(response.statusCode).toBe(204);
      expect((await refreshWith(t, rotated.refreshtoken)).statusCode).toBe(401);
    });

    it('ends the session at once: the access token used is refused on the next request, as an expired one', async () => {
      const session = await loginAs(t.app, tenant.admin);
      expect((await profilesWith(t, session.accesstoken)).statusCode).toBe(200);
      const response = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { authorization: session.authorization }, payload: { token: session.refreshtoken } });
      expect(response.statusCode).toBe(204);
      const refused = await profilesWith(t, session.accesstoken);
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['www-authenticate']).toBe('Bearer');
      expect(apiErrorSchema.parse(refused.json()).message).toBe('Access token invalid or expired');
    });

    it('a logout without a body ends the session of the access token used, also a rotated one', async () => {
      const session = await loginAs(t.app, tenant.admin);
      const rotated = pairOf(await refreshWith(t, session.refreshtoken));
      const response = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { authorization: `Bearer ${rotated.accesstoken}` } });
      expect(response.statusCode).toBe(204);
      expect((await profilesWith(t, rotated.accesstoken)).statusCode).toBe(401);
      expect((await profilesWith(t, session.accesstoken)).statusCode).toBe(401);
      expect((await refreshWith(t, rotated.refreshtoken)).statusCode).toBe(401);
    });

    it('another device of the same user keeps its session when one device logs out', async () => {
      const tablet = await loginFrom(t, tenant.admin, newDevice());
      const laptopDevice = newDevice();
      const laptop = await loginFrom(t, tenant.admin, laptopDevice);
      const response = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { authorization: `Bearer ${tablet.accesstoken}` }, payload: { token: tablet.refreshtoken } });
      expect(response.statusCode).toBe(204);
      expect((await profilesWith(t, tablet.accesstoken)).statusCode).toBe(401);
      expect((await profilesWith(t, laptop.accesstoken)).statusCode).toBe(200);
      const next = pairOf(await refreshWith(t, laptop.refreshtoken, laptopDevice));
      expect((await profilesWith(t, next.accesstoken)).statusCode).toBe(200);
    });

    it('needs an access token and ignores someone else’s refresh token', async () => {
      const victim = await insertUser(t.database.db, { legalentitynodeid: tenant.legalEntity.nodeid, profileid: 'admin' });
      const victimSession = await loginAs(t.app, victim);
      expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', payload: { token: victimSession.refreshtoken } })).statusCode).toBe(401);
      const attacker = await loginAs(t.app, tenant.admin);
      const response = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { authorization: attacker.authorization }, payload: { token: victimSession.refreshtoken } });
      expect(response.statusCode).toBe(204);
      // Only the caller's own session ended.
      expect((await profilesWith(t, attacker.accesstoken)).statusCode).toBe(401);
      expect((await profilesWith(t, victimSession.accesstoken)).statusCode).toBe(200);
      expect((await refreshWith(t, victimSession.refreshtoken)).statusCode).toBe(200);
    });
  });

  describe('access tokens end with their session (sid = the refresh-token family)', () => {
    const sidOf = (accesstoken: string) => (JSON.parse(Buffer.from(accesstoken.split('.')[1]!, 'base64url').toString()) as { sid?: string }).sid;
    const adminClaims = () => ({ usernodeid: tenant.admin.nodeid, legalentitynodeid: tenant.legalEntity.nodeid });

    it('login starts a family and names it in the access token; a refresh keeps it', async () => {
      const session = await loginAs(t.app, tenant.admin);
      const { familyId } = await tokenRow(t, session.refreshtoken);
      expect(sidOf(session.accesstoken)).toBe(familyId);
      expect(sidOf(pairOf(await refreshWith(t, session.refreshtoken)).accesstoken)).toBe(familyId);
    });

    it('refresh-token reuse ends the family’s access tokens at once, the thief’s and the owner’s', async () => {
      const device = newDevice();
      const session = await loginFrom(t, tenant.admin, device);
      const first = pairOf(await refreshWith(t, session.refreshtoken, device));
      expect((await profilesWith(t, first.accesstoken)).statusCode).toBe(200);

      expect((await refreshWith(t, session.refreshtoken, newDevice())).statusCode).toBe(401);
      expect((await profilesWith(t, session.accesstoken)).statusCode).toBe(401);
      expect((await profilesWith(t, first.accesstoken)).statusCode).toBe(401);
    });

    it('a grace retry keeps the family alive: its access tokens keep working', async () => {
      const device = newDevice();
      const session = await loginFrom(t, tenant.admin, device);
      const lost = pairOf(await refreshWith(t, session.refreshtoken, device));
      const retried = pairOf(await refreshWith(t, session.refreshtoken, device));
      // The retired successor is a revoked row of a family that lives on.
      expect(await tokenRow(t, lost.refreshtoken)).toMatchObject({ revokedAt: expect.any(Date) });
      expect((await profilesWith(t, retried.accesstoken)).statusCode).toBe(200);
      expect((await profilesWith(t, session.accesstoken)).statusCode).toBe(200);
    });

    it('a family whose rows are gone counts as ended, not as alive', async () => {
      const session = await loginAs(t.app, tenant.admin);
      await t.database.db.delete(refreshTokens).where(eq(refreshTokens.familyId, (await tokenRow(t, session.refreshtoken)).familyId));
      expect((await profilesWith(t, session.accesstoken)).statusCode).toBe(401);
    });

    it('refuses a token naming another user’s family or a family that never was', async () => {
      const other = await insertUser(t.database.db, { legalentitynodeid: tenant.legalEntity.nodeid, profileid: 'admin' });
      const otherSession = await loginAs(t.app, other);
      const otherFamily = (await tokenRow(t, otherSession.refreshtoken)).familyId;
      for (const sid of [otherFamily, uuidv4()]) {
        const token = await signAccessTokenAt(TEST_JWT_SECRET, { ...adminClaims(), sid }, nowSeconds(), nowSeconds() + 600);
        expect((await profilesWith(t, token)).statusCode, sid).toBe(401);
      }
    });

    it('a token without sid (from before) works until it expires, but only for one access-token lifetime', async () => {
      const legacy = await signAccessTokenAt(TEST_JWT_SECRET, adminClaims(), nowSeconds() - 60, nowSeconds() + 600);
      expect((await profilesWith(t, legacy)).statusCode).toBe(200);
      const tooLong = await signAccessTokenAt(TEST_JWT_SECRET, adminClaims(), nowSeconds(), nowSeconds() + 24 * 3600);
      expect((await profilesWith(t, tooLong)).statusCode).toBe(401);
    });
  });
});

/** For the surrounding suite: the app with LOGIN_RATE_LIMIT `limit` and a tenant whose admin has not signed in yet. */
function rateLimitedApp(limit: string): { t: TestApp; tenant: TestTenant } {
  const app = {} as { t: TestApp; tenant: TestTenant };
  beforeAll(async () => {
    app.t = await createTestApp({ LOGIN_RATE_LIMIT: limit });
    app.tenant = await insertTenant(app.t.database.db);
  });
  afterAll(() => app.t?.close());
  return app;
}

describe('login rate limit', () => {
  const app = rateLimitedApp('6/3');

  it('limits attempts per account, then per IP, with 429 and Retry-After', async () => {
    const { t, tenant } = app;
    const attempt = (email: string) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'Falsches!Passwort1' } });
    for (let i = 0; i < 3; i++) expect((await attempt(tenant.admin.email)).statusCode).toBe(401);
    const limited = await attempt(tenant.admin.email);
    expect(limited.statusCode).toBe(429);
    expect(apiErrorSchema.parse(limited.json()).statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The right password does not get past the account limit either.
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: tenant.admin.email, password: tenant.admin.password } })).statusCode).toBe(429);

    // 5 attempts so far from this IP; the 6th (another account) passes, the 7th hits the IP limit.
    expect((await attempt('someone@example.test')).statusCode).toBe(401);
    expect((await attempt('someone-else@example.test')).statusCode).toBe(429);
  });
});

describe('login e-mail length', () => {
  const app = rateLimitedApp('100/100');

  // An attacker's probe: failed logins with a megabyte e-mail each grew the server by a megabyte (the e-mail was
  // kept as the rate limit's key). Now such a body is refused at its headers, and a long address is a 400.
  it('an address longer than 254 characters is a 400, a body beyond a login 413, and neither is counted', async () => {
    const { t } = app;
    const long = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: `${'a'.repeat(300)}@example.test`, password: 'Falsches!Passwort1' } });
    expect(long.statusCode).toBe(400);
    const huge = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: `${'a'.repeat(1_000_000)}@example.test`, password: 'Falsches!Passwort1' } });
    expect(huge.statusCode).toBe(413);
  });
});

describe('login rate limit per account', () => {
  const app = rateLimitedApp('100/2');

  it('counts only failed attempts, so nobody can lock a colleague out by posting their address', async () => {
    const { t, tenant } = app;
    const login = (password: string) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: tenant.admin.email, password } });
    for (let i = 0; i < 4; i++) expect((await login(tenant.admin.password)).statusCode).toBe(200);
    expect((await login('Falsches!Passwort1')).statusCode).toBe(401);
    expect((await login(tenant.admin.password)).statusCode).toBe(200);
    expect((await login('Falsches!Passwort2')).statusCode).toBe(401);
    expect((await login(tenant.admin.password)).statusCode).toBe(429);
  });
});

describe('login attempts sent at once', () => {
  const app = rateLimitedApp('100/3');

  // An attacker's probe: failures were counted when answered, so wrong passwords sent at the same time all had
  // their password checked (on PostgreSQL, with its pool of connections, six of twelve where the limit is three;
  // PGlite checks them one after another). Attempts being checked count now.
  it('count while their passwords are checked: no more than the limit get an answer other than 429', async () => {
    const { t, tenant } = app;
    const user = await insertUser(t.database.db, { legalentitynodeid: tenant.legalEntity.nodeid, profileid: 'admin' });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: `Falsches!Passwort${i}` } })),
    );
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 401)).toHaveLength(3);
    expect(codes.filter((code) => code === 429)).toHaveLength(9);
    // Settled: the three failures stay counted, nothing else is left over.
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: user.password } })).statusCode).toBe(429);
  });

  it('a right password being checked does not hold the next attempt up once answered', async () => {
    const { t, tenant } = app;
    const user = await insertUser(t.database.db, { legalentitynodeid: tenant.legalEntity.nodeid, profileid: 'admin' });
    const logins = await Promise.all(Array.from({ length: 3 }, () => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: user.password } })));
    expect(logins.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: user.password } })).statusCode).toBe(200);
  });
});

describe('login lockout per account and client (issue #10, defect 8)', () => {
  const app = rateLimitedApp('100/3');
  const attempt = (t: TestApp, user: { email: string }, password: string, device?: TestDevice, remoteAddress?: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password, ...device }, ...(remoteAddress ? { remoteAddress } : {}) });

  it('an attacker’s wrong passwords from elsewhere do not lock out a device that signed this user in before', async () => {
    const { t, tenant } = app;
    const user = await insertUser(t.database.db, { legalentitynodeid: tenant.legalEntity.nodeid, profileid: 'admin' });
    const tablet = newDevice();
    await loginFrom(t, user, tablet);

    const attacker = newDevice();
    for (let i = 0; i < 3; i++) expect((await attempt(t, user, 'Falsches!Passwort1', attacker)).statusCode).toBe(401);
    expect((await attempt(t, user, 'Falsches!Passwort1', attacker)).statusCode).toBe(429);
    // The account is limited now: guessing from anywhere else stops before the password is checked...
    const elsewhere = await attempt(t, user, user.password, undefined, '203.0.113.7');
    expect(elsewhere.statusCode).toBe(429);
    expect(Number(elsewhere.headers['retry-after'])).toBeGreaterThan(0);
    expect((await attempt(t, user, user.password, newDevice())).statusCode).toBe(429);
    expect((await attempt(t, user, user.password, { ...tablet, devicesecret: newDevice().devicesecret })).statusCode).toBe(429);
    // ...while the user's own tablet still signs in with the right password.
    expect((await attempt(t, user, user.password, tablet)).statusCode).toBe(200);
  });

  it('a known device is limited for its own wrong passwords, per account', async () => {
    const { t, tenant } = app;
    const user = await insertUser(t.database.db, { legalentitynodeid: tenant.legalEntity.nodeid, profileid: 'admin' });
    const colleague = await insertUser(t.database.db, { legalentitynodeid: tenant.legalEntity.nodeid, profileid: 'admin' });
    const tablet = newDevice();
    await loginFrom(t, user, tablet);
    for (let i = 0; i < 3; i++) expect((await attempt(t, user, 'Falsches!Passwort1', tablet)).statusCode).toBe(401);
    expect((await attempt(t, user, user.password, tablet)).statusCode).toBe(429);
    // Another account on the same tablet is not affected.
    expect((await attempt(t, colleague, colleague.password, tablet)).statusCode).toBe(200);
  });
});

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
