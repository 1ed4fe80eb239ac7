/**
 * Counter readings. A reading is appended, never replaces the list: PUT /counters/update/{id} merges `values`
 * into the counter's readings (updateCounterSchema, src/shared/api/counters.ts), and the reading's own device-made
 * nodeid means sending it again adds nothing. The mirror gets the reading as its own `counterreadings` row (the
 * change feed's shape: counternodeid, value, takenat), so screens show it at once.
 */
import type { UpdateCounterInput } from '../../../shared/api/counters';
import { enqueueMutation, newNodeId, type WriteContext } from '../outbox';

export interface CounterReadingInput {
  counternodeid: string;
  value: number;
  /** Device time the reading was taken (data, not a sync watermark); default now. */
  takenat?: number;
}

/** Only the new reading is sent (changed fields only): no name or type, so a stale copy can't change them. */
export async function addCounterReading(context: WriteContext, input: CounterReadingInput): Promise<string> {
  const counter = { nodeid: input.counternodeid };
  const readingnodeid = newNodeId();
  const takenat = input.takenat ?? (context.now ?? Date.now)();
  await enqueueMutation(context, {
    action: 'addCounterReading',
    method: 'PUT',
    path: `counters/update/${counter.nodeid}`,
    body: {
      lang: 'de',
      nodeid: counter.nodeid,
      values: [{ nodeid: readingnodeid, reading: input.value, timestamp: takenat }],
    } satisfies UpdateCounterInput,
    kind: 'counterreadings',
    nodeid: readingnodeid,
    values: { counternodeid: counter.nodeid, value: input.value, takenat, createdbynodeid: context.usernodeid },
    creates: true,
  });
  return readingnodeid;
}
