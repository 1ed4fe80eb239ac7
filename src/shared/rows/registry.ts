import { z } from 'zod';
import type { SyncKind } from '../api/sync';
import { brandRowSchema, equipmentClassRowSchema, equipmentTypeRowSchema, manufacturerRowSchema } from './catalog';
import { chatMessageRowSchema, chatRoomRowSchema } from './chat';
import { costRowSchema, costTypeRowSchema } from './costs';
import { counterReadingRowSchema, counterRowSchema, counterTypeRowSchema } from './counters';
import { attachmentRowSchema, equipmentRowSchema, fileRowSchema } from './equipment';
import { maintenanceCategoryRowSchema, maintenanceTaskRowSchema } from './maintenance';
import { notificationAssignmentRowSchema, notificationRowSchema } from './notifications';
import { attachmentCategoryRowSchema, unitRowSchema, userRowSchema } from './reference';
import { faqRowSchema, reportRowSchema, workflowRowSchema, workflowStepRowSchema } from './solutions';
import { areaRowSchema, equipmentPoolRowSchema, shiftModelRowSchema, shiftRowSchema, siteRowSchema, subscriptionRowSchema } from './structure';

/** A row shape: the fields of one synced kind's rows (what the feed sends, the mirror stores, a write answers). */
export type RowSchema = z.ZodObject<z.ZodRawShape>;

/** The row shape of every synced kind, by SYNC_KINDS name. */
export const ROW_SCHEMAS = {
  units: unitRowSchema,
  attachmentcategories: attachmentCategoryRowSchema,
  manufacturers: manufacturerRowSchema,
  users: userRowSchema,
  sites: siteRowSchema,
  shiftmodels: shiftModelRowSchema,
  shifts: shiftRowSchema,
  areas: areaRowSchema,
  equipmentpools: equipmentPoolRowSchema,
  subscriptions: subscriptionRowSchema,
  brands: brandRowSchema,
  equipmenttypes: equipmentTypeRowSchema,
  equipmentclasses: equipmentClassRowSchema,
  files: fileRowSchema,
  equipment: equipmentRowSchema,
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
  attachments: attachmentRowSchema,
} as const satisfies Record<SyncKind, RowSchema>;

const byKind: Partial<Record<SyncKind, RowSchema>> = ROW_SCHEMAS;
const keysByKind = new Map<SyncKind, readonly string[]>(Object.entries(byKind).map(([kind, schema]) => [kind as SyncKind, Object.keys(schema.shape)]));

/** The kind's row shape. */
export function rowSchemaOf(kind: SyncKind): RowSchema {
  return ROW_SCHEMAS[kind];
}

/** The field names of the kind's row shape, computed once: picking them is cheaper than parsing every row. */
export function rowFieldsOf(kind: SyncKind): readonly string[] {
  return keysByKind.get(kind)!;
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
