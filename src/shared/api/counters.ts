import { z } from 'zod';
import { trimText } from '../domain/text';
import { deleteBodySchema, langField, MAX_EPOCH_MS, MAX_EPOCH_MS_TEXT } from './fields';
import { COUNTER_READING_DECIMALS, COUNTER_READING_TOO_LARGE, exceedsCounterReadingMax, hasAtMostReadingDecimals, parseCounterReading } from '../domain/counter';

/**
 * Counter and counter type contracts of spec part 1 §3, §4.6 and §7 (POST /counters/create,
 * PUT /counters/update/{id}, GET /counters, DELETE /counters/delete/{id}, POST /countertypes/create,
 * GET /countertypes). Shared by the counter modal, the outbox entry and the routes.
 */

const NAME_MAX = 200;

const requiredText = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? 'Required' : 'Must be a text') })
    .overwrite(trimText)
    .min(1, 'Required')
    .max(max, `Must be at most ${max} characters`);

/**
 * One reading: the spec's pair {reading, timestamp}, plus the reading's own `nodeid` chosen by the device, so
 * sending it again never adds it twice. `reading` is a number or the text the user typed (the §5 rule:
 * digits, one comma, one period; the comma counts as a decimal point), with at most three decimals (the column's
 * scale: more would be stored rounded, 1e-7 as 0). `timestamp` is when it was read on the
 * device (epoch ms); the server clamps it to its own now.
 */
export const counterReadingInputSchema = z.object({
  nodeid: z.uuid().optional(),
  reading: z
    .union([z.number(), z.string()], { error: 'Must be a number' })
    .transform((value, ctx) => {
      const parsed = parseCounterReading(value);
      if (parsed === undefined) {
        ctx.addIssue({ code: 'custom', message: exceedsCounterReadingMax(value) ? COUNTER_READING_TOO_LARGE : 'Must be a non-negative number (digits, one comma or period)' });
        return z.NEVER;
      }
      // why refused: the column keeps three decimals; more would be stored as another value without a word.
      if (!hasAtMostReadingDecimals(parsed)) {
        ctx.addIssue({ code: 'custom', message: `At most ${COUNTER_READING_DECIMALS} decimals` });
        return z.NEVER;
      }
      return parsed;
    }),
  timestamp: z.number().int().nonnegative().max(MAX_EPOCH_MS, MAX_EPOCH_MS_TEXT).optional(),
});
export type CounterReadingInput = z.input<typeof counterReadingInputSchema>;

/**
 * A reading id twice with the same reading and time is the same reading sent twice (kept once); with another
 * reading or time it is two readings under one id, and which one would be stored is not the device's to guess.
 */
const values = z
  .array(counterReadingInputSchema)
  .max(1000, 'At most 1000 readings per request')
  .superRefine((readings, ctx) => {
    const seen = new Map<string, { reading: number; timestamp?: number | undefined }>();
    readings.forEach((entry, index) => {
      if (!entry.nodeid) return;
      const first = seen.get(entry.nodeid);
      if (!first) seen.set(entry.nodeid, entry);
      else if (first.reading !== entry.reading || first.timestamp !== entry.timestamp) {
        ctx.addIssue({ code: 'custom', path: [index, 'nodeid'], message: 'This reading id is used twice with different values' });
      }
    });
  });

/** POST /api/counters/create. `nodeid` may be chosen by the device. */
export const createCounterSchema = z.object({
  lang: langField,
  nodeid: z.uuid().optional(),
  name: requiredText(NAME_MAX),
  counterTypeNodeId: z.uuid(),
  equipmentNodeId: z.uuid(),
  values: values.default([]),
});
export type CreateCounterInput = z.input<typeof createCounterSchema>;
export type CreateCounter = z.output<typeof createCounterSchema>;

/**
 * PUT /api/counters/update/{id}. `values` are MERGED: readings not yet stored are added, none is ever removed
 * or replaced (sending the whole list again, as the modal does, adds nothing). Name and type are locked once the
 * counter exists (§4.6): the payload may repeat them (`previousCounterTypeNodeId` is the type the device saw,
 * recorded nowhere); another value is refused with 409 naming the field.
 */
export const updateCounterSchema = z.object({
  lang: langField,
  nodeid: z.uuid().optional(),
  name: requiredText(NAME_MAX).optional(),
  values: values.optional(),
  counterTypeNodeId: z.uuid().optional(),
  previousCounterTypeNodeId: z.uuid().optional(),
});
export type UpdateCounterInput = z.input<typeof updateCounterSchema>;
export type UpdateCounter = z.output<typeof updateCounterSchema>;

/** DELETE /api/counters/delete/{id}: no body needed; a `nodeid` sent must be the path's. */
export const deleteCounterSchema = deleteBodySchema('nodeid');

export const counterListQuerySchema = z.object({ lang: langField, equipmentnodeid: z.uuid().optional() });

export const unitSchema = z.object({
  nodeid: z.uuid(),
  unitid: z.string(),
  /** The spec spells it both ways. */
  unitId: z.string(),
  namespace: z.string(),
  symbol: z.string(),
  name: z.string(),
});

export const counterTypeSchema = z.object({
  nodeid: z.uuid(),
  name: z.string(),
  unit: unitSchema,
  /** The built-in operating hours: counters of this type cannot be deleted. */
  builtin: z.boolean(),
  version: z.number().int(),
});
export type CounterType = z.infer<typeof counterTypeSchema>;

export const counterReadingSchema = z.object({ nodeid: z.uuid(), reading: z.number(), timestamp: z.number().int() });

/** A counter as GET /api/counters lists it: with every reading. */
export const counterSchema = z.object({
  nodeid: z.uuid(),
  name: z.string(),
  equipmentnodeid: z.uuid(),
  hascountertype: counterTypeSchema,
  /** Every reading, oldest first. */
  values: z.array(counterReadingSchema),
  version: z.number().int(),
});
export type Counter = z.infer<typeof counterSchema>;

/**
 * The answer of a counter write (POST /counters/create, PUT /counters/update/{id}, the first counter of POST
 * /countertypes/create): the counter as `counterSchema`, but `values` are only the readings the request sent, as
 * stored — added now or found stored already (a resend answers as the first send did) — oldest first; none when it
 * sent none. Never the counter's whole list: a write's answer, the work to build it and the copy the mutation log
 * keeps grow with the request (at most 1000 readings), not with the counter's history. The full list comes from
 * GET /api/counters and the pull (`counterreadings`).
 */
export const counterWriteAnswerSchema = counterSchema.extend({
  /** The readings this request sent, as stored, oldest first. */
  values: z.array(counterReadingSchema),
});
export type CounterWriteAnswer = z.infer<typeof counterWriteAnswerSchema>;

/**
 * POST /api/countertypes/create. `unit` is a unit's nodeid or its code (`HUR`, `C62`, …) or symbol (`h`);
 * `counter` optionally creates a counter of the new type in the same transaction (the modal's "new counter
 * type" path).
 */
export const createCounterTypeSchema = z.object({
  lang: langField,
  nodeid: z.uuid().optional(),
  name: requiredText(NAME_MAX),
  unit: requiredText(100),
  counter: createCounterSchema.omit({ counterTypeNodeId: true, lang: true }).optional(),
});
export type CreateCounterTypeInput = z.input<typeof createCounterTypeSchema>;
export type CreateCounterType = z.output<typeof createCounterTypeSchema>;

/** POST /api/countertypes/create's answer: the type, and its first counter answered as a counter write (or null). */
export const createCounterTypeResultSchema = counterTypeSchema.extend({ counter: counterWriteAnswerSchema.nullable() });

