/**
 * Plants (Werke), offline-first (declarations: src/shared/mutations/structure.ts createSite, updateSite,
 * deleteSite). A new plant is written with its creator's follow entry, in one local transaction.
 */
import { createSite as createSiteMutation, deleteSite as deleteSiteMutation, updateSite as updateSiteMutation } from '../../../shared/mutations/structure';
import { mutate, mutateAll, mutationStep } from '../mutate';
import { newNodeId, type WriteContext } from '../outbox';
import { creatorFollows } from './subscriptions';

/** What the plant form edits. */
export interface SiteFormValues {
  name: string;
  street: string;
  /** The address addon (optional). */
  siteid: string;
  zipcode: string;
  city: string;
  country: string;
}

/** createSite; throws MutationInputError for input the server would refuse (the form prevents it first). */
export async function createSite(context: WriteContext, legalentitynodeid: string, values: SiteFormValues): Promise<string> {
  const nodeid = newNodeId();
  const create = mutationStep(createSiteMutation, { params: {}, body: { lang: 'de', ...values, legalentitynodeid, nodeid } });
  // The creator follows the new plant, so its machines appear on their dashboard (docs/decisions.md).
  await mutateAll(context, [create, ...(await creatorFollows(context, { type: 'site', nodeid }))]);
  return nodeid;
}

/**
 * updateSite: only the fields the user changed against the values the form was filled with (`filledWith`); the
 * route changes only what is sent, so another tab's or device's change to a field this form did not touch
 * survives (sending every field undid it). Nothing changed: nothing is queued.
 */
export async function updateSite(context: WriteContext, sitenodeid: string, values: SiteFormValues, filledWith: SiteFormValues): Promise<void> {
  const changed = Object.fromEntries(Object.entries(values).filter(([field, value]) => value !== filledWith[field as keyof SiteFormValues]));
  if (Object.keys(changed).length === 0) return;
  await mutate(context, updateSiteMutation, { params: { id: sitenodeid }, body: { lang: 'de', ...changed, sitenodeid } });
}

/**
 * deleteSite. The mirror row is only marked (hidden from every screen) until the server's tombstone removes it,
 * so a refused delete (dead letter) brings the plant back with its areas.
 */
export async function deleteSite(context: WriteContext, sitenodeid: string): Promise<void> {
  await mutate(context, deleteSiteMutation, { params: { id: sitenodeid }, body: { sitenodeid } });
}
