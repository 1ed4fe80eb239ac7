import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { apiErrorSchema } from '../../src/shared/api/errors';
import { notifications, sites } from '../../src/server/db/schema';
import { insertEquipment } from '../factories/structure';
import { createOneTenantApp, type OneTenantApp } from './support/test-app';

/**
 * A text that shows nothing is no text. "Texts are trimmed; a field of only spaces counts as missing" (docs/api.md)
 * held for spaces only: a plant, a machine or a notification title of zero-width spaces, a word joiner, a soft
 * hyphen or a lone bidi override passed `Required` and was stored, a record whose name shows as nothing in every
 * list, picker and mail. The input schemas now trim whitespace and invisible characters alike (`trimText`,
 * src/shared/domain/text.ts).
 */
describe('texts of invisible characters only', () => {
  let s: OneTenantApp;
  beforeAll(async () => {
    s = await createOneTenantApp();
  });
  afterAll(() => s?.t.close());

  const INVISIBLE_ONLY = ['\u200B', '\u2060\u200D', '\u00AD', '\u202E', '\uFEFF\u200B \u200E', '\u3164'];

  it('a required plant field of only invisible characters is a 400 naming it, and nothing is written', async () => {
    for (const invisible of INVISIBLE_ONLY) {
      const response = await s.t.app.inject({
        method: 'POST',
        url: '/api/sites',
        headers: { authorization: s.adminA },
        payload: { lang: 'de', name: invisible, street: 'Hauptstraße 1', zipcode: '70173', city: 'Stuttgart', country: 'DE', legalentitynodeid: s.a.legalEntity.nodeid },
      });
      expect(response.statusCode, JSON.stringify(invisible)).toBe(400);
      expect(apiErrorSchema.parse(response.json()).details).toEqual([{ field: 'name', message: 'Required' }]);
    }
    expect(await s.t.database.db.select().from(sites).where(eq(sites.legalentitynodeid, s.a.legalEntity.nodeid))).toEqual([]);
  });

  it('a notification title of a zero-width space is a 400; invisible characters around a title are trimmed like spaces', async () => {
    const machine = await insertEquipment(s.t.database.db, { legalentitynodeid: s.a.legalEntity.nodeid });
    const refused = await s.t.app.inject({
      method: 'POST',
      url: '/api/notifications',
      headers: { authorization: s.adminA },
      payload: { lang: 'de', type: 0, title: '\u200B', equipmentnodeid: machine.nodeid },
    });
    expect(refused.statusCode).toBe(400);
    expect(apiErrorSchema.parse(refused.json()).details).toEqual([{ field: 'title', message: 'Required' }]);

    const created = await s.t.app.inject({
      method: 'POST',
      url: '/api/notifications',
      headers: { authorization: s.adminA },
      payload: { lang: 'de', type: 0, title: '\u200B Leck an Presse 1 \u2060', description: '\u00AD', equipmentnodeid: machine.nodeid },
    });
    expect(created.statusCode).toBe(201);
    const row = created.json<{ nodeid: string; title: string; description: string | null }>();
    expect(row).toMatchObject({ title: 'Leck an Presse 1', description: null });
    const [stored] = await s.t.database.db.select().from(notifications).where(eq(notifications.nodeid, row.nodeid));
    expect(stored).toMatchObject({ title: 'Leck an Presse 1', description: null });
  });

  it('keeps what shows: an emoji with its variation selector, a zero-width joiner inside a name', async () => {
    const machine = await insertEquipment(s.t.database.db, { legalentitynodeid: s.a.legalEntity.nodeid });
    const created = await s.t.app.inject({
      method: 'POST',
      url: '/api/notifications',
      headers: { authorization: s.adminA },
      payload: { lang: 'de', type: 0, title: 'Pumpe ❤️', description: 'a\u200Db', equipmentnodeid: machine.nodeid },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ title: 'Pumpe ❤️', description: 'a\u200Db' });
  });
});
