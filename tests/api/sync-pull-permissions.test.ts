// why first: Dexie looks for IndexedDB when it is imported; the device's database lives in fake-indexeddb.
import 'fake-indexeddb/auto';
import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNotification } from '../../src/client/sync/repositories/notifications';
import { ATTACHMENT_TARGET_SYNC_KINDS, pullResponseSchema, readableSyncKinds, SYNC_KIND_FEATURES, SYNC_KINDS, syncScope, withheldAttachments, type PullResponse, type SyncKind } from '../../src/shared/api/sync';
import { ATTACHMENT_TARGET_KINDS } from '../../src/shared/domain/attachment';
import { userRowSchema } from '../../src/shared/rows/reference';
import { FEATURE_KEYS, NONE, READ_ONLY, type FeatureKey, type FlagTuple } from '../../src/shared/permissions';
import { chatMessages, chatRoomMembers, chatRooms, profiles, tombstones, users } from '../../src/server/db/schema';
import { insertCounterReading } from '../factories/notifications';
import { allFeatures, insertProfile, insertUser, loginAs } from '../factories/tenant';
import { onlyFlag } from './support/requests';
import { Device, mirrorAndFreshView } from './support/sync-device';
import { insertSyncPlant, type SyncPlant } from './support/sync-plant';
import { createTestApp, type TestApp } from './support/test-app';

// The pull filtered by the user's read permissions (docs/sync.md § Pull by permission).

const NOTIFICATION_FAMILY: SyncKind[] = ['notifications', 'notificationassignments', 'workflows', 'workflowsteps', 'reports', 'costtypes', 'costs', 'chatrooms', 'chatmessages'];
const COUNTER_FAMILY: SyncKind[] = ['countertypes', 'counters', 'counterreadings'];

describe('sync: the pull by read permission', () => {
  let t: TestApp;
  let plant: SyncPlant;
  let serverUrl: string;
  const le = () => plant.tenant.legalEntity.nodeid;

  const pullAll = async (authorization: string): Promise<PullResponse> => {
    const response = await t.app.inject({ method: 'GET', url: '/api/sync/pull?cursor=0', headers: { authorization, 'x-client-id': uuidv7() } });
    expect(response.statusCode, response.body).toBe(200);
    return pullResponseSchema.parse(response.json());
  };
  const kindsIn = (page: PullResponse) => new Set(page.changes.map((change) => change.kind));
  /** The address each users row of the page carries, by user. */
  const emailsIn = (page: PullResponse) => new Map(page.changes.filter((change) => change.kind === 'users' && !change.deleted).map((change) => [change.nodeid, userRowSchema.strict().parse(change.data).email]));
  const userWith = async (features: Partial<Record<FeatureKey, FlagTuple>>) => {
    const profile = await insertProfile(t.database.db, { legalentitynodeid: le(), features: allFeatures(features) });
    return insertUser(t.database.db, { legalentitynodeid: le(), profileid: profile.profileid });
  };

  beforeAll(async () => {
    t = await createTestApp();
    plant = await insertSyncPlant(t.database.db);
    await insertCounterReading(t.database.db, { legalentitynodeid: le(), counternodeid: plant.counter });
    serverUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t?.close());

  it('every kind names the features it needs; structure and reference data need none', () => {
    expect(Object.keys(SYNC_KIND_FEATURES).sort()).toEqual([...SYNC_KINDS].sort());
    expect(readableSyncKinds({ admin: true, features: {} })).toEqual([...SYNC_KINDS]);
    expect(syncScope({ admin: true, features: {} })).toBe('');
    const nothing = readableSyncKinds({ admin: false, features: {} });
    expect(nothing).toContain('equipment');
    expect(nothing).toContain('users');
    expect(nothing).not.toContain('notifications');
    // A sub-feature alone is not enough: reports need the notification feature too.
    expect(readableSyncKinds({ admin: false, features: { 'notification.report': onlyFlag('read') } })).not.toContain('reports');
  });

  it('without notification read: no notifications, workflows, reports, costs or chat; the rest comes', async () => {
    const user = await userWith({ notification: NONE });
    const page = await pullAll((await loginAs(t.app, user)).authorization);
    const kinds = kindsIn(page);
    for (const kind of NOTIFICATION_FAMILY) expect(kinds.has(kind), kind).toBe(false);
    expect(kinds.has('equipment')).toBe(true);
    expect(kinds.has('counterreadings')).toBe(true);
    // The kinds, then the attachments on what they cannot read (a solution's step, a report, a notification).
    const withheld = ATTACHMENT_TARGET_KINDS.filter((target) => NOTIFICATION_FAMILY.includes(ATTACHMENT_TARGET_SYNC_KINDS[target])).map(withheldAttachments);
    expect(withheld.length).toBeGreaterThan(0);
    expect(page.scope).toBe([...NOTIFICATION_FAMILY.filter((kind) => SYNC_KINDS.includes(kind)).sort((a, b) => SYNC_KINDS.indexOf(a) - SYNC_KINDS.indexOf(b)), ...withheld].join(','));
  });

  it('without counter read: no counter types, counters or readings; notifications come', async () => {
    const user = await userWith({ 'equipment.counter': [true, false, true, true] });
    const kinds = kindsIn(await pullAll((await loginAs(t.app, user)).authorization));
    for (const kind of COUNTER_FAMILY) expect(kinds.has(kind), kind).toBe(false);
    expect(kinds.has('notifications')).toBe(true);
  });

  it('tombstones of a kind the user may not read are not sent either', async () => {
    const admin = await loginAs(t.app, plant.tenant.admin);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/notifications',
      headers: { authorization: admin.authorization },
      payload: { lang: 'de', nodeid: uuidv7(), type: 1, title: 'Wird gelöscht', equipmentnodeid: plant.machines[0]! },
    });
    expect(created.statusCode, created.body).toBe(201);
    const nodeid = (created.json() as { nodeid: string }).nodeid;
    expect((await t.app.inject({ method: 'DELETE', url: `/api/notifications/${nodeid}`, headers: { authorization: admin.authorization } })).statusCode).toBeLessThan(300);
    const adminPage = await pullAll(admin.authorization);
    expect(adminPage.changes.some((change) => change.deleted && change.nodeid === nodeid)).toBe(true);
    const blind = await userWith({ notification: NONE });
    const page = await pullAll((await loginAs(t.app, blind)).authorization);
    expect(page.changes.some((change) => change.nodeid === nodeid)).toBe(false);
  });

  it('a permission change leaves no stale rows on the device and brings back what became readable', async () => {
    const profile = await insertProfile(t.database.db, { legalentitynodeid: le(), features: allFeatures() });
    const user = await insertUser(t.database.db, { legalentitynodeid: le(), profileid: profile.profileid });
    const tablet = new Device({ baseUrl: serverUrl });
    try {
      await tablet.login(user);
      await tablet.pull();
      expect(await tablet.db.mirror('notifications').get(plant.notification)).toBeDefined();

      // The admin takes notification read away (and, offline, the user had already written a notification).
      const offline = await createNotification(tablet.context(), { type: 0, title: 'Vor dem Rechteentzug', equipmentnodeid: plant.machines[0]! });
      await t.database.db.update(profiles).set({ features: allFeatures({ notification: [true, false, true, true] }) }).where(eq(profiles.profileid, profile.profileid));
      const result = await tablet.pull();
      expect(result.reset).toBe(true);
      expect(await tablet.db.mirror('notifications').get(plant.notification)).toBeUndefined();
      // The user's own pending write stays, on screen and in the outbox, until the server decides on it.
      expect(await tablet.db.mirror('notifications').get(offline)).toBeDefined();
      expect((await tablet.pending()).map((entry) => entry.nodeid)).toEqual([offline]);
      await tablet.syncUntilIdle();
      let view = await mirrorAndFreshView(tablet, user, serverUrl);
      expect(view.mirror).toEqual(view.fresh);
      expect(view.mirror.notifications).toEqual([]);

      // Read is granted again (another profile): the rows older than the device's cursor come back.
      const reading = await insertProfile(t.database.db, { legalentitynodeid: le(), features: allFeatures() });
      await t.database.db.update(users).set({ profileid: reading.profileid }).where(eq(users.nodeid, user.nodeid));
      expect((await tablet.pull()).reset).toBe(true);
      expect(await tablet.db.mirror('notifications').get(plant.notification)).toBeDefined();
      expect(await tablet.db.mirror('notifications').get(offline)).toBeDefined();
      view = await mirrorAndFreshView(tablet, user, serverUrl);
      expect(view.mirror).toEqual(view.fresh);
    } finally {
      await tablet.close();
    }
  });

  describe('colleagues’ e-mail addresses (display data only without user read)', () => {
    // Like the demo's profiles (seed/demo/build-organisation.ts): the reader reads everything but the user
    // administration, the technician also writes notifications; and a profile with no feature at all.
    const readerLike = () => Object.fromEntries(FEATURE_KEYS.map((key) => [key, key === 'user' ? NONE : READ_ONLY]));

    it('a caller without user read gets every users row but their own with an empty address, deactivated users too', async () => {
      const gone = await insertUser(t.database.db, { legalentitynodeid: le(), profileid: 'technician', active: false });
      const reader = await insertUser(t.database.db, { legalentitynodeid: le(), profileid: (await insertProfile(t.database.db, { legalentitynodeid: le(), features: readerLike() })).profileid });
      const technician = await userWith({ user: NONE });
      const nobody = await insertUser(t.database.db, { legalentitynodeid: le(), profileid: (await insertProfile(t.database.db, { legalentitynodeid: le() })).profileid });
      for (const caller of [reader, technician, nobody]) {
        const page = await pullAll((await loginAs(t.app, caller)).authorization);
        const emails = emailsIn(page);
        // Not vacuous: the admin, the plant's technicians and the deactivated user are in the page.
        for (const colleague of [plant.tenant.admin, ...plant.technicians, gone]) expect(emails.get(colleague.nodeid), `${caller.email} sees ${colleague.email}`).toBe('');
        for (const [nodeid, email] of emails) if (nodeid !== caller.nodeid) expect(email, nodeid).toBe('');
        // Their own address, as GET /api/users/:id gives it to them.
        expect(emails.get(caller.nodeid)).toBe(caller.email);
        expect(page.scope?.split(',')).toContain('users.email');
        expect(JSON.stringify(page)).not.toContain(plant.tenant.admin.email);
      }
    });

    it('a caller with user read gets every address: the admin, a user manager', async () => {
      const all = await t.database.db.select({ nodeid: users.nodeid, email: users.email }).from(users).where(eq(users.legalentitynodeid, le()));
      const manager = await insertUser(t.database.db, { legalentitynodeid: le(), profileid: (await insertProfile(t.database.db, { legalentitynodeid: le(), features: { user: READ_ONLY } })).profileid });
      for (const caller of [plant.tenant.admin, manager]) {
        const page = await pullAll((await loginAs(t.app, caller)).authorization);
        const emails = emailsIn(page);
        for (const user of all) expect(emails.get(user.nodeid), user.nodeid).toBe(user.email);
        expect(page.scope?.split(',')).not.toContain('users.email');
      }
    });

    it('losing user read takes the addresses off the device; getting it back brings them', async () => {
      const colleague = plant.technicians[0]!;
      const profile = await insertProfile(t.database.db, { legalentitynodeid: le(), features: allFeatures() });
      const user = await insertUser(t.database.db, { legalentitynodeid: le(), profileid: profile.profileid });
      const tablet = new Device({ baseUrl: serverUrl });
      try {
        await tablet.login(user);
        await tablet.pull();
        expect((await tablet.db.mirror('users').get(colleague.nodeid))?.email).toBe(colleague.email);

        // No user row changes, so only the scope can tell the device that the rows it holds say too much.
        await t.database.db.update(profiles).set({ features: allFeatures({ user: NONE }) }).where(eq(profiles.profileid, profile.profileid));
        expect((await tablet.pull()).reset).toBe(true);
        expect((await tablet.db.mirror('users').get(colleague.nodeid))?.email).toBe('');
        expect((await tablet.db.mirror('users').get(user.nodeid))?.email).toBe(user.email);
        let view = await mirrorAndFreshView(tablet, user, serverUrl);
        expect(view.mirror).toEqual(view.fresh);

        await t.database.db.update(profiles).set({ features: allFeatures() }).where(eq(profiles.profileid, profile.profileid));
        expect((await tablet.pull()).reset).toBe(true);
        expect((await tablet.db.mirror('users').get(colleague.nodeid))?.email).toBe(colleague.email);
        view = await mirrorAndFreshView(tablet, user, serverUrl);
        expect(view.mirror).toEqual(view.fresh);
      } finally {
        await tablet.close();
      }
    });
  });

  it('a notification’s chat comes to every notification reader; who takes part and how far they read comes to nobody', async () => {
    // docs/sync.md § Pull by permission: the discussion is part of the notification, its members are private.
    const admin = await loginAs(t.app, plant.tenant.admin);
    const nodeid = uuidv7();
    const created = await t.app.inject({ method: 'POST', url: '/api/notifications', headers: { authorization: admin.authorization }, payload: { lang: 'de', nodeid, type: 1, title: 'Mit Chat', equipmentnodeid: plant.machines[0]! } });
    expect(created.statusCode, created.body).toBe(201);
    const [room, membership, message] = [uuidv7(), uuidv7(), uuidv7()];
    const member = plant.technicians[0]!;
    await t.database.db.insert(chatRooms).values({ nodeid: room, legalentitynodeid: le(), name: 'Mit Chat', notificationnodeid: nodeid });
    await t.database.db.insert(chatRoomMembers).values({ nodeid: membership, legalentitynodeid: le(), chatroomnodeid: room, usernodeid: member.nodeid, lastreadat: new Date() });
    await t.database.db.insert(chatMessages).values({ nodeid: message, legalentitynodeid: le(), chatroomnodeid: room, authornodeid: member.nodeid, body: 'Bin dran', sent: new Date() });

    const outsider = await userWith({});
    const outsiderAuth = (await loginAs(t.app, outsider)).authorization;
    const page = await pullAll(outsiderAuth);
    expect(page.changes.filter((change) => change.nodeid === room || change.nodeid === message).map((change) => change.kind).sort()).toEqual(['chatmessages', 'chatrooms']);
    expect(JSON.stringify(page)).not.toContain(membership);
    expect(JSON.stringify(page)).not.toContain('lastreadat');

    // Deleting the notification leaves a tombstone for the membership too; it is not sent either.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/notifications/${nodeid}`, headers: { authorization: admin.authorization } })).statusCode).toBeLessThan(300);
    expect(await t.database.db.select().from(tombstones).where(eq(tombstones.nodeid, membership))).toHaveLength(1);
    const after = await t.app.inject({ method: 'GET', url: `/api/sync/pull?cursor=${page.cursor}`, headers: { authorization: outsiderAuth, 'x-client-id': uuidv7() } });
    const deleted = pullResponseSchema.parse(after.json()).changes.filter((change) => change.deleted);
    expect(deleted.map((change) => change.nodeid)).toEqual(expect.arrayContaining([room, message]));
    expect(deleted.map((change) => change.nodeid)).not.toContain(membership);
  });
});
