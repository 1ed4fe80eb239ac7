import { z } from 'zod';
import { COST_SPECIFIERS, COST_TYPE_KEYS } from '../domain/cost';
import { localizedText, nodeidField, tenantRow } from './row';

/** Costs of notifications, reports and maintenance tasks (spec part 1 §3 "Cost", §5). */

/** A kind of cost with its unit; `costtypeid` marks the standard types (null for the tenant's own). */
export const costTypeRowSchema = tenantRow({
  costtypeid: z.enum(COST_TYPE_KEYS).nullable(),
  name: localizedText,
  unitnodeid: nodeidField,
  position: z.number().int(),
});
export type CostTypeRow = z.infer<typeof costTypeRowSchema>;

/** An amount booked on exactly one source: a notification, a report or a maintenance task. */
export const costRowSchema = tenantRow({
  name: z.string().nullable(),
  value: z.number(),
  costtypenodeid: nodeidField,
  specifier: z.enum(COST_SPECIFIERS),
  notificationnodeid: nodeidField.nullable(),
  reportnodeid: nodeidField.nullable(),
  maintenancetasknodeid: nodeidField.nullable(),
  authornodeid: nodeidField.nullable(),
});
export type CostRow = z.infer<typeof costRowSchema>;
