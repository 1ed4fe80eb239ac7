import { z } from 'zod';
import { trimText } from '../domain/text';
import { COST_SPECIFIERS, COST_TYPE_KEYS, COST_VALUE_MAX, hasAtMostTwoDecimals } from '../domain/cost';
import { clientNodeid, langField, optionalText, TEXT_MAX } from './fields';

/**
 * Cost contracts of spec part 1 §3 ("Cost update: lang, nodeid, name, value, costTypeNodeId, hasCostSourceNodeId,
 * specifier"), §5 and §7 (POST /costs/create, PUT /costs/update/{id}, GET /costtypes?lang, GET /units). Shared by
 * the effort tab, the outbox entry and the routes. `value` is a number: the form parses what was typed in the
 * app language's format (`parseCostValue`) before anything is queued.
 */

const value = z
  .number({ error: 'Must be a number' })
  .min(0, 'Must not be negative')
  .max(COST_VALUE_MAX, `Must be at most ${COST_VALUE_MAX}`)
  .refine(hasAtMostTwoDecimals, 'At most two decimals');

/** In an update a missing name leaves it alone (undefined); only an empty or null one unsets it. */
const changedName = z
  .string({ error: 'Must be a text' })
  .overwrite(trimText)
  .max(TEXT_MAX, `Must be at most ${TEXT_MAX} characters`)
  .nullable()
  .transform((text) => (text ? text : null))
  .optional();

const specifier = z.enum(COST_SPECIFIERS, { error: `Must be one of ${COST_SPECIFIERS.join(', ')}` });

/**
 * POST /api/costs/create. `hasCostSourceNodeId` is the notification, report or maintenance task the cost is
 * booked on (the server finds which); `nodeid` is chosen by the device.
 */
export const createCostSchema = z.object({
  lang: langField,
  nodeid: clientNodeid,
  name: optionalText(),
  value,
  costTypeNodeId: z.uuid(),
  hasCostSourceNodeId: z.uuid(),
  specifier: specifier.default('actualcost'),
});
export type CreateCostInput = z.input<typeof createCostSchema>;
export type CreateCost = z.output<typeof createCostSchema>;

/**
 * PUT /api/costs/update/{id}: only the fields sent change. `nodeid`, when sent, must equal the path;
 * `hasCostSourceNodeId` may repeat the cost's source, a cost never moves to another one (409).
 */
export const updateCostSchema = z.object({
  lang: langField,
  nodeid: z.uuid().optional(),
  name: changedName,
  value: value.optional(),
  costTypeNodeId: z.uuid().optional(),
  hasCostSourceNodeId: z.uuid().optional(),
  specifier: specifier.optional(),
});
export type UpdateCostInput = z.input<typeof updateCostSchema>;
export type UpdateCost = z.output<typeof updateCostSchema>;

/** A unit as GET /units and the cost types show it; `unitId` as the spec spells it, `name` its plural in the language. */
export const costUnitSchema = z.object({
  nodeid: z.uuid(),
  unitid: z.string(),
  unitId: z.string(),
  namespace: z.string(),
  symbol: z.string(),
  name: z.string(),
  displayName: z.object({ plural: z.record(z.string(), z.string()), singular: z.record(z.string(), z.string()).optional() }),
});
export type CostUnitInfo = z.infer<typeof costUnitSchema>;

/** GET /api/costtypes?lang: the tenant's cost types (the standard ones carry their key), name in `lang`, with the unit. */
export const costTypeSchema = z.object({
  nodeid: z.uuid(),
  costtypeid: z.enum(COST_TYPE_KEYS).nullable(),
  name: z.string(),
  unit: costUnitSchema,
  position: z.number().int(),
  version: z.number().int(),
});
export type CostType = z.infer<typeof costTypeSchema>;
