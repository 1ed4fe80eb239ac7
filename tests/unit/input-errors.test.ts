import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { LocalDatabase } from '../../src/client/db/local-db';
import de from '../../src/client/i18n/de.json';
import { inputErrors, liveFieldErrors } from '../../src/client/lib/input-errors';
import { createSiteSchema } from '../../src/shared/api/sites';
import { createNotification } from '../../src/client/sync/repositories/notifications';
import { MutationInputError } from '../../src/shared/mutations/mutation';

const USER = '0190f5a0-0000-7000-8000-0000000000aa';
const MACHINE = '0190f5a0-0000-7000-8000-0000000000bb';

async function germanT() {
  const i18n = i18next.createInstance();
  await i18n.init({ lng: 'de', resources: { de: { translation: de } } });
  return i18n.t;
}

describe('an input the server would refuse is refused in the form, before anything is queued', () => {
  it('a fault report with a title over 500 characters: MutationInputError naming the title; no mirror row, no outbox entry', async () => {
    const db = new LocalDatabase(`input-errors-${Math.random()}`);
    const failure = await createNotification({ db, usernodeid: USER }, { type: 0, title: 'x'.repeat(501), equipmentnodeid: MACHINE }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MutationInputError);
    expect((failure as MutationInputError).fieldErrors()).toEqual({ title: 'Must be at most 500 characters' });
    expect(await db.outbox.count()).toBe(0);
    expect(await db.mirror('notifications').count()).toBe(0);
  });

  it('the form shows the field’s message in German', async () => {
    const t = await germanT();
    const refused = new MutationInputError('createNotification', [
      { field: 'title', message: 'Must be at most 500 characters' },
      { field: 'equipmentnodeid', message: 'Required' },
      { field: 'type', message: 'Types 4 and 5 are not used' },
    ]);
    expect(inputErrors(refused, t)).toEqual({ title: 'Höchstens 500 Zeichen.', equipmentnodeid: 'Pflichtfeld', type: 'Ungültige Eingabe.' });
  });

  it('other failures (a full disk, a bug) are not field errors', async () => {
    const t = await germanT();
    expect(inputErrors(new DOMException('disk full', 'QuotaExceededError'), t)).toBeNull();
    expect(inputErrors(new Error('boom'), t)).toBeNull();
  });

  it('a form says under its fields what the schema refuses while the user types: too long, spaces only; not an untouched empty field', async () => {
    const t = await germanT();
    const site = { legalentitynodeid: MACHINE, lang: 'de', name: '   ', street: '', siteid: '', zipcode: '7'.repeat(25), city: 'Stuttgart', country: 'DE' };
    const errors = liveFieldErrors(createSiteSchema.safeParse(site), site, t);
    expect(errors).toMatchObject({ name: 'Pflichtfeld', zipcode: 'Höchstens 20 Zeichen.' });
    expect(errors).not.toHaveProperty('street');
    const valid = { ...site, name: 'Werk Süd', street: 'Industriestraße 5', zipcode: '70565' };
    expect(liveFieldErrors(createSiteSchema.safeParse(valid), valid, t)).toEqual({});
  });
});
