/**
 * Runs declared user actions (src/shared/mutations) on the device: validate the input with the declaration's
 * schemas (an input the server would refuse is a MutationInputError for the form, before anything is queued),
 * then write the mirror change — the declaration's `apply` on the row as it is inside the transaction — and the
 * outbox entry in ONE transaction (outbox.ts). Returns as soon as that committed; the sender does the rest.
 */
import { actionName, mutationPath, parseMutation, type AnyMutation, type MutationInput } from '../../shared/mutations/mutation';
import type { MirrorRow, OutboxEntry } from '../db/local-db';
import { PENDING_DELETE } from './mirror-fields';
import { enqueueMutation, type EnqueueOptions, type MutationRequest, type WriteContext } from './outbox';

export interface StepExtras {
  /** Stored file bytes the request needs (a file registration, an attachment, a machine's photo). */
  dependsOn?: string[];
  /** A file registration: after it is acknowledged, PUT these stored bytes to the signed URL. */
  upload?: { fileid: string };
  /**
   * Row fields the device knows but the request carries in no form `apply` can read (a machine's area and pool,
   * which `isequipmentof` lists as bare ids); written over `apply`'s result.
   */
  values?: Record<string, unknown>;
}

/**
 * A create of a row still waiting for its own delete brings it back. Only ids derived from their content can meet
 * like that (following again what was unfollowed, before the unfollow was sent).
 */
function revived(existing: MirrorRow | undefined, creates: boolean | undefined, values: Record<string, unknown>): Record<string, unknown> {
  return creates && existing?.[PENDING_DELETE] === true ? { ...values, [PENDING_DELETE]: false } : values;
}

/** One outbox entry of a declared action; throws MutationInputError for an input the route would refuse. */
export function mutationStep<M extends AnyMutation>(definition: M, input: MutationInput<M>, extras: StepExtras = {}): MutationRequest {
  const parsed = parseMutation(definition, input);
  return {
    action: actionName(definition, parsed),
    method: definition.method,
    path: mutationPath(definition, parsed.params as Record<string, unknown>),
    body: input.body,
    kind: definition.kind,
    nodeid: definition.target(parsed),
    values: definition.deletes ? { [PENDING_DELETE]: true } : (existing, context) => revived(existing, definition.creates, { ...definition.apply!(existing, parsed, context), ...extras.values }),
    creates: definition.creates ?? false,
    ...(extras.dependsOn ? { dependsOn: extras.dependsOn } : {}),
    ...(extras.upload ? { upload: extras.upload } : {}),
  };
}

/** One declared action, queued; resolves with the stored entry once mirror and outbox committed. */
export async function mutate<M extends AnyMutation>(context: WriteContext, definition: M, input: MutationInput<M>, extras: StepExtras = {}): Promise<OutboxEntry> {
  const [entry] = await enqueueMutation(context, mutationStep(definition, input, extras));
  return entry!;
}

/** Several steps of one user action (a report with its photo), in one transaction, in this order. */
export function mutateAll(context: WriteContext, steps: MutationRequest[], options: EnqueueOptions = {}): Promise<OutboxEntry[]> {
  return enqueueMutation(context, steps, options);
}
