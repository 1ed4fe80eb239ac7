/**
 * Counter readings (declaration: src/shared/mutations/counters.ts `addCounterReading`). A reading is appended,
 * never replaces the list; its own device-made nodeid means sending it again adds nothing.
 */
import { addCounterReading as addCounterReadingMutation } from '../../../shared/mutations/counters';
import { mutate } from '../mutate';
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
