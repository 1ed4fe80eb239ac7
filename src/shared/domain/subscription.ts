/**
 * Subscriptions (spec part 2 §1 "Only equipment selected on the profile appears on that user's dashboard", §3
 * "user.issubscriberof entries each hold an equipmentpool, a site or an area"): what a user follows, and which
 * part of the plant structure that selects. The server's GET /api/sitesareasequipments and the dashboard, which
 * reads the local mirror offline, both select with `subscribedTree`, so they cannot disagree.
 */
import { v5 as uuidv5 } from 'uuid';
import type { StructureTree } from '../api/structure';

export const SUBSCRIPTION_TARGETS = ['site', 'area', 'equipmentpool'] as const;
export type SubscriptionTargetType = (typeof SUBSCRIPTION_TARGETS)[number];

/** One `issubscriberof` entry as the API and the change feed carry it: exactly one target id is set. */
export interface SubscriptionRecord {
  nodeid: string;
  usernodeid: string;
  sitenodeid: string | null;
  areanodeid: string | null;
  equipmentpoolnodeid: string | null;
}

export interface SubscriptionTarget {
  type: SubscriptionTargetType;
  nodeid: string;
}

/** What a user follows, as sets of target ids. */
export interface SubscriptionSelection {
  sites: ReadonlySet<string>;
  areas: ReadonlySet<string>;
  equipmentpools: ReadonlySet<string>;
}

// A fixed namespace for the ids below; never change it (ids already stored would no longer match).
const SUBSCRIPTION_NAMESPACE = '6f1c3f0e-6b7a-4d5e-9a51-2b8e4c7d9f10';

/**
 * The id of "this user follows this site, area or pool" is derived from the pair (UUID v5), not drawn at random:
 * a device that subscribes offline writes the same row the server will store, and two devices subscribing the
 * same user to the same target cannot make two rows. Unsubscribing and subscribing again reuses the id.
 */
export function subscriptionNodeId(usernodeid: string, targetnodeid: string): string {
  return uuidv5(`${usernodeid}/${targetnodeid}`, SUBSCRIPTION_NAMESPACE);
}

export function subscriptionTarget(record: Pick<SubscriptionRecord, 'sitenodeid' | 'areanodeid' | 'equipmentpoolnodeid'>): SubscriptionTarget | undefined {
  if (record.sitenodeid) return { type: 'site', nodeid: record.sitenodeid };
  if (record.areanodeid) return { type: 'area', nodeid: record.areanodeid };
  if (record.equipmentpoolnodeid) return { type: 'equipmentpool', nodeid: record.equipmentpoolnodeid };
  return undefined;
}

/** The record for `usernodeid` following `target`, with its derived id. */
export function subscriptionRecord(usernodeid: string, target: SubscriptionTarget): SubscriptionRecord {
  return {
    nodeid: subscriptionNodeId(usernodeid, target.nodeid),
    usernodeid,
    sitenodeid: target.type === 'site' ? target.nodeid : null,
    areanodeid: target.type === 'area' ? target.nodeid : null,
    equipmentpoolnodeid: target.type === 'equipmentpool' ? target.nodeid : null,
  };
}

export function selectionOf(records: readonly Pick<SubscriptionRecord, 'sitenodeid' | 'areanodeid' | 'equipmentpoolnodeid'>[]): SubscriptionSelection {
  const ids = (key: 'sitenodeid' | 'areanodeid' | 'equipmentpoolnodeid') => new Set(records.flatMap((r) => (r[key] ? [r[key]] : [])));
  return { sites: ids('sitenodeid'), areas: ids('areanodeid'), equipmentpools: ids('equipmentpoolnodeid') };
}

export function isEmptySelection(selection: SubscriptionSelection): boolean {
  return selection.sites.size === 0 && selection.areas.size === 0 && selection.equipmentpools.size === 0;
}

/**
 * The part of the tree a user follows: a followed site brings all its areas, a followed area only itself (under
 * its site), a followed pool itself. Machines in no area and no pool belong to no subscription: none.
 */
export function subscribedTree(tree: StructureTree, selection: SubscriptionSelection): StructureTree {
  const sites = tree.sites.flatMap((site) => {
    if (selection.sites.has(site.nodeid)) return [site];
    const areas = site.areas.filter((area) => selection.areas.has(area.nodeid));
    return areas.length > 0 ? [{ ...site, areas }] : [];
  });
  return { sites, equipmentpools: tree.equipmentpools.filter((pool) => selection.equipmentpools.has(pool.nodeid)), unlinked: [] };
}

/**
 * A selection without redundant entries: an area of a followed site is followed already, so it is dropped (and
 * unfollowing the site later does not leave its areas behind unexpectedly).
 */
export function normalizeSelection(selection: SubscriptionSelection, siteOfArea: ReadonlyMap<string, string>): SubscriptionSelection {
  return {
    sites: new Set(selection.sites),
    areas: new Set([...selection.areas].filter((area) => !selection.sites.has(siteOfArea.get(area) ?? ''))),
    equipmentpools: new Set(selection.equipmentpools),
  };
}

/** What saving `desired` changes for a user who follows `current`: targets to follow, entries to end. */
export function selectionChanges(
  current: readonly SubscriptionRecord[],
  desired: SubscriptionSelection,
  siteOfArea: ReadonlyMap<string, string>,
): { follow: SubscriptionTarget[]; unfollow: SubscriptionRecord[] } {
  const wanted = normalizeSelection(desired, siteOfArea);
  const has = (target: SubscriptionTarget) =>
    target.type === 'site' ? wanted.sites.has(target.nodeid) : target.type === 'area' ? wanted.areas.has(target.nodeid) : wanted.equipmentpools.has(target.nodeid);
  const unfollow = current.filter((record) => {
    const target = subscriptionTarget(record);
    return !target || !has(target);
  });
  const followed = selectionOf(current);
  const follow: SubscriptionTarget[] = [
    ...[...wanted.sites].filter((id) => !followed.sites.has(id)).map((nodeid) => ({ type: 'site' as const, nodeid })),
    ...[...wanted.areas].filter((id) => !followed.areas.has(id)).map((nodeid) => ({ type: 'area' as const, nodeid })),
    ...[...wanted.equipmentpools].filter((id) => !followed.equipmentpools.has(id)).map((nodeid) => ({ type: 'equipmentpool' as const, nodeid })),
  ];
  return { follow, unfollow };
}

/**
 * Whether the selection shows `target` already: a pool or plant when followed itself, an area also when its
 * plant is followed. A new area of a followed plant needs no entry of its own.
 */
export function follows(selection: SubscriptionSelection, target: SubscriptionTarget, sitenodeid?: string): boolean {
  if (target.type === 'site') return selection.sites.has(target.nodeid);
  if (target.type === 'equipmentpool') return selection.equipmentpools.has(target.nodeid);
  return selection.areas.has(target.nodeid) || (sitenodeid !== undefined && selection.sites.has(sitenodeid));
}
