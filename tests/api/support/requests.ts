import { expect } from 'vitest';
import type { FeatureKey, FlagTuple, PermissionFlag } from '../../../src/shared/permissions';
import { allFeatures, insertProfile, insertUser, loginAs } from '../../factories/tenant';
import type { TestApp } from './test-app';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A JSON request through the real app, as the client sends it. */
export function call(t: TestApp, authorization: string, method: Method, url: string, payload?: unknown) {
  return t.app.inject({ method, url, headers: { authorization }, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
}

/** A POST that must answer 201 Created; the answer parsed with `schema`. */
export async function postCreated<T>(t: TestApp, authorization: string, url: string, body: unknown, schema: { parse(value: unknown): T }): Promise<T> {
  const response = await call(t, authorization, 'POST', url, body);
  expect(response.statusCode, response.body).toBe(201);
  return schema.parse(response.json());
}

/** Exactly one flag of a feature set. */
export const onlyFlag = (flag: PermissionFlag): FlagTuple => [flag === 'create', flag === 'read', flag === 'update', flag === 'delete'];
/** Every flag of a feature but one. */
export const allFlagsBut = (flag: PermissionFlag): FlagTuple => onlyFlag(flag).map((v) => !v) as unknown as FlagTuple;

/** A signed-in non-admin user of the tenant whose profile has every feature, with `feature` set to `flags`. */
export async function userWithFlags(t: TestApp, legalentitynodeid: string, feature: FeatureKey, flags: FlagTuple): Promise<{ authorization: string; usernodeid: string }> {
  const profile = await insertProfile(t.database.db, { legalentitynodeid, features: allFeatures({ [feature]: flags }) });
  const user = await insertUser(t.database.db, { legalentitynodeid, profileid: profile.profileid });
  return { authorization: (await loginAs(t.app, user)).authorization, usernodeid: user.nodeid };
}
