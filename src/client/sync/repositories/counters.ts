/**
 * Counters and their readings (declarations: src/shared/mutations/counters.ts). Counter readings (declaration: src/shared/mutations/counters.ts `addCounterReading`). A reading is appended,
 * never replaces the list; its own device-made nodeid means sending it again adds nothing.
 */
import {
  addCounterReading as addCounterReadingMutation,
  createCounter as createCounterMutation,
  createCounterType as createCounterTypeMutation,
  deleteCounter as deleteCounterMutation,
} from '../../../shared/mutations/counters';
import { mutate, mutateAll, mutationStep } from '../mutate';
import { newNodeId, type WriteContext } from '../outbox';

export interface CounterReadingInput {
  counternodeid: string;
  value: number;
  /** Device time the reading was taken (data, not a sync watermark); default now. */
  takenat?: number;
}

/** Only the new reading is sent (changed fields only): no name or type, so a stale copy can't change them. */
export async function addCounterReading(context: WriteContext, input: CounterReadingInput): Promise<string> {
  const readingnodeid = newNodeId();
  const takenat = input.takenat ?? (context.now ?? Date.now)();
  await mutate(context, addCounterReadingMutation, {
    params: { id: input.counternodeid },
    body: { lang: 'de', nodeid: input.counternodeid, values: [{ nodeid: readingnodeid, reading: input.value, timestamp: takenat }] },
  });
  return readingnodeid;
}

export interface NewCounterInput {
  equipmentnodeid: string;
  name: string;
  /** An existing type, or a new one made in the same user action. */
  type: { nodeid: string } | { name: string; unitnodeid: string };
  /** A first reading (already checked by the dialog), taken now unless `takenat` says when. */
  reading?: { value: number; takenat?: number };
}

/**
 * "Zähler hinzufügen" (§4.6): with a new type, the type, the counter and a first reading are steps of ONE user
 * action (one transaction, one line in the sync panel, sent in this order); with an existing type the counter and
 * its reading. Every id is made here, so a resend finds what the first send made. Throws MutationInputError for
 * an input the server would refuse; nothing is queued then.
 */
export async function createCounter(context: WriteContext, input: NewCounterInput): Promise<{ counternodeid: string; countertypenodeid: string }> {
  const counternodeid = newNodeId();
  const now = (context.now ?? Date.now)();
  const typeStep = 'unitnodeid' in input.type ? mutationStep(createCounterTypeMutation, { params: {}, body: { lang: 'de', nodeid: newNodeId(), name: input.type.name, unit: input.type.unitnodeid } }) : null;
  const countertypenodeid = typeStep ? typeStep.nodeid : (input.type as { nodeid: string }).nodeid;
  const counterStep = mutationStep(createCounterMutation, {
    params: {},
    body: { lang: 'de', nodeid: counternodeid, name: input.name, counterTypeNodeId: countertypenodeid, equipmentNodeId: input.equipmentnodeid, values: [] },
  });
  const readingStep = input.reading
    ? mutationStep(addCounterReadingMutation, {
        params: { id: counternodeid },
        body: { lang: 'de', nodeid: counternodeid, values: [{ nodeid: newNodeId(), reading: input.reading.value, timestamp: input.reading.takenat ?? now }] },
      })
    : null;
  const steps = [typeStep, counterStep, readingStep].filter((step) => step !== null);
  await mutateAll(context, steps, { describedBy: counterStep });
  return { counternodeid, countertypenodeid };
}

/** Deletes a counter with its readings; the mirror hides it until the server's tombstone removes it. */
export async function deleteCounter(context: WriteContext, counternodeid: string): Promise<void> {
  await mutate(context, deleteCounterMutation, { params: { id: counternodeid }, body: { nodeid: counternodeid } });
}
