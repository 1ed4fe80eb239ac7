/**
 * Subscriptions (`issubscriberof`: which plants, areas and pools a user's dashboard shows), offline-first
 * (declarations: src/shared/mutations/subscriptions.ts followStructure, unfollowStructure). One outbox entry per
 * entry followed or ended; the entry's id is derived from user and target (subscriptionNodeId), so the row written
 * here is the row the server stores, whichever device was first.
 */
import {
  follows,
  selectionChanges,
  selectionOf,
  subscriptionRecord,
  type SubscriptionRecord,
  type SubscriptionSelection,
  type SubscriptionTarget,
} from '../../../shared/domain/subscription';
import { followStructure, unfollowStructure } from '../../../shared/mutations/subscriptions';
import type { LocalDatabase, MirrorRow } from '../../db/local-db';
import { PENDING_DELETE } from '../mirror-fields';
import { mutateAll, mutationStep } from '../mutate';
import type { MutationRequest, WriteContext } from '../outbox';

const text = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);

/** A mirror row as a record; rows waiting for their delete are left out. */
export function subscriptionFromRow(row: MirrorRow): SubscriptionRecord | undefined {
  if (row[PENDING_DELETE] === true) return undefined;
  const usernodeid = text(row.usernodeid);
  if (!usernodeid) return undefined;
  return { nodeid: row.nodeid, usernodeid, sitenodeid: text(row.sitenodeid), areanodeid: text(row.areanodeid), equipmentpoolnodeid: text(row.equipmentpoolnodeid) };
}

/** The user's current entries in the mirror (this device's unsent changes included). */
export async function readSubscriptions(db: LocalDatabase, usernodeid: string): Promise<SubscriptionRecord[]> {
  const rows = await db.mirror('subscriptions').where('usernodeid').equals(usernodeid).toArray();
  return rows.map(subscriptionFromRow).filter((record) => record !== undefined);
}

/** The entry that makes `usernodeid` follow `target`. A row waiting for its delete is revived. */
export function followMutation(usernodeid: string, target: SubscriptionTarget): MutationRequest {
  const { nodeid: _nodeid, ...body } = subscriptionRecord(usernodeid, target);
  return mutationStep(followStructure, { params: {}, body });
}

export function unfollowMutation(record: SubscriptionRecord): MutationRequest {
  return mutationStep(unfollowStructure, { params: { id: record.nodeid }, body: undefined });
}

/**
 * "Auswahl speichern" in the dashboard selection: what changed between the user's entries and `desired`, in
 * one local transaction. An area of a followed plant is not stored on its own (normalizeSelection). Returns the
 * number of entries written.
 */
export async function saveSubscriptions(context: WriteContext, desired: SubscriptionSelection, siteOfArea: ReadonlyMap<string, string>): Promise<number> {
  const current = await readSubscriptions(context.db, context.usernodeid);
  const { follow, unfollow } = selectionChanges(current, desired, siteOfArea);
  const steps = [...unfollow.map(unfollowMutation), ...follow.map((target) => followMutation(context.usernodeid, target))];
  if (steps.length > 0) await mutateAll(context, steps);
  return steps.length;
}

/**
 * A new plant, area or pool appears on its creator's dashboard (docs/decisions.md): the follow entry to write
 * with the create, or none when the creator sees it already (an area of a followed plant).
 */
export async function creatorFollows(context: WriteContext, target: SubscriptionTarget, sitenodeid?: string): Promise<MutationRequest[]> {
  const selection = selectionOf(await readSubscriptions(context.db, context.usernodeid));
  return follows(selection, target, sitenodeid) ? [] : [followMutation(context.usernodeid, target)];
}
