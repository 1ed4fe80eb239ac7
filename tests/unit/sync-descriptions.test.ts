import { describe, expect, it } from 'vitest';
import { LocalDatabase } from '../../src/client/db/local-db';
import { PENDING_DELETE } from '../../src/client/sync/mirror-fields';
import { saveSubscriptions } from '../../src/client/sync/repositories/subscriptions';
import { describeEntry } from '../../src/client/sync/use-sync-lists';

const USER = '0190f5a0-0000-7000-8000-0000000000aa';
const SITE = '0190f5a0-0000-7000-8000-000000000001';
const AREA = '0190f5a0-0000-7000-8000-000000000011';
const POOL = '0190f5a0-0000-7000-8000-000000000021';

/** The sync panel names what each unsent write is about, in the user's words (the record's name). */
describe('sync panel descriptions', () => {
  it('follow and unfollow are named after the plant, area or pool, also once the entry is hidden by its delete', async () => {
    const db = new LocalDatabase(`describe-test-${Math.random()}`);
    await db.mirror('sites').put({ nodeid: SITE, name: 'Werk Stuttgart' });
    await db.mirror('areas').put({ nodeid: AREA, name: 'Halle 1', sitenodeid: SITE });
    await db.mirror('equipmentpools').put({ nodeid: POOL, name: { de: 'Flurförderzeuge', en: 'Industrial trucks' } });
    const context = { db, usernodeid: USER };
    const none = new Map<string, string>();
    await saveSubscriptions(context, { sites: new Set([SITE]), areas: new Set(), equipmentpools: new Set([POOL]) }, none);
    await saveSubscriptions(context, { sites: new Set(), areas: new Set([AREA]), equipmentpools: new Set([POOL]) }, none);
    const entries = await db.outbox.orderBy('mutationId').toArray();
    const described = await Promise.all(entries.map((entry) => describeEntry(db, entry)));
    expect(described.map((d) => d.params)).toEqual([
      { change: 'followStructure', name: 'Werk Stuttgart' },
      { change: 'followStructure', name: 'Flurförderzeuge' },
      { change: 'unfollowStructure', name: 'Werk Stuttgart' },
      { change: 'followStructure', name: 'Halle 1' },
    ]);
    expect(await db.mirror('subscriptions').get(entries[2]!.nodeid)).toMatchObject({ [PENDING_DELETE]: true });
  });

  it('equipment and catalogue writes are named after the machine, brand or type model; an unknown action shows the call', async () => {
    const db = new LocalDatabase(`describe-test-${Math.random()}`);
    await db.mirror('equipment').put({ nodeid: 'm1', name: 'BAZ 01 Fräszentrum' });
    const base = { method: 'POST' as const, path: 'x', dependsOn: [] };
    expect((await describeEntry(db, { ...base, action: 'updateEquipment', kind: 'equipment', nodeid: 'm1', values: { name: 'ignored' } })).params).toEqual({ change: 'updateEquipment', name: 'BAZ 01 Fräszentrum' });
    expect((await describeEntry(db, { ...base, action: 'createEquipmentType', kind: 'equipmenttypes', nodeid: 't1', values: { model: 'DMU 65' } })).params).toEqual({ change: 'createEquipmentType', name: 'DMU 65' });
    expect(await describeEntry(db, { ...base, action: 'somethingElse', kind: 'equipment', nodeid: 'm1', values: {} })).toEqual({ action: 'other', params: { what: 'POST /api/x' } });
  });
});
