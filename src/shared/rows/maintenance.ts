import { z } from 'zod';
import { REMINDER_OPTIONS, REPETITION_INTERVALS, TRIGGER_TYPES } from '../domain/maintenance';
import { epochMs, localizedText, nodeidField, nullableTime, tenantRow } from './row';

/** Routine maintenance (spec part 1 §2.1 maintenance tab, §4.5). */

/** A task category with its badge colour ('#RRGGBB'). */
export const maintenanceCategoryRowSchema = tenantRow({
  name: localizedText,
  colorcode: z.string(),
});
export type MaintenanceCategoryRow = z.infer<typeof maintenanceCategoryRowSchema>;

/** A maintenance task on a machine; `nextdueat` null is the API's -1 ("unset"). */
export const maintenanceTaskRowSchema = tenantRow({
  maintenancetaskid: z.string(),
  title: z.string(),
  safetynotice: localizedText.nullable(),
  startingfrom: epochMs,
  repetitioninterval: z.enum(REPETITION_INTERVALS),
  nextdueat: nullableTime,
  triggertype: z.enum(TRIGGER_TYPES),
  triggeringcounternodeid: nodeidField.nullable(),
  triggeringvalue: z.number().nullable(),
  reminder: z.enum(REMINDER_OPTIONS).nullable(),
  categorynodeid: nodeidField.nullable(),
  equipmentnodeid: nodeidField,
});
export type MaintenanceTaskRow = z.infer<typeof maintenanceTaskRowSchema>;
