import { eq } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { v4 as uuidv4 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionSchema } from '../../src/shared/api/auth';
import { hashRefreshToken } from '../../src/server/auth/tokens';
import { refreshTokens } from '../../src/server/db/schema';
import { cleanUpSessions, EXPIRED_REFRESH_TOKEN_KEEP_DAYS } from '../../src/server/jobs/session-cleanup';
import type { TestTenant } from '../factories/tenant';
import { createOneTenantApp, type TestApp } from './support/test-app';

// Deleting refresh-token rows that expired long ago (jobs/session-cleanup.ts): a family gains a row per refresh,
// and nothing deleted them before.

const DAY = 86_400_000;

describe('auth: expired refresh tokens are deleted', () => {
  let t: TestApp;
  let a: TestTenant;

  const device = () => ({ deviceid: uuidv4(), devicesecret: randomBytes(32).toString('base64url') });
  const login = async (from: ReturnType<typeof device>) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: a.admin.email, password: a.admin.password, ...from } });
    expect(response.statusCode, response.body).toBe(200);
    return sessionSchema.parse(response.json());
  };
  const refresh = (token: string, from: ReturnType<typeof device>) => t.app.inject({ method: 'POST', url: '/api/object/refresh-token', payload: { token, ...from } });
  const familyOf = async (token: string) => (await t.database.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hashRefreshToken(token))))[0]!.familyId;
  const familyRows = (familyId: string) => t.database.db.select().from(refreshTokens).where(eq(refreshTokens.familyId, familyId));
  const expireFamily = (familyId: string, daysAgo: number) =>
    t.database.db.update(refreshTokens).set({ expiresAt: new Date(Date.now() - daysAgo * DAY) }).where(eq(refreshTokens.familyId, familyId));
  const reads = (accesstoken: string) => t.app.inject({ method: 'GET', url: '/api/profiles', headers: { authorization: `Bearer ${accesstoken}` } });

  beforeAll(async () => {
    ({ t, a } = await createOneTenantApp());
  });
  afterAll(() => t?.close());

  it('deletes rows expired longer than the keep period; a live session, its older rows and a recently expired one stay', async () => {
    const tablet = device();
    const live = await login(tablet);
    const liveFamily = await familyOf(live.refreshtoken);
    // One refresh: the family has a rotated row and its current one.
    const rotated = await refresh(live.refreshtoken, tablet);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const current = rotated.json() as { accesstoken: string; refreshtoken: string };
    // The rotated row expired long ago (as after months of daily use), the current one did not.
    await t.database.db
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() - (EXPIRED_REFRESH_TOKEN_KEEP_DAYS + 5) * DAY) })
      .where(eq(refreshTokens.tokenHash, hashRefreshToken(live.refreshtoken)));

    const ended = await login(device());
    const endedFamily = await familyOf(ended.refreshtoken);
    await expireFamily(endedFamily, EXPIRED_REFRESH_TOKEN_KEEP_DAYS + 1);
    const recent = await login(device());
    const recentFamily = await familyOf(recent.refreshtoken);
    await expireFamily(recentFamily, EXPIRED_REFRESH_TOKEN_KEEP_DAYS - 1);

    expect(await cleanUpSessions(t.app.serviceContext)).toBe(2);
    expect(await familyRows(endedFamily)).toHaveLength(0);
    expect((await familyRows(liveFamily)).map((row) => row.tokenHash)).toEqual([hashRefreshToken(current.refreshtoken)]);
    expect(await familyRows(recentFamily)).toHaveLength(1);
    // Run again (another instance, the next tick): nothing more.
    expect(await cleanUpSessions(t.app.serviceContext)).toBe(0);

    // The live session goes on: its access token works and it refreshes; the deleted old token is refused.
    expect((await reads(current.accesstoken)).statusCode).toBe(200);
    expect((await refresh(current.refreshtoken, tablet)).statusCode).toBe(200);
    expect((await refresh(live.refreshtoken, tablet)).statusCode).toBe(401);
    // A session whose rows are gone has ended: its access token is refused (it had expired long before anyway).
    expect((await reads(ended.accesstoken)).statusCode).toBe(401);
  });
});
