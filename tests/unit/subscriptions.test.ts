import { describe, expect, it } from 'vitest';
import { LocalDatabase } from '../../src/client/db/local-db';
import { buildMachineList } from '../../src/client/features/dashboard/machine-list-model';
import { PENDING_DELETE } from '../../src/client/sync/mirror-fields';
import { createPool } from '../../src/client/sync/repositories/pools';
import { createArea } from '../../src/client/sync/repositories/areas';
import { readSubscriptions, saveSubscriptions } from '../../src/client/sync/repositories/subscriptions';
import { createSubscriptionSchema } from '../../src/shared/api/subscriptions';
import {
  follows,
  selectionChanges,
  selectionOf,
  subscribedTree,
  subscriptionNodeId,
  subscriptionRecord,
  type SubscriptionSelection,
} from '../../src/shared/domain/subscription';
import { buildArea, buildEquipmentSummary, buildPoolNode, buildSiteNode, buildStructureTree } from '../factories/structure-tree';

const USER = '0190f5a0-0000-7000-8000-0000000000aa';
const OTHER_USER = '0190f5a0-0000-7000-8000-0000000000bb';

const press = buildEquipmentSummary({ name: 'Presse 1' });
const welder = buildEquipmentSummary({ name: 'Schweißroboter' });
const truck = buildEquipmentSummary({ name: 'Stapler 3' });
const lathe = buildEquipmentSummary({ name: 'Drehmaschine Chemnitz' });
const loose = buildEquipmentSummary({ name: 'Leihgerät' });
const pressHall = buildArea({ name: 'Presswerk', equipment: [press] });
const weldHall = buildArea({ name: 'Schweißerei', equipment: [welder] });
const stuttgart = buildSiteNode({ name: 'Werk Stuttgart', areas: [pressHall, weldHall] });
const chemnitzHall = buildArea({ name: 'Dreherei', equipment: [lathe] });
const chemnitz = buildSiteNode({ name: 'Werk Chemnitz', areas: [chemnitzHall] });
const trucks = buildPoolNode({ name: 'Flurförderzeuge', equipment: [truck, press] });
const tree = buildStructureTree({ sites: [chemnitz, stuttgart], equipmentpools: [trucks], unlinked: [loose] });
const siteOfArea = new Map([
  [pressHall.nodeid, stuttgart.nodeid],
  [weldHall.nodeid, stuttgart.nodeid],
  [chemnitzHall.nodeid, chemnitz.nodeid],
]);
const selection = (parts: Partial<Record<keyof SubscriptionSelection, string[]>>): SubscriptionSelection => ({
  sites: new Set(parts.sites ?? []),
  areas: new Set(parts.areas ?? []),
  equipmentpools: new Set(parts.equipmentpools ?? []),
});

describe('subscription rules (shared by server and dashboard)', () => {
  it('derives one id per user and target, the same on every device, different for another user or target', () => {
    expect(subscriptionNodeId(USER, stuttgart.nodeid)).toBe(subscriptionNodeId(USER, stuttgart.nodeid));
    expect(subscriptionNodeId(USER, stuttgart.nodeid)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(subscriptionNodeId(OTHER_USER, stuttgart.nodeid)).not.toBe(subscriptionNodeId(USER, stuttgart.nodeid));
    expect(subscriptionNodeId(USER, chemnitz.nodeid)).not.toBe(subscriptionNodeId(USER, stuttgart.nodeid));
  });

  it('a followed site brings all its areas, a followed area only itself under its site, a pool itself; unlinked never', () => {
    expect(subscribedTree(tree, selection({ sites: [stuttgart.nodeid] })).sites).toEqual([stuttgart]);
    const one = subscribedTree(tree, selection({ areas: [weldHall.nodeid], equipmentpools: [trucks.nodeid] }));
    expect(one.sites.map((s) => [s.name, s.areas.map((a) => a.name)])).toEqual([['Werk Stuttgart', ['Schweißerei']]]);
    expect(one.equipmentpools).toEqual([trucks]);
    expect(one.unlinked).toEqual([]);
    expect(subscribedTree(tree, selection({}))).toEqual({ sites: [], equipmentpools: [], unlinked: [] });
  });

  it('saving a selection: a checked site replaces its area entries; unchecked entries end; nothing for what stays', () => {
    const current = [subscriptionRecord(USER, { type: 'area', nodeid: pressHall.nodeid }), subscriptionRecord(USER, { type: 'equipmentpool', nodeid: trucks.nodeid })];
    const { follow, unfollow } = selectionChanges(current, selection({ sites: [stuttgart.nodeid], areas: [pressHall.nodeid, chemnitzHall.nodeid], equipmentpools: [trucks.nodeid] }), siteOfArea);
    expect(follow).toEqual([
      { type: 'site', nodeid: stuttgart.nodeid },
      { type: 'area', nodeid: chemnitzHall.nodeid },
    ]);
    expect(unfollow.map((r) => r.areanodeid)).toEqual([pressHall.nodeid]);
    expect(selectionChanges(current, selectionOf(current), siteOfArea)).toEqual({ follow: [], unfollow: [] });
  });

  it('an area is shown already when it or its plant is followed', () => {
    const followed = selection({ sites: [stuttgart.nodeid] });
    expect(follows(followed, { type: 'area', nodeid: weldHall.nodeid }, stuttgart.nodeid)).toBe(true);
    expect(follows(followed, { type: 'area', nodeid: chemnitzHall.nodeid }, chemnitz.nodeid)).toBe(false);
    expect(follows(followed, { type: 'equipmentpool', nodeid: trucks.nodeid })).toBe(false);
  });
});

describe('dashboard machine list with a selection', () => {
  const mine = subscribedTree(tree, selection({ areas: [weldHall.nodeid] }));

  it('shows only the followed machines; a search also lists matches outside the selection, once each', () => {
    const list = buildMachineList(mine, '', tree);
    expect(list.total).toBe(1);
    expect(list.others).toEqual([]);
    const search = buildMachineList(mine, 'e', tree);
    expect(search.sites.flatMap((s) => s.areas.flatMap((a) => a.machines))).toEqual([welder]);
    // The press is in an area and a pool: listed once; the welder is the user's own, not an "other" match.
    expect(search.others.map((m) => m.name)).toEqual(['Drehmaschine Chemnitz', 'Leihgerät', 'Presse 1', 'Stapler 3']);
    expect(buildMachineList(mine, 'chemnitz', tree).others).toEqual([lathe]);
  });
});

describe('subscription repository (offline)', () => {
  const freshDb = () => new LocalDatabase(`subscriptions-test-${Math.random()}`);

  it('writes one outbox entry per change with the derived id and a body the route accepts; the mirror shows it at once', async () => {
    const db = freshDb();
    const context = { db, usernodeid: USER };
    const written = await saveSubscriptions(context, selection({ sites: [stuttgart.nodeid], equipmentpools: [trucks.nodeid] }), siteOfArea);
    expect(written).toBe(2);
    const entries = await db.outbox.orderBy('mutationId').toArray();
    expect(entries.map((e) => [e.method, e.path, e.nodeid])).toEqual([
      ['POST', 'subscriptions', subscriptionNodeId(USER, stuttgart.nodeid)],
      ['POST', 'subscriptions', subscriptionNodeId(USER, trucks.nodeid)],
    ]);
    expect(createSubscriptionSchema.parse(entries[0]!.body)).toMatchObject({ usernodeid: USER, sitenodeid: stuttgart.nodeid });
    expect(selectionOf(await readSubscriptions(db, USER))).toEqual(selection({ sites: [stuttgart.nodeid], equipmentpools: [trucks.nodeid] }));
    // Saving the same selection again writes nothing.
    expect(await saveSubscriptions(context, selection({ sites: [stuttgart.nodeid], equipmentpools: [trucks.nodeid] }), siteOfArea)).toBe(0);
  });

  it('unfollowing hides the entry until the server confirms; following again before that revives the same row', async () => {
    const db = freshDb();
    const context = { db, usernodeid: USER };
    await saveSubscriptions(context, selection({ equipmentpools: [trucks.nodeid] }), siteOfArea);
    await saveSubscriptions(context, selection({}), siteOfArea);
    const id = subscriptionNodeId(USER, trucks.nodeid);
    expect(await db.mirror('subscriptions').get(id)).toMatchObject({ [PENDING_DELETE]: true });
    expect(await readSubscriptions(db, USER)).toEqual([]);
    const last = (await db.outbox.orderBy('mutationId').toArray()).at(-1);
    expect(last).toMatchObject({ method: 'DELETE', path: `subscriptions/${id}` });

    await saveSubscriptions(context, selection({ equipmentpools: [trucks.nodeid] }), siteOfArea);
    expect((await readSubscriptions(db, USER)).map((r) => r.nodeid)).toEqual([id]);
  });

  it("only the user's own entries count: another user's on the same device are left alone", async () => {
    const db = freshDb();
    await saveSubscriptions({ db, usernodeid: OTHER_USER }, selection({ sites: [chemnitz.nodeid] }), siteOfArea);
    await saveSubscriptions({ db, usernodeid: USER }, selection({ sites: [stuttgart.nodeid] }), siteOfArea);
    expect(selectionOf(await readSubscriptions(db, USER)).sites).toEqual(new Set([stuttgart.nodeid]));
    expect(selectionOf(await readSubscriptions(db, OTHER_USER)).sites).toEqual(new Set([chemnitz.nodeid]));
  });

  it('a new pool is followed by its creator; a new area of a followed plant needs no entry of its own', async () => {
    const db = freshDb();
    const context = { db, usernodeid: USER };
    const pool = await createPool(context, { legalentitynodeid: OTHER_USER, name: 'Messmittel', selection: { added: [], removed: [], machines: new Map() } });
    expect(selectionOf(await readSubscriptions(db, USER)).equipmentpools).toEqual(new Set([pool]));
    await saveSubscriptions(context, selection({ sites: [stuttgart.nodeid], equipmentpools: [pool] }), siteOfArea);
    const before = await db.outbox.count();
    await db.mirror('sites').put({ nodeid: stuttgart.nodeid, name: 'Werk Stuttgart' });
    await createArea(context, { sitenodeid: stuttgart.nodeid, name: 'Lackiererei', selection: { added: [], removed: [], machines: new Map() } });
    expect((await db.outbox.toArray()).slice(before).map((e) => e.path)).toEqual(['areas']);
  });
});
