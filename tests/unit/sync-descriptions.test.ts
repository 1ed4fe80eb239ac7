import { describe, expect, it } from 'vitest';
import { LocalDatabase } from '../../src/client/db/local-db';
import { PENDING_DELETE } from '../../src/client/sync/mirror-fields';
import { addCounterReading } from '../../src/client/sync/repositories/counters';
import { createNotification, updateNotificationStatus } from '../../src/client/sync/repositories/notifications';
import { saveSubscriptions } from '../../src/client/sync/repositories/subscriptions';
import { describeEntry, refusalReason, refusalReasonOf, refusedContent, REFUSED_CONTENT_FIELDS } from '../../src/client/sync/use-sync-lists';
import { COMMISSIONED_BEFORE_BUILT_DETAIL, EQUIPMENT_ID_TAKEN_DETAIL } from '../../src/shared/api/equipment';
import { localized } from '../../src/shared/domain/text';
import { mutationByAction } from '../../src/shared/mutations/registry';

const USER = '0190f5a0-0000-7000-8000-0000000000aa';
const SITE = '0190f5a0-0000-7000-8000-000000000001';
const AREA = '0190f5a0-0000-7000-8000-000000000011';
const POOL = '0190f5a0-0000-7000-8000-000000000021';
const MACHINE = '0190f5a0-0000-7000-8000-000000000031';
const COUNTER = '0190f5a0-0000-7000-8000-000000000041';
const COUNTER_TYPE = '0190f5a0-0000-7000-8000-000000000051';
const UNIT = '0190f5a0-0000-7000-8000-000000000061';

const newDb = () => new LocalDatabase(`describe-test-${Math.random()}`);

/** The sync panel names what each unsent write is about, in the user's words (the record's name), from its declaration. */
describe('sync panel descriptions', () => {
  it('a fault report names its machine and title; a status change its title and the new status; a reading its machine, counter and value', async () => {
    const db = newDb();
    await db.mirror('equipment').put({ nodeid: MACHINE, name: 'BAZ 01 Fräszentrum' });
    await db.mirror('units').put({ nodeid: UNIT, unitid: 'HUR', symbol: 'h', displayName: { plural: { de: 'Stunden', en: 'hours' } } });
    await db.mirror('countertypes').put({ nodeid: COUNTER_TYPE, name: { de: 'Betriebsstunden' }, builtin: true, unitnodeid: UNIT });
    await db.mirror('counters').put({ nodeid: COUNTER, name: 'Betriebsstunden', equipmentnodeid: MACHINE, countertypenodeid: COUNTER_TYPE });
    const context = { db, usernodeid: USER };
    const report = await createNotification(context, { type: 0, title: 'Spindel läuft heiß', equipmentnodeid: MACHINE });
    await updateNotificationStatus(context, (await db.mirror('notifications').get(report))!, 2);
    await addCounterReading(context, { counternodeid: COUNTER, value: 1234.5 });
    const described = await Promise.all((await db.outbox.orderBy('mutationId').toArray()).map((entry) => describeEntry(db, entry)));
    expect(described).toEqual([
      { action: 'createNotification', params: { name: 'BAZ 01 Fräszentrum', title: 'Spindel läuft heiß' } },
      { action: 'updateNotificationStatus', params: { title: 'Spindel läuft heiß' }, status: 2 },
      { action: 'addCounterReading', params: { name: 'Betriebsstunden', machine: 'BAZ 01 Fräszentrum', value: 1234.5, unitsymbol: 'h' } },
    ]);
    // The panel writes the reading in its language, with the counter's unit (found: always German, without unit).
    const { changeLanguage, i18n, initI18n, loadAppTexts } = await import('../../src/client/lib/i18n');
    initI18n('de');
    await loadAppTexts();
    const reading = described[2]!.params;
    expect(i18n.t('sync.describe.addCounterReading', reading)).toBe('Zählerstand erfassen: BAZ 01 Fräszentrum – Betriebsstunden = 1.234,5 h');
    await changeLanguage('en');
    expect(i18n.t('sync.describe.addCounterReading', reading)).toBe('Record counter reading: BAZ 01 Fräszentrum – Betriebsstunden = 1,234.5 h');
    await changeLanguage('de');
  });

  it('the written row is named from the entry when its mirror row is gone (a refused create), and unknown names are null', async () => {
    const db = newDb();
    const context = { db, usernodeid: USER };
    await createNotification(context, { type: 0, title: 'Ohne Maschine im Spiegel', equipmentnodeid: MACHINE });
    const [entry] = await db.outbox.toArray();
    await db.mirror('notifications').clear();
    expect(await describeEntry(db, entry!)).toEqual({ action: 'createNotification', params: { name: null, title: 'Ohne Maschine im Spiegel' } });
    expect(await describeEntry(db, { ...entry!, action: 'deleteNotification', method: 'DELETE', path: `notifications/${entry!.nodeid}`, body: undefined })).toEqual({
      action: 'deleteNotification',
      params: { name: 'Ohne Maschine im Spiegel' },
    });
  });

  it('an action no declaration knows shows the call it makes', async () => {
    const db = newDb();
    expect(await describeEntry(db, { action: 'somethingElse', method: 'POST', path: 'x', kind: 'equipment', nodeid: 'm1', values: {}, dependsOn: [] })).toEqual({ action: 'other', params: { what: 'POST /api/x' } });
  });

  it('localised names are read in the panel’s language, else German, else any', () => {
    expect(localized({ de: 'Flurförderzeuge', en: 'Industrial trucks' }, 'en')).toBe('Industrial trucks');
    expect(localized({ de: 'Flurförderzeuge' }, 'en')).toBe('Flurförderzeuge');
    expect(localized({ fr: 'Chariots' }, 'en')).toBe('Chariots');
    expect(localized({ de: 'Flurförderzeuge' }, '__proto__')).toBe('Flurförderzeuge');
    expect(localized('  ', 'de')).toBeNull();
    expect(localized(null, 'de')).toBeNull();
  });

  it('follow and unfollow are named after the plant, area or pool, also once the entry is hidden by its delete', async () => {
    const db = newDb();
    await db.mirror('sites').put({ nodeid: SITE, name: 'Werk Stuttgart' });
    await db.mirror('areas').put({ nodeid: AREA, name: 'Halle 1', sitenodeid: SITE });
    await db.mirror('equipmentpools').put({ nodeid: POOL, name: { de: 'Flurförderzeuge', en: 'Industrial trucks' } });
    const context = { db, usernodeid: USER };
    const none = new Map<string, string>();
    await saveSubscriptions(context, { sites: new Set([SITE]), areas: new Set(), equipmentpools: new Set([POOL]) }, none);
    await saveSubscriptions(context, { sites: new Set(), areas: new Set([AREA]), equipmentpools: new Set([POOL]) }, none);
    const entries = await db.outbox.orderBy('mutationId').toArray();
    const described = await Promise.all(entries.map((entry) => describeEntry(db, entry)));
    expect(described.map((d) => [d.action, d.params])).toEqual([
      ['followStructure', { name: 'Werk Stuttgart' }],
      ['followStructure', { name: 'Flurförderzeuge' }],
      ['unfollowStructure', { name: 'Werk Stuttgart' }],
      ['followStructure', { name: 'Halle 1' }],
    ]);
    expect(await db.mirror('subscriptions').get(entries[2]!.nodeid)).toMatchObject({ [PENDING_DELETE]: true });
  });

  it.skipIf(!mutationByAction('updateEquipment') || !mutationByAction('createEquipmentType'))('equipment and catalogue writes are named after the machine, brand or type model', async () => {
    const db = newDb();
    await db.mirror('equipment').put({ nodeid: MACHINE, name: 'BAZ 01 Fräszentrum' });
    const base = { method: 'POST' as const, dependsOn: [] };
    expect((await describeEntry(db, { ...base, method: 'PUT', path: `equipments/${MACHINE}`, action: 'updateEquipment', kind: 'equipment', nodeid: MACHINE, values: { name: 'ignored' } })).params).toEqual({ name: 'BAZ 01 Fräszentrum' });
    expect((await describeEntry(db, { ...base, path: 'equipmenttypes', action: 'createEquipmentType', kind: 'equipmenttypes', nodeid: 't1', values: { model: 'DMU 65' } })).params).toEqual({ name: 'DMU 65' });
  });
});

/** A refused change says why in the user's words; the server's own (English) message is only its detail. */
describe('sync panel refusals', () => {
  it('each refusal status has a reason, and each reason a German and an English text', async () => {
    const de = (await import('../../src/client/i18n/de.json')).default.sync.panel.refused as Record<string, string>;
    const en = (await import('../../src/client/i18n/en.json')).default.sync.panel.refused as Record<string, string>;
    // The server refuses with 4xx only; a 5xx letter is one the user set aside after repeated server errors.
    const reasons = [400, 403, 404, 409, 410, 413, 422, 418, 500, 501].map(refusalReason);
    expect(reasons).toEqual(['invalid', 'forbidden', 'notFound', 'conflict', 'deleted', 'tooLarge', 'invalid', 'other', 'setAside', 'setAside']);
    for (const reason of reasons) {
      expect(de[reason], reason).toMatch(/\S/);
      expect(en[reason], reason).toMatch(/\S/);
    }
  });

  it('an Equipment-ID another machine took meanwhile is named as such, not as the generic conflict', async () => {
    const de = (await import('../../src/client/i18n/de.json')).default.sync.panel.refused as Record<string, string>;
    const en = (await import('../../src/client/i18n/en.json')).default.sync.panel.refused as Record<string, string>;
    // The stored error of a refused machine create or update (the bulk create names the item's field).
    const taken = (field: string) => ({ status: 409, error: { statusCode: 409, error: 'Conflict', message: 'equipmentid: Another machine of the organisation already has the Equipment-ID "BAZ-06"', details: [{ field, message: EQUIPMENT_ID_TAKEN_DETAIL.message }] } });
    expect(refusalReasonOf(taken('equipmentid'))).toBe('equipmentIdTaken');
    expect(refusalReasonOf(taken('items.3.equipmentid'))).toBe('equipmentIdTaken');
    // Another 409 naming the field, or this message at another field, is no such refusal.
    expect(refusalReasonOf({ status: 409, error: { message: 'x', details: [{ field: 'equipmentid', message: 'Already used by another record' }] } })).toBe('conflict');
    expect(refusalReasonOf({ status: 409, error: { message: 'x', details: [{ field: 'inventoryid', message: EQUIPMENT_ID_TAKEN_DETAIL.message }] } })).toBe('conflict');
    expect(de.equipmentIdTaken).toMatch(/Equipment-ID/);
    expect(en.equipmentIdTaken).toMatch(/Equipment ID/);
    // The ID the user typed is shown with the refusal, so they see which one it was.
    expect(refusedContent({ name: 'BAZ 07', equipmentid: 'BAZ-06' })).toEqual([
      { field: 'name', text: 'BAZ 07' },
      { field: 'equipmentid', text: 'BAZ-06' },
    ]);
  });

  it('a build year changed meanwhile past the commissioning year sent is named as such, not as invalid input', async () => {
    const de = (await import('../../src/client/i18n/de.json')).default.sync.panel.refused as Record<string, string>;
    const en = (await import('../../src/client/i18n/en.json')).default.sync.panel.refused as Record<string, string>;
    const refused = (field: string, message: string) => ({ status: 400, error: { statusCode: 400, error: 'Bad Request', message: `Invalid body: ${field}: ${message}`, details: [{ field, message }] } });
    expect(refusalReasonOf(refused('commissioningdate', COMMISSIONED_BEFORE_BUILT_DETAIL.message))).toBe('commissionedBeforeBuilt');
    expect(refusalReasonOf(refused('items.2.commissioningdate', COMMISSIONED_BEFORE_BUILT_DETAIL.message))).toBe('commissionedBeforeBuilt');
    expect(refusalReasonOf(refused('commissioningdate', 'Das Jahr darf nicht in der Zukunft liegen'))).toBe('invalid');
    expect(de.commissionedBeforeBuilt).toMatch(/Baujahr/);
    expect(en.commissionedBeforeBuilt).toMatch(/build year/);
  });
});

describe('what a refused change shows of its content', () => {
  it('the texts the user typed, in a fixed order, and nothing else (ids, times, statuses, empty fields)', () => {
    const values = { nodeid: '0190f5a0-0000-7000-8000-0000000000aa', status: 1, created: 1_700_000_000_000, stepdescription: 'Filter der IKZ gereinigt.', title: 'H1 Filter gereinigt', errorcode: '  ', description: '' };
    expect(refusedContent(values)).toEqual([
      { field: 'title', text: 'H1 Filter gereinigt' },
      { field: 'stepdescription', text: 'Filter der IKZ gereinigt.' },
    ]);
  });

  it('every field it shows has a label in German and English', async () => {
    const [de, en] = await Promise.all([import('../../src/client/i18n/de.json'), import('../../src/client/i18n/en.json')]);
    for (const field of REFUSED_CONTENT_FIELDS) {
      expect(typeof (de.default.sync.panel.fields as Record<string, unknown>)[field]).toBe('string');
      expect(typeof (en.default.sync.panel.fields as Record<string, unknown>)[field]).toBe('string');
    }
  });
});
