import { z } from 'zod';
import type { SyncKind } from '../api/sync';
import { chatMessageRowSchema, chatRoomRowSchema } from './chat';
import { costRowSchema, costTypeRowSchema } from './costs';
import { counterReadingRowSchema, counterRowSchema, counterTypeRowSchema } from './counters';
import { maintenanceCategoryRowSchema, maintenanceTaskRowSchema } from './maintenance';
import { notificationAssignmentRowSchema, notificationRowSchema } from './notifications';
import { attachmentCategoryRowSchema, unitRowSchema, userRowSchema } from './reference';
import { faqRowSchema, reportRowSchema, workflowRowSchema, workflowStepRowSchema } from './solutions';

/** A row shape: the fields of one synced kind's rows (what the feed sends, the mirror stores, a write answers). */
export type RowSchema = z.ZodObject<z.ZodRawShape>;

// merge: these kinds' shapes live in rows/structure.ts (siteRowSchema, areaRowSchema, equipmentPoolRowSchema,
// shiftModelRowSchema, shiftRowSchema, subscriptionRowSchema), rows/equipment.ts (equipmentRowSchema,
// fileRowSchema, attachmentRowSchema) and rows/catalog.ts (manufacturerRowSchema, brandRowSchema,
// equipmentTypeRowSchema, equipmentClassRowSchema). Add them below and delete this type: the `satisfies` then
// holds for Record<SyncKind, RowSchema>.
type KindsNotYetShaped =
  | 'manufacturers'
  | 'sites'
  | 'shiftmodels'
  | 'shifts'
  | 'areas'
  | 'equipmentpools'
  | 'subscriptions'
  | 'brands'
  | 'equipmenttypes'
  | 'equipmentclasses'
  | 'files'
  | 'equipment'
  | 'attachments';

/** The row shape of every synced kind, by SYNC_KINDS name. */
export const ROW_SCHEMAS = {
  units: unitRowSchema,
  attachmentcategories: attachmentCategoryRowSchema,
  users: userRowSchema,
  countertypes: counterTypeRowSchema,
  counters: counterRowSchema,
  counterreadings: counterReadingRowSchema,
  maintenancecategories: maintenanceCategoryRowSchema,
  maintenancetasks: maintenanceTaskRowSchema,
  notifications: notificationRowSchema,
  notificationassignments: notificationAssignmentRowSchema,
  workflows: workflowRowSchema,
  workflowsteps: workflowStepRowSchema,
  faqs: faqRowSchema,
  reports: reportRowSchema,
  costtypes: costTypeRowSchema,
  costs: costRowSchema,
  chatrooms: chatRoomRowSchema,
  chatmessages: chatMessageRowSchema,
} as const satisfies Record<Exclude<SyncKind, KindsNotYetShaped>, RowSchema>;

const byKind: Partial<Record<SyncKind, RowSchema>> = ROW_SCHEMAS;
const keysByKind = new Map<SyncKind, readonly string[]>(Object.entries(byKind).map(([kind, schema]) => [kind as SyncKind, Object.keys(schema.shape)]));

/** The kind's row shape (merge: undefined only while a kind above is still missing). */
export function rowSchemaOf(kind: SyncKind): RowSchema | undefined {
  return byKind[kind];
}

/** The field names of the kind's row shape, computed once: picking them is cheaper than parsing every row. */
export function rowFieldsOf(kind: SyncKind): readonly string[] | undefined {
  return keysByKind.get(kind);
}

const requiredByKind = new Map<SyncKind, readonly string[]>(
  Object.entries(byKind).map(([kind, schema]) => [kind as SyncKind, Object.keys(schema.shape).filter((field) => !z.safeParse(schema.shape[field]!, undefined).success)]),
);

/**
 * Whether `value` is a row of `kind` (its fields and no others; a field a row may leave out may be missing): a
 * write's answer is the written row unless it is something else — a list, `{nodeid, version}` of a delete,
 * another kind's record. Checks the field names only, not the values (the server's answer went through the
 * route's response schema).
 */
export function isRowOf(kind: SyncKind, value: unknown): value is Record<string, unknown> & { nodeid: string } {
  const fields = keysByKind.get(kind);
  if (!fields || typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  return keys.every((key) => fields.includes(key)) && requiredByKind.get(kind)!.every((field) => Object.hasOwn(record, field));
}
