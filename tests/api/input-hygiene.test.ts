import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../src/shared/api/errors';
import { sites } from '../../src/server/db/schema';
import { insertTenant, loginAs, type TestTenant } from '../factories/tenant';
import { createTestApp, type TestApp } from './support/test-app';

describe('text PostgreSQL cannot store', () => {
  let t: TestApp;
  let tenant: TestTenant;
  beforeAll(async () => {
    t = await createTestApp();
    tenant = await insertTenant(t.database.db);
  });
  afterAll(() => t?.close());

  it('a NUL character in any field is a 400 naming the field, and nothing is written', async () => {
    const { authorization } = await loginAs(t.app, tenant.admin);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/sites',
      headers: { authorization },
      payload: { lang: 'de', name: 'Werk\u0000Nord', street: 'Hauptstraße 1', zipcode: '70173', city: 'Stuttgart', country: 'DE', legalentitynodeid: tenant.legalEntity.nodeid },
    });
    expect(response.statusCode).toBe(400);
    expect(apiErrorSchema.parse(response.json()).details).toEqual([{ field: 'name', message: 'Must not contain NUL characters' }]);
    expect(await t.database.db.select().from(sites)).toEqual([]);
  });
});
