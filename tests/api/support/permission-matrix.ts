import { expect, it } from 'vitest';
import { ACCESS_DENIED_MESSAGE } from '../../../src/shared/api/errors';
import type { FeatureKey, FlagTuple, PermissionFlag } from '../../../src/shared/permissions';
import { allFlagsBut, call, onlyFlag, userWithFlags, type Method } from './requests';
import type { TestApp } from './test-app';

/** One route of a feature: the flag it needs, and the request it makes on the record `subject` made. */
export interface FlagRoute<Subject> {
  flag: PermissionFlag;
  name: string;
  request: (subject: Subject) => [Method, string, unknown?];
  ok: number;
}

export interface FlagMatrix<Subject> {
  /** The app and the tenant whose users are made; read when a test runs, after the suite's `beforeAll`. */
  tenant: () => { t: TestApp; legalentitynodeid: string };
  feature: FeatureKey;
  routes: FlagRoute<Subject>[];
  /** Makes the record the routes work on, fresh for every test. */
  subject: () => Promise<Subject>;
  /** What a refused request must leave as it was: read before and after, and the two must be equal. */
  state?: () => Promise<unknown>;
  /** Further checks after a refusal (the record still reads as before, the exact error body). */
  afterRefusal?: (subject: Subject, response: Awaited<ReturnType<typeof call>>) => Promise<void>;
}

/**
 * The spec's permission check for every route of one feature, as each resource's suite states it: a user with
 * every flag but the route's own is refused with 403 (and `state` stays as it was); a user with only that flag
 * (and read, for a change or delete) succeeds.
 */
export function itChecksEachFlag<Subject>({ tenant, feature, routes, subject, state, afterRefusal }: FlagMatrix<Subject>): void {
  it.each(routes)(`$name without the $flag flag: 403${state ? ', nothing changed' : ''}`, async ({ flag, request }) => {
    const { t, legalentitynodeid } = tenant();
    const record = await subject();
    const before = await state?.();
    const { authorization } = await userWithFlags(t, legalentitynodeid, feature, allFlagsBut(flag));
    const [method, url, payload] = request(record);
    const response = await call(t, authorization, method, url, payload);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ message: ACCESS_DENIED_MESSAGE });
    if (state) expect(await state()).toEqual(before);
    await afterRefusal?.(record, response);
  });

  // A change or delete also needs read of what it changes (readsNeeded in src/shared/mutations/mutation.ts): its
  // answer is the row. A create needs only its flag.
  it.each(routes)('$name with only the $flag flag (and read, for a change) succeeds', async ({ flag, request, ok }) => {
    const { t, legalentitynodeid } = tenant();
    const record = await subject();
    const flags = flag === 'update' || flag === 'delete' ? withRead(onlyFlag(flag)) : onlyFlag(flag);
    const { authorization } = await userWithFlags(t, legalentitynodeid, feature, flags);
    const [method, url, payload] = request(record);
    const response = await call(t, authorization, method, url, payload);
    expect(response.statusCode, response.body).toBe(ok);
  });
}

const withRead = ([create, , update, remove]: FlagTuple): FlagTuple => [create, true, update, remove];
