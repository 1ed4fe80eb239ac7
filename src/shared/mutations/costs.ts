import { createCostSchema, updateCostSchema } from '../api/costs';
import type { CostRow } from '../rows/costs';
import { defineCreate, defineUpdate, idParams, type SyncRow } from './mutation';

/**
 * Effort and costs (Aufwandserfassung), spec part 1 §2.2, §3, §4.3, §7; feature key `notification.cost` (create
 * for a new cost, update for a changed one — docs/decisions.md § Effort and costs). A cost is booked on one source
 * (`hasCostSourceNodeId`): a notification, a report or a maintenance task.
 */

/** The notification a cost row is booked on, for the sync panel's `{{name}}` (a report's or task's cost: none). */
function sourceNotification(values: Record<string, unknown>): { kind: 'notifications'; nodeid: string } | undefined {
  return typeof values.notificationnodeid === 'string' ? { kind: 'notifications', nodeid: values.notificationnodeid } : undefined;
}

/**
 * A new cost, its author the user who saves it. Which column the source goes to (notification, report or task)
 * only the server can tell from the id alone: it sets it there; the device, which knows what it books on, adds
 * it to its mirror row as a step extra (`values`).
 */
export const createCost = defineCreate({
  name: 'createCost',
  route: '/costs/create',
  body: createCostSchema,
  permission: { feature: 'notification.cost', flag: 'create' },
  kind: 'costs',
  apply: (_current, { body }, { usernodeid }): Pick<CostRow, 'name' | 'value' | 'costtypenodeid' | 'specifier' | 'authornodeid'> => ({
    name: body.name,
    value: body.value,
    costtypenodeid: body.costTypeNodeId,
    specifier: body.specifier,
    authornodeid: usernodeid,
  }),
  describe: { subject: (_args, values) => sourceNotification(values), params: ({ body }) => ({ value: body.value.toLocaleString('de-DE') }) },
});

/** §4.3 "save updates each changed cost": value, name, type or specifier, only those sent. */
export const updateCost = defineUpdate({
  name: 'updateCost',
  route: '/costs/update/:id',
  params: idParams,
  body: updateCostSchema,
  permission: { feature: 'notification.cost', flag: 'update' },
  kind: 'costs',
  apply: (_current: SyncRow | undefined, { body }): Partial<Pick<CostRow, 'name' | 'value' | 'costtypenodeid' | 'specifier'>> => ({
    ...(body.name !== undefined && { name: body.name }),
    ...(body.value !== undefined && { value: body.value }),
    ...(body.costTypeNodeId !== undefined && { costtypenodeid: body.costTypeNodeId }),
    ...(body.specifier !== undefined && { specifier: body.specifier }),
  }),
  describe: {
    subject: (_args, values) => sourceNotification(values),
    params: (_args, values) => ({ value: typeof values.value === 'number' ? values.value.toLocaleString('de-DE') : null }),
  },
});

export const costMutations = [createCost, updateCost] as const;
