/**
 * Plants (Werke), offline-first (spec part 2 §2.5, §7 createSite/updateSite/deleteSite): each action writes the
 * mirror and its outbox entry in one transaction; bodies are checked against the shared schemas the route uses.
 */
import { createSiteSchema, updateSiteSchema, type CreateSiteInput } from '../../../shared/api/sites';
import { PENDING_DELETE } from '../mirror-fields';
import { enqueueMutation, newNodeId, type MutationRequest, type WriteContext } from '../outbox';
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

/** The record as the mirror (the change feed) holds it. */
function mirrorValues(site: { name: string; street: string; siteid: string | null; zipcode: string; city: string; country: string }) {
  return { name: site.name, street: site.street, siteid: site.siteid, zipcode: site.zipcode, city: site.city, country: site.country };
}

/** createSite; throws the schema's error for input the server would refuse (the form prevents it first). */
export async function createSite(context: WriteContext, legalentitynodeid: string, values: SiteFormValues): Promise<string> {
  const nodeid = newNodeId();
  const body = createSiteSchema.parse({ lang: 'de', ...values, legalentitynodeid, nodeid } satisfies CreateSiteInput);
  const create: MutationRequest = {
    action: 'createSite',
    method: 'POST',
    path: 'sites',
    body,
    kind: 'sites',
    nodeid,
    values: { ...mirrorValues(body), legalentitynodeid },
    creates: true,
  };
  // The creator follows the new plant, so its machines appear on their dashboard (docs/decisions.md).
  await enqueueMutation(context, [create, ...(await creatorFollows(context, { type: 'site', nodeid }))]);
  return nodeid;
}

/** updateSite: the form sends all fields (the route changes only what is sent). */
export async function updateSite(context: WriteContext, sitenodeid: string, values: SiteFormValues): Promise<void> {
  const body = updateSiteSchema.parse({ lang: 'de', ...values, sitenodeid });
  await enqueueMutation(context, {
    action: 'updateSite',
    method: 'PUT',
    path: `sites/${sitenodeid}`,
    body,
    kind: 'sites',
    nodeid: sitenodeid,
    values: mirrorValues({ name: body.name!, street: body.street!, siteid: body.siteid ?? null, zipcode: body.zipcode!, city: body.city!, country: body.country! }),
  });
}

/**
 * deleteSite. The mirror row is only marked (hidden from every screen) until the server's tombstone removes it,
 * so a refused delete (dead letter) brings the plant back with its areas.
 */
export async function deleteSite(context: WriteContext, sitenodeid: string): Promise<void> {
  await enqueueMutation(context, {
    action: 'deleteSite',
    method: 'DELETE',
    path: `sites/${sitenodeid}`,
    body: { sitenodeid },
    kind: 'sites',
    nodeid: sitenodeid,
    values: { [PENDING_DELETE]: true },
  });
}
