import { and, eq } from 'drizzle-orm';
import { v4 as uuidv4 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_DENIED_MESSAGE, apiErrorSchema } from '../../src/shared/api/errors';
import { structureTreeSchema } from '../../src/shared/api/structure';
import { subscriptionSchema } from '../../src/shared/api/subscriptions';
import { subscriptionNodeId } from '../../src/shared/domain/subscription';
import { subscriptionRowSchema } from '../../src/shared/rows/structure';
import { structureSubscriptions, tombstones } from '../../src/server/db/schema';
import { insertArea, insertEquipment, insertEquipmentPool, insertSite } from '../factories/structure';
import { insertUser, loginAs, type TestTenant } from '../factories/tenant';
import { rowCount, tenantVersion } from './support/db-queries';
import { call, onlyFlag, userWithFlags } from './support/requests';
import { changeOf, pullChanges, sentTwice } from './support/structure';
import { createTwoTenantApp, type TestApp } from './support/test-app';

describe('subscriptions (what a dashboard shows)', () => {
  let t: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let adminA: string;

  beforeAll(async () => {
    ({ t, a, b, adminA } = await createTwoTenantApp());
  });
  afterAll(() => t?.close());

  const follow = (authorization: string, body: Record<string, unknown>) => call(t, authorization, 'POST', '/api/subscriptions', body);

  it('follows a pool with the derived id, once: a repeat answers the same entry without a new version; in the change feed', async () => {
    const le = a.legalEntity.nodeid;
    const pool = await insertEquipmentPool(t.database.db, { legalentitynodeid: le });
    const v0 = await tenantVersion(t.database.db, le);
    const first = await follow(adminA, { usernodeid: a.admin.nodeid, equipmentpoolnodeid: pool.nodeid });
    expect(first.statusCode, first.body).toBe(200);
    // A write answers the entry's row, exactly (what the change feed sends).
    const entry = subscriptionRowSchema.strict().parse(first.json());
    expect(entry).toEqual({ nodeid: subscriptionNodeId(a.admin.nodeid, pool.nodeid), legalentitynodeid: le, usernodeid: a.admin.nodeid, sitenodeid: null, areanodeid: null, equipmentpoolnodeid: pool.nodeid, version: v0 + 1 });
    expect(await tenantVersion(t.database.db, le)).toBe(v0 + 1);

    const again = await follow(adminA, { usernodeid: a.admin.nodeid, equipmentpoolnodeid: pool.nodeid });
    expect(again.json()).toEqual(entry);
    expect(await tenantVersion(t.database.db, le)).toBe(v0 + 1);
    expect(await rowCount(t.database.db, structureSubscriptions, eq(structureSubscriptions.equipmentpoolnodeid, pool.nodeid))).toBe(1);

    expect(changeOf(await pullChanges(t, adminA, v0), 'subscriptions', entry.nodeid).data).toEqual(entry);
    const listed = subscriptionSchema.array().parse((await call(t, adminA, 'GET', '/api/subscriptions')).json());
    expect(listed.map((s) => s.nodeid)).toContain(entry.nodeid);
  });

  it('a followed site brings all its areas to GET /api/sitesareasequipments, a followed area only itself; unlinked machines never', async () => {
    const le = a.legalEntity.nodeid;
    const user = await insertUser(t.database.db, { legalentitynodeid: le, profileid: a.adminProfile.profileid });
    const authorization = (await loginAs(t.app, user)).authorization;
    const site = await insertSite(t.database.db, { legalentitynodeid: le, name: 'Werk Nord' });
    const [press, weld] = [
      await insertArea(t.database.db, { legalentitynodeid: le, sitenodeid: site.nodeid, name: 'Presse' }),
      await insertArea(t.database.db, { legalentitynodeid: le, sitenodeid: site.nodeid, name: 'Schweißen' }),
    ];
    await insertEquipment(t.database.db, { legalentitynodeid: le, areanodeid: press!.nodeid, name: 'Presse 1' });
    await insertEquipment(t.database.db, { legalentitynodeid: le, name: 'Lose' });
    const tree = async () => structureTreeSchema.parse((await call(t, authorization, 'GET', '/api/sitesareasequipments')).json());

    expect(await tree()).toEqual({ sites: [], equipmentpools: [], unlinked: [] });
    expect((await follow(authorization, { usernodeid: user.nodeid, areanodeid: weld!.nodeid })).statusCode).toBe(200);
    expect((await tree()).sites.map((s) => [s.name, s.areas.map((x) => x.name)])).toEqual([['Werk Nord', ['Schweißen']]]);
    expect((await follow(authorization, { usernodeid: user.nodeid, sitenodeid: site.nodeid })).statusCode).toBe(200);
    const whole = await tree();
    expect(whole.sites[0]!.areas.map((x) => x.name)).toEqual(['Presse', 'Schweißen']);
    expect(whole.sites[0]!.areas[0]!.equipment.map((m) => m.name)).toEqual(['Presse 1']);
    expect(whole.unlinked).toEqual([]);
  });

  it('ends an entry with a tombstone; ending it again is no error; following again brings the same id back and removes the tombstone', async () => {
    const le = a.legalEntity.nodeid;
    const site = await insertSite(t.database.db, { legalentitynodeid: le });
    const entry = subscriptionRowSchema.parse((await follow(adminA, { usernodeid: a.admin.nodeid, sitenodeid: site.nodeid })).json());
    const deleted = await call(t, adminA, 'DELETE', `/api/subscriptions/${entry.nodeid}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    const afterDelete = await tenantVersion(t.database.db, le);
    expect(afterDelete).toBe(entry.version + 1);
    expect(deleted.json()).toEqual({ nodeid: entry.nodeid, version: afterDelete });
    expect(changeOf(await pullChanges(t, adminA, afterDelete - 1), 'subscriptions', entry.nodeid).deleted).toBe(true);
    // Ending it again answers the same (the version of the delete that ended it) and writes nothing.
    const again = await call(t, adminA, 'DELETE', `/api/subscriptions/${entry.nodeid}`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ nodeid: entry.nodeid, version: afterDelete });
    expect(await tenantVersion(t.database.db, le)).toBe(afterDelete);
    // An entry the tenant never had is a 404, as another tenant's is: the answer cannot tell the two apart.
    expect((await call(t, adminA, 'DELETE', `/api/subscriptions/${uuidv4()}`)).statusCode).toBe(404);

    const back = subscriptionRowSchema.parse((await follow(adminA, { usernodeid: a.admin.nodeid, sitenodeid: site.nodeid })).json());
    expect(back.nodeid).toBe(entry.nodeid);
    expect(await rowCount(t.database.db, tombstones, and(eq(tombstones.kind, 'structure_subscriptions'), eq(tombstones.nodeid, entry.nodeid))!)).toBe(0);
    // A device that pulls from before the delete ends up with the entry.
    const changes = (await pullChanges(t, adminA, afterDelete - 2)).filter((c) => c.nodeid === entry.nodeid);
    expect(changes.at(-1)?.deleted ?? false).toBe(false);
  });

  it('deleting the followed area ends the entry (tombstone in the feed)', async () => {
    const le = a.legalEntity.nodeid;
    const site = await insertSite(t.database.db, { legalentitynodeid: le });
    const area = await insertArea(t.database.db, { legalentitynodeid: le, sitenodeid: site.nodeid });
    const entry = subscriptionRowSchema.parse((await follow(adminA, { usernodeid: a.admin.nodeid, areanodeid: area.nodeid })).json());
    const response = await call(t, adminA, 'DELETE', `/api/areas/${area.nodeid}`, { areanodeid: area.nodeid });
    expect(response.statusCode, response.body).toBe(200);
    const version = await tenantVersion(t.database.db, le);
    expect(changeOf(await pullChanges(t, adminA, version - 1), 'subscriptions', entry.nodeid).deleted).toBe(true);
  });

  it('a new area with isSiteSubs is followed by its creator with the derived id, unless the creator follows its plant', async () => {
    const le = a.legalEntity.nodeid;
    const site = await insertSite(t.database.db, { legalentitynodeid: le });
    const nodeid = uuidv4();
    const created = await call(t, adminA, 'POST', '/api/areas', { lang: 'de', nodeid, name: 'Neu', sitenodeid: site.nodeid, isSiteSubs: true });
    expect(created.statusCode, created.body).toBe(201);
    const [row] = await t.database.db.select().from(structureSubscriptions).where(eq(structureSubscriptions.areanodeid, nodeid));
    expect(row?.nodeid).toBe(subscriptionNodeId(a.admin.nodeid, nodeid));

    await follow(adminA, { usernodeid: a.admin.nodeid, sitenodeid: site.nodeid });
    const second = uuidv4();
    await call(t, adminA, 'POST', '/api/areas', { lang: 'de', nodeid: second, name: 'Zweiter', sitenodeid: site.nodeid, isSiteSubs: true });
    expect(await rowCount(t.database.db, structureSubscriptions, eq(structureSubscriptions.areanodeid, second))).toBe(0);
  });

  it('refuses input: no target, two targets, not a UUID (400); another tenant\'s target (404)', async () => {
    const le = a.legalEntity.nodeid;
    const site = await insertSite(t.database.db, { legalentitynodeid: le });
    const pool = await insertEquipmentPool(t.database.db, { legalentitynodeid: le });
    for (const body of [{ usernodeid: a.admin.nodeid }, { usernodeid: a.admin.nodeid, sitenodeid: site.nodeid, equipmentpoolnodeid: pool.nodeid }, { usernodeid: 'x', sitenodeid: site.nodeid }]) {
      const response = await follow(adminA, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(apiErrorSchema.parse(response.json()).statusCode).toBe(400);
    }
    const foreignSite = await insertSite(t.database.db, { legalentitynodeid: b.legalEntity.nodeid });
    const foreign = await follow(adminA, { usernodeid: a.admin.nodeid, sitenodeid: foreignSite.nodeid });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ message: 'Site not found' });
    expect(await rowCount(t.database.db, structureSubscriptions, eq(structureSubscriptions.sitenodeid, foreignSite.nodeid))).toBe(0);
  });

  it("needs no feature for one's own entries; another user's need user update (403; ending one: 404), and only of the own tenant (404); 401 without a token", async () => {
    const le = a.legalEntity.nodeid;
    const pool = await insertEquipmentPool(t.database.db, { legalentitynodeid: le });
    const plain = await userWithFlags(t, le, 'user', onlyFlag('read'));
    const own = await follow(plain.authorization, { usernodeid: plain.usernodeid, equipmentpoolnodeid: pool.nodeid });
    expect(own.statusCode, own.body).toBe(200);

    const other = await follow(plain.authorization, { usernodeid: a.admin.nodeid, equipmentpoolnodeid: pool.nodeid });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({ message: ACCESS_DENIED_MESSAGE });
    const entry = subscriptionRowSchema.parse(own.json());
    const adminEntry = subscriptionRowSchema.parse((await follow(adminA, { usernodeid: a.admin.nodeid, equipmentpoolnodeid: pool.nodeid })).json());
    // Entry ids are derived from user and target: ending another user's answers as an id never had (404), not 403,
    // so a guessed id tells nothing about whom they follow.
    const probe = await call(t, plain.authorization, 'DELETE', `/api/subscriptions/${adminEntry.nodeid}`);
    expect(probe.statusCode).toBe(404);
    expect(probe.json()).toMatchObject({ message: 'Subscription not found' });
    expect(await rowCount(t.database.db, structureSubscriptions, eq(structureSubscriptions.nodeid, adminEntry.nodeid))).toBe(1);
    expect((await call(t, plain.authorization, 'GET', `/api/subscriptions?usernodeid=${a.admin.nodeid}`)).statusCode).toBe(403);

    const manager = await userWithFlags(t, le, 'user', onlyFlag('update'));
    const ended = await call(t, manager.authorization, 'DELETE', `/api/subscriptions/${entry.nodeid}`);
    expect(ended.json()).toEqual({ nodeid: entry.nodeid, version: await tenantVersion(t.database.db, le) });
    expect(await rowCount(t.database.db, structureSubscriptions, eq(structureSubscriptions.nodeid, entry.nodeid))).toBe(0);
    expect((await follow(manager.authorization, { usernodeid: b.admin.nodeid, equipmentpoolnodeid: pool.nodeid })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/subscriptions', payload: { usernodeid: a.admin.nodeid, equipmentpoolnodeid: pool.nodeid } })).statusCode).toBe(401);
  });

  it('the pull brings a user their own entries only, also to a user manager: whom others follow is not in the change feed', async () => {
    const le = a.legalEntity.nodeid;
    const site = await insertSite(t.database.db, { legalentitynodeid: le, name: 'Werk Privat' });
    const v0 = await tenantVersion(t.database.db, le);
    const reader = await userWithFlags(t, le, 'equipment', onlyFlag('read'));
    const adminEntry = (await follow(adminA, { usernodeid: a.admin.nodeid, sitenodeid: site.nodeid })).json() as { nodeid: string };
    const readerEntry = (await follow(reader.authorization, { usernodeid: reader.usernodeid, sitenodeid: site.nodeid })).json() as { nodeid: string };
    for (const [authorization, own, other] of [
      [reader.authorization, readerEntry.nodeid, adminEntry.nodeid],
      [adminA, adminEntry.nodeid, readerEntry.nodeid],
    ] as const) {
      for (const cursor of [0, v0]) {
        const subscriptions = (await pullChanges(t, authorization, cursor)).filter((change) => change.kind === 'subscriptions' && !change.deleted);
        expect(subscriptions.map((change) => change.nodeid)).toContain(own);
        expect(subscriptions.map((change) => change.nodeid)).not.toContain(other);
        expect(subscriptions.every((change) => (change.data as { usernodeid: string }).usernodeid === (authorization === adminA ? a.admin.nodeid : reader.usernodeid))).toBe(true);
      }
    }
  });

  it("tombstones of a user's entries go to that user alone, and a gone entry of another user answers 404 like one never had", async () => {
    const le = a.legalEntity.nodeid;
    // No user update: may end only their own entries.
    const reader = await userWithFlags(t, le, 'user', onlyFlag('read'));
    const kept = await insertSite(t.database.db, { legalentitynodeid: le, name: 'Werk Bleibt' });
    const site = await insertSite(t.database.db, { legalentitynodeid: le, name: 'Werk Geht' });
    const pool = await insertEquipmentPool(t.database.db, { legalentitynodeid: le });
    const v0 = await tenantVersion(t.database.db, le);
    const entryOf = async (authorization: string, usernodeid: string, target: Record<string, string>) =>
      subscriptionRowSchema.parse((await follow(authorization, { usernodeid, ...target })).json()).nodeid;
    // Ended one by one (DELETE), and through the followed plant's delete (ownership).
    const adminEnded = await entryOf(adminA, a.admin.nodeid, { sitenodeid: kept.nodeid });
    const readerEnded = await entryOf(reader.authorization, reader.usernodeid, { equipmentpoolnodeid: pool.nodeid });
    const adminCascaded = await entryOf(adminA, a.admin.nodeid, { sitenodeid: site.nodeid });
    const readerCascaded = await entryOf(reader.authorization, reader.usernodeid, { sitenodeid: site.nodeid });
    expect((await call(t, adminA, 'DELETE', `/api/subscriptions/${adminEnded}`)).statusCode).toBe(200);
    expect((await call(t, reader.authorization, 'DELETE', `/api/subscriptions/${readerEnded}`)).statusCode).toBe(200);
    const siteDeleted = await call(t, adminA, 'DELETE', `/api/sites/${site.nodeid}`, { sitenodeid: site.nodeid });
    expect(siteDeleted.statusCode, siteDeleted.body).toBe(200);

    const tombstonesFor = async (authorization: string) =>
      (await pullChanges(t, authorization, v0)).filter((change) => change.kind === 'subscriptions' && change.deleted).map((change) => change.nodeid).sort();
    expect(await tombstonesFor(reader.authorization)).toEqual([readerEnded, readerCascaded].sort());
    expect(await tombstonesFor(adminA)).toEqual([adminEnded, adminCascaded].sort());

    // The owner ending it again gets the delete's version; another user probing the id gets the 404 of an id the
    // tenant never had; a user manager may end anyone's entry, so they get the version too.
    expect((await call(t, reader.authorization, 'DELETE', `/api/subscriptions/${readerEnded}`)).statusCode).toBe(200);
    for (const gone of [adminEnded, adminCascaded]) {
      const probe = await call(t, reader.authorization, 'DELETE', `/api/subscriptions/${gone}`);
      expect(probe.statusCode).toBe(404);
      expect(probe.json()).toMatchObject({ message: 'Subscription not found' });
    }
    expect((await call(t, adminA, 'DELETE', `/api/subscriptions/${readerEnded}`)).statusCode).toBe(200);
  });

  it('an outbox entry replayed under the same mutation id answers the recorded result without writing twice', async () => {
    const le = a.legalEntity.nodeid;
    const pool = await insertEquipmentPool(t.database.db, { legalentitynodeid: le });
    const body = { usernodeid: a.admin.nodeid, equipmentpoolnodeid: pool.nodeid };
    await sentTwice(t, adminA, 'POST', '/api/subscriptions', body, { unchanged: () => tenantVersion(t.database.db, le) });
  });
});
