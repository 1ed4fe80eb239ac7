import { z } from 'zod';
import { SHIFT_ROW_REFUSALS, WEEKDAYS, parseTimeOfDay, shiftRowIssues } from '../domain/shift';
import { deleteBodySchema } from './fields';

/**
 * Weekly shift plans (spec part 2 §2.7, §3 Shift, §7 "create/update shifts {shifts, shiftmodelof | shiftnodeid}").
 * A shift model belongs to an area or to one machine. Rows are the editor's rows: 'HH:MM' times (an end hour
 * earlier than the start hour ends the next day), ISO weekdays 1 (Mo) … 7 (So), unmanned flag.
 *
 * Decision: the spec's row list `[placeholder, start epoch ms, end epoch ms, weekdays, unmanned]` is replaced by
 * this object form, because a time of day as epoch milliseconds depends on the device's time zone.
 */
const time = z
  .string({ error: 'Required' })
  .refine((value) => parseTimeOfDay(value) !== null, 'Must be a time HH:MM');

export const shiftRowSchema = z.object({
  /** Optional device-made id of the row, so an offline edit can refer to it; the server makes one otherwise. */
  nodeid: z.uuid().optional(),
  start: time,
  end: time,
  weekdays: z
    .array(z.literal(WEEKDAYS, { error: 'Must be a weekday 1 (Mo) … 7 (So)' }))
    .min(1, 'Choose at least one weekday')
    .max(7)
    .refine((days) => new Set(days).size === days.length, 'Each weekday once'),
  unmanned: z.boolean().default(false),
}).superRefine((row, ctx) => {
  // The editor's rule (shiftRowIssues): start == end is 0 hours, an end earlier in the start's hour is before the
  // start; a 400 naming `end`.
  for (const issue of shiftRowIssues(row)) {
    const message = SHIFT_ROW_REFUSALS[issue.code];
    if (message) ctx.addIssue({ code: 'custom', path: [issue.field], message });
  }
});
export type ShiftRowInput = z.input<typeof shiftRowSchema>;

export const SHIFTS_MAX = 50;
/** Row ids the device chose are the rows' identities: one id twice would be two rows under one id. */
export function shiftRowIdsUnique(rows: readonly { nodeid?: string | undefined }[]): boolean {
  const ids = rows.flatMap((row) => (row.nodeid ? [row.nodeid] : []));
  return new Set(ids).size === ids.length;
}

/** A plan's rows as every write sends them (a plan's create and change, an area's create with its plan). */
export const shiftRowsSchema = z
  .array(shiftRowSchema)
  .max(SHIFTS_MAX, `At most ${SHIFTS_MAX} shifts`)
  .refine(shiftRowIdsUnique, 'Each row id once');

/**
 * POST /api/shiftmodels: a new plan for the area or machine `shiftmodelof`. An owner that already has a plan
 * gets the new one instead (the old one is deleted). Needs `site` update for an area, `equipment` update
 * for a machine.
 */
export const createShiftModelSchema = z.object({
  nodeid: z.uuid().optional(),
  shiftmodelof: z.uuid(),
  shifts: shiftRowsSchema,
});
export type CreateShiftModelInput = z.input<typeof createShiftModelSchema>;
export type CreateShiftModel = z.output<typeof createShiftModelSchema>;

/** PUT /api/shiftmodels/{id}: replaces all rows ("shifts only"). `shiftnodeid`, if sent, must be the path id. */
export const updateShiftModelSchema = z.object({
  shiftnodeid: z.uuid().optional(),
  shifts: shiftRowsSchema,
});
export type UpdateShiftModelInput = z.input<typeof updateShiftModelSchema>;
export type UpdateShiftModel = z.output<typeof updateShiftModelSchema>;

/** DELETE /api/shiftmodels/{id}: body optional; the owner keeps existing without a plan. */
export const deleteShiftModelSchema = deleteBodySchema('shiftnodeid');

export const shiftSchema = z.object({
  nodeid: z.uuid(),
  start: z.string(),
  end: z.string(),
  weekdays: z.array(z.number().int()),
  unmanned: z.boolean(),
  /** End earlier than start: labelled 'Endzeit (+1)'. */
  endsnextday: z.boolean(),
});
export type Shift = z.infer<typeof shiftSchema>;

export const shiftModelSchema = z.object({
  nodeid: z.uuid(),
  /** Who holds the plan. */
  shiftmodelof: z.object({ type: z.enum(['area', 'equipment']), nodeid: z.uuid() }).nullable(),
  shifts: z.array(shiftSchema),
  version: z.number().int(),
});
export type ShiftModel = z.infer<typeof shiftModelSchema>;

/** `hasshiftmodel` inside an area or a machine. */
export const hasShiftModelSchema = z.object({ nodeid: z.uuid(), shifts: z.array(shiftSchema) }).nullable();
