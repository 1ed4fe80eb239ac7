import { createCounterSchema, createCounterTypeSchema, deleteCounterSchema, updateCounterSchema } from '../api/counters';
import { deviceCreationTime } from '../domain/device-time';
import { defineCreate, defineDelete, defineMutation, defineUpdate, idParams } from './mutation';

/** Counters and their readings, spec part 1 §2.1 counters tab, §3, §4.6, §7; feature key `equipment.counter`. */

/**
 * The counter modal's save (§4.6, the §7 payload): readings merged into the list. Type and name are locked once
 * the counter exists — the payload may repeat them, the server refuses another value (409) — so the row itself
 * does not change; `addCounterReading` is the narrower use of the route the app makes.
 */
export const updateCounter = defineUpdate({
  name: 'updateCounter',
  route: '/counters/update/:id',
  params: idParams,
  body: updateCounterSchema,
  permission: { feature: 'equipment.counter', flag: 'update' },
  kind: 'counters',
  apply: () => ({}),
  describe: { machine: true },
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
    return { counternodeid: params.id, value: reading.reading, takenat: deviceCreationTime(reading.timestamp, now), createdbynodeid: usernodeid };
  },
  describe: {
    subject: ({ params }) => ({ kind: 'counters', nodeid: params.id }),
    // The number itself: the panel writes it in its language, with the counter's unit (`unit`).
    params: ({ body }) => ({ value: body.values?.[0]?.reading ?? null }),
    machine: true,
    unit: true,
  },
});

/**
 * "Zähler hinzufügen" with an existing type (§4.6). The device chooses the counter's nodeid, so a resend finds the
 * counter it made. The modal sends no readings here: a first reading is its own `addCounterReading` step of the
 * same user action, so it becomes its own mirror row (one entry, one row).
 */
export const createCounter = defineCreate({
  name: 'createCounter',
  route: '/counters/create',
  body: createCounterSchema,
  permission: { feature: 'equipment.counter', flag: 'create' },
  kind: 'counters',
  apply: (_current, { body }) => ({ name: body.name, equipmentnodeid: body.equipmentNodeId, countertypenodeid: body.counterTypeNodeId }),
  describe: {
    subject: ({ body }) => ({ kind: 'equipment', nodeid: body.equipmentNodeId }),
    params: ({ body }) => ({ counter: body.name }),
  },
});

/**
 * "Neuer Zählertyp" (§4.6): a type with name and unit. The modal sends the unit's nodeid (the device has the units
 * reference data); other callers may send its code or symbol, which only the server resolves — the mirror row of
 * such a call is not the device's. The modal's counter of the new type is a `createCounter` step after this one,
 * not the `counter` field, so each step writes one mirror row.
 */
export const createCounterType = defineCreate({
  name: 'createCounterType',
  route: '/countertypes/create',
  body: createCounterTypeSchema,
  permission: { feature: 'equipment.counter', flag: 'create' },
  kind: 'countertypes',
  apply: (_current, { body }) => ({ name: body.name, unitnodeid: body.unit, builtin: false }),
  describe: { subject: () => undefined, params: ({ body }) => ({ name: body.name }) },
});

/** Deletes a counter with its readings; the built-in operating-hours type is refused (409) — the modal hides it. */
export const deleteCounter = defineDelete({
  name: 'deleteCounter',
  route: '/counters/delete/:id',
  params: idParams,
  body: deleteCounterSchema,
  permission: { feature: 'equipment.counter', flag: 'delete' },
  kind: 'counters',
  describe: { machine: true },
});

export const counterMutations = [updateCounter, addCounterReading, createCounter, createCounterType, deleteCounter] as const;
