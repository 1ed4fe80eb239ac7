import { z } from 'zod';
import { EMPTY_HISTORY_FILTER, HISTORY_FILTER_STATUSES, HISTORY_FILTER_TYPES, historyFilterErrors, parseHistoryDate } from '../domain/history';
import { langField } from './fields';

/**
 * GET /api/equipments/{id}/history (spec part 1 §2.1 history tab; path and payload "not shown", designed here): the
 * machine's notifications filtered by the history rules of `src/shared/domain/history.ts`, the same the tab applies
 * to the device's mirror. Each filter acts only when given.
 */
const historyDate = z
  .string()
  .max(10)
  .refine((value) => parseHistoryDate(value).kind !== 'invalid', { message: 'Must be a date YYYY-MM-DD or DD.MM.YYYY' });

/** A number of a closed set as a query string carries it ('8'); anything else, '' included, is a 400 naming the field. */
const queryNumber = <T extends number>(values: readonly T[]) =>
  z.enum(values.map(String) as [string, ...string[]], { error: `Must be one of: ${values.join(', ')}` }).transform((value) => Number(value) as T);

/** The detail of a range whose start is after its end (the tab's `fromAfterTo`, shown at its end date). */
export const HISTORY_FROM_AFTER_TO = 'Must not be before from';

/**
 * A start after the end is a 400 naming `to`, where the tab shows the same error (historyFilterErrors): the tab then
 * filters by neither bound, which a caller of the API would read as "everything in the range".
 */
export const historyQuerySchema = z
  .object({
    lang: langField,
    type: queryNumber(HISTORY_FILTER_TYPES).optional(),
    status: queryNumber(HISTORY_FILTER_STATUSES).optional(),
    from: historyDate.optional(),
    to: historyDate.optional(),
  })
  .superRefine((query, ctx) => {
    if (historyFilterErrors({ ...EMPTY_HISTORY_FILTER, from: query.from ?? '', to: query.to ?? '' }).to === 'fromAfterTo') {
      ctx.addIssue({ code: 'custom', path: ['to'], message: HISTORY_FROM_AFTER_TO });
    }
  });
export type HistoryQuery = z.infer<typeof historyQuerySchema>;

export const historyEntrySchema = z.object({
  nodeid: z.string(),
  type: z.number().int(),
  status: z.number().int(),
  title: z.string(),
  /** Epoch ms. */
  created: z.number(),
  /** Epoch ms; 0 when not closed (the spec's convention). */
  closed: z.number(),
  hasauthor: z.object({ nodeid: z.string(), givenname: z.string(), surname: z.string() }).nullable(),
});

export const historySchema = z.object({
  equipmentnodeid: z.string(),
  /** The machine's build year (end of the timeline), null when unset. */
  buildyear: z.number().int().nullable(),
  /** All notifications of the machine, before filtering. */
  total: z.number().int(),
  /** The filtered notifications, newest first. */
  entries: z.array(historyEntrySchema),
});
export type History = z.infer<typeof historySchema>;
