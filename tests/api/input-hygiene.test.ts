import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../src/shared/api/errors';
import { localized } from '../../src/shared/domain/text';
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

  // Found by an attacker's probe: a lone UTF-16 surrogate (half an emoji, as a broken paste or a cut text sends it)
  // was stored as U+FFFD on create, but an update answered 400 "Invalid value" (the change history's jsonb refuses
  // it), so the same text saved offline would be refused on the way in. Now every write stores it the same way.
  it('a lone surrogate is stored as U+FFFD by a create and by an update alike, its neighbours kept', async () => {
    const { authorization } = await loginAs(t.app, tenant.admin);
    // The raw JSON: an escaped lone surrogate, as JSON.stringify writes one.
    const body = (name: string, more: Record<string, string> = {}) => JSON.stringify({ ...more, lang: 'de', name, street: 'Hauptstraße 1', zipcode: '70173', city: 'Stuttgart', country: 'DE', legalentitynodeid: tenant.legalEntity.nodeid });
    const created = await t.app.inject({ method: 'POST', url: '/api/sites', headers: { authorization, 'content-type': 'application/json' }, payload: body('Werk \uD83D Süd 😀') });
    expect(created.statusCode, created.body).toBe(201);
    const { nodeid } = created.json<{ nodeid: string }>();
    const updated = await t.app.inject({ method: 'PUT', url: `/api/sites/${nodeid}`, headers: { authorization, 'content-type': 'application/json' }, payload: body('Werk \uDE00 Ost \ud83d\ude00', { sitenodeid: nodeid }) });
    expect(updated.statusCode, updated.body).toBe(200);
    const [row] = await t.database.db.select().from(sites);
    expect(localized(row!.name, 'de')).toBe('Werk \uFFFD Ost 😀');
  });
});
