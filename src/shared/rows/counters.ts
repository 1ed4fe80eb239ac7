import { z } from 'zod';
import { epochMs, nodeidField, tenantRow } from './row';

/** Counters on machines and their readings (spec part 1 §2.1 counters tab, §4.6). */

/** What a counter counts and in which unit; `builtin` is the operating-hours type every tenant starts with. */
export const counterTypeRowSchema = tenantRow({
  name: z.string(),
  unitnodeid: nodeidField,
  builtin: z.boolean(),
});
export type CounterTypeRow = z.infer<typeof counterTypeRowSchema>;

export const counterRowSchema = tenantRow({
  name: z.string(),
  equipmentnodeid: nodeidField,
  countertypenodeid: nodeidField,
});
export type CounterRow = z.infer<typeof counterRowSchema>;

/** One reading; `takenat` is the device's time of reading (data, never a sync watermark). */
export const counterReadingRowSchema = tenantRow({
  counternodeid: nodeidField,
  value: z.number(),
  takenat: epochMs,
  createdbynodeid: nodeidField.nullable(),
});
export type CounterReadingRow = z.infer<typeof counterReadingRowSchema>;
