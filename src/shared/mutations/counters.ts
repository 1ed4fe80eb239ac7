import { updateCounterSchema } from '../api/counters';
import { clampDeviceTime } from '../domain/device-time';
import { defineMutation, defineUpdate, idParams } from './mutation';

/** Counters and their readings, spec part 1 §2.1 counters tab, §3, §4.6, §7; feature key `equipment.counter`. */

/**
 * The counter modal's save (§4.6): rename, and readings merged into the list. The route belongs to this
 * declaration; `addCounterReading` is a narrower use of it.
 */
export const updateCounter = defineUpdate({
  name: 'updateCounter',
  route: '/counters/update/:id',
  params: idParams,
  body: updateCounterSchema,
  permission: { feature: 'equipment.counter', flag: 'update' },
  kind: 'counters',
  apply: (_current, { body }) => ({ ...(body.name !== undefined && { name: body.name }), ...(body.counterTypeNodeId !== undefined && { countertypenodeid: body.counterTypeNodeId }) }),
});

/**
 * "Zählerstand erfassen": one reading appended to a counter (PUT /counters/update/{id} merges `values`, never
 * replaces them). The reading's own device-made nodeid makes sending it again add nothing; the mirror gets it
 * as its own `counterreadings` row. Only the reading is sent, no name or type, so a stale copy changes neither.
 */
export const addCounterReading = defineMutation({
  name: 'addCounterReading',
  method: 'PUT',
  route: '/counters/update/:id',
  params: idParams,
  body: updateCounterSchema.refine((body) => body.values?.length === 1 && body.values[0]?.nodeid !== undefined, {
    message: 'One reading with its nodeid',
    path: ['values'],
  }),
  permission: { feature: 'equipment.counter', flag: 'update' },
  kind: 'counterreadings',
  creates: true,
  target: ({ body }) => body.values![0]!.nodeid!,
  apply: (_current, { params, body }, { now, usernodeid }) => {
    const reading = body.values![0]!;
    return { counternodeid: params.id, value: reading.reading, takenat: clampDeviceTime(reading.timestamp, 0, now), createdbynodeid: usernodeid };
  },
  describe: {
    subject: ({ params }) => ({ kind: 'counters', nodeid: params.id }),
    params: ({ body }) => ({ value: body.values?.[0]?.reading.toLocaleString('de-DE') ?? null }),
  },
});

export const counterMutations = [updateCounter, addCounterReading] as const;
