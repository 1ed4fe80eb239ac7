import { sql } from 'drizzle-orm';
import { boolean, check, index, jsonb, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { REMINDER_OPTIONS, REPETITION_INTERVALS, TRIGGER_TYPES } from '../../../shared/domain/maintenance';
import { tenantColumns } from './columns';
import { checkIn, tenantConstraints } from './constraints';
import { users, type LocalizedText } from './core';
import { equipment, equipmentTypes } from './structure';
import { units } from './units';

// Routine maintenance and counters (spec part 1 §2.1 maintenance and counters tabs, §3, §4.5, §4.6).

/** Category of a maintenance task, shown as a badge in its colour; type-6 notifications take this colour. */
export const maintenanceCategories = pgTable('maintenance_categories', {
  ...tenantColumns(),
  name: jsonb('name').$type<LocalizedText>().notNull(),
  colorcode: text('colorcode').notNull(),
}, (t) => [...tenantConstraints('maintenance_categories', t), check('maintenance_categories_colorcode_ck', sql`${t.colorcode} ~ '^#[0-9A-Fa-f]{6}$'`)]);

/** What a counter counts and in which unit (Betriebsstunden in h, Hubzähler in pieces …). */
export const counterTypes = pgTable('counter_types', {
  ...tenantColumns(),
  name: text('name').notNull(),
  unitnodeid: uuid('unitnodeid').notNull().references(() => units.nodeid, { onDelete: 'restrict' }),
  /** The spec hides delete for "one special counter type": the built-in operating hours every tenant starts with. */
  builtin: boolean('builtin').notNull().default(false),
}, (t) => [...tenantConstraints('counter_types', t)]);

/** A counter on a machine. Its readings live in counter_readings; the type is fixed after creation. */
export const counters = pgTable('counters', {
  ...tenantColumns(),
  name: text('name').notNull(),
  equipmentnodeid: uuid('equipmentnodeid').notNull().references(() => equipment.nodeid, { onDelete: 'cascade' }),
  countertypenodeid: uuid('countertypenodeid').notNull().references(() => counterTypes.nodeid, { onDelete: 'restrict' }),
}, (t) => [
  ...tenantConstraints('counters', t),
  index('counters_equipment_idx').on(t.equipmentnodeid),
  index('counters_type_idx').on(t.countertypenodeid),
]);

/**
 * One reading (the spec's `values` pairs of reading and timestamp). Append-only: two tablets recording
 * readings offline both keep theirs instead of one replacing the other's list. `takenat` is the device's
 * time of reading — data, never a sync watermark.
 */
export const counterReadings = pgTable('counter_readings', {
  ...tenantColumns(),
  counternodeid: uuid('counternodeid').notNull().references(() => counters.nodeid, { onDelete: 'cascade' }),
  value: numeric('value', { precision: 18, scale: 3, mode: 'number' }).notNull(),
  takenat: timestamp('takenat', { withTimezone: true }).notNull(),
  createdbynodeid: uuid('createdbynodeid').references(() => users.nodeid, { onDelete: 'set null' }),
}, (t) => [...tenantConstraints('counter_readings', t), index('counter_readings_counter_idx').on(t.counternodeid, t.takenat)]);

/**
 * A routine maintenance task on a machine. Time-triggered tasks repeat from `startingfrom` by
 * `repetitioninterval`; counter-triggered ones fire every `triggeringvalue` units of `triggeringcounternodeid`.
 * Its procedure is a workflow (workflows.maintenancetasknodeid); its planned costs are costs with this task as
 * source. Notifications of type 6 generated for it point back here.
 */
export const maintenanceTasks = pgTable('maintenance_tasks', {
  ...tenantColumns(),
  /** Human-readable id shown before the title ('WA-0042'). */
  maintenancetaskid: text('maintenancetaskid').notNull(),
  title: text('title').notNull(),
  safetynotice: jsonb('safetynotice').$type<LocalizedText>(),
  startingfrom: timestamp('startingfrom', { withTimezone: true }).notNull(),
  repetitioninterval: text('repetitioninterval', { enum: REPETITION_INTERVALS }).notNull(),
  /** Null is the API's -1 ("unset"). */
  nextdueat: timestamp('nextdueat', { withTimezone: true }),
  triggertype: text('triggertype', { enum: TRIGGER_TYPES }).notNull().default('time'),
  triggeringcounternodeid: uuid('triggeringcounternodeid').references(() => counters.nodeid, { onDelete: 'set null' }),
  triggeringvalue: numeric('triggeringvalue', { precision: 18, scale: 3, mode: 'number' }),
  reminder: text('reminder', { enum: REMINDER_OPTIONS }),
  categorynodeid: uuid('categorynodeid').references(() => maintenanceCategories.nodeid, { onDelete: 'set null' }),
  equipmentnodeid: uuid('equipmentnodeid').notNull().references(() => equipment.nodeid, { onDelete: 'cascade' }),
}, (t) => [
  ...tenantConstraints('maintenance_tasks', t),
  uniqueIndex('maintenance_tasks_taskid_uq').on(t.legalentitynodeid, t.maintenancetaskid),
  index('maintenance_tasks_equipment_idx').on(t.equipmentnodeid),
  // why: the due-maintenance job scans tasks by due date across tenants.
  index('maintenance_tasks_nextdue_idx').on(t.legalentitynodeid, t.nextdueat).where(sql`${t.nextdueat} is not null`),
  checkIn('maintenance_tasks', 'repetitioninterval', t.repetitioninterval, REPETITION_INTERVALS),
  checkIn('maintenance_tasks', 'triggertype', t.triggertype, TRIGGER_TYPES),
  checkIn('maintenance_tasks', 'reminder', t.reminder, REMINDER_OPTIONS),
  check('maintenance_tasks_triggeringvalue_ck', sql`${t.triggeringvalue} is null or ${t.triggeringvalue} > 0`),
]);

/** A procedure step of a task template. */
export interface TemplateStep {
  title: string;
  description?: string;
}

/**
 * A reusable task definition (GET /lemaintenancetasks, DELETE /maintenancetasktemplate): what to do and how
 * often, without a machine or dates. Optionally tied to an equipment type, so a machine builder can ship the
 * maintenance plan of a model.
 */
export const maintenanceTaskTemplates = pgTable('maintenance_task_templates', {
  ...tenantColumns(),
  title: text('title').notNull(),
  safetynotice: jsonb('safetynotice').$type<LocalizedText>(),
  repetitioninterval: text('repetitioninterval', { enum: REPETITION_INTERVALS }).notNull(),
  triggertype: text('triggertype', { enum: TRIGGER_TYPES }).notNull().default('time'),
  triggeringvalue: numeric('triggeringvalue', { precision: 18, scale: 3, mode: 'number' }),
  reminder: text('reminder', { enum: REMINDER_OPTIONS }),
  categorynodeid: uuid('categorynodeid').references(() => maintenanceCategories.nodeid, { onDelete: 'set null' }),
  equipmenttypenodeid: uuid('equipmenttypenodeid').references(() => equipmentTypes.nodeid, { onDelete: 'cascade' }),
  steps: jsonb('steps').$type<TemplateStep[]>().notNull().default([]),
}, (t) => [
  ...tenantConstraints('maintenance_task_templates', t),
  checkIn('maintenance_task_templates', 'repetitioninterval', t.repetitioninterval, REPETITION_INTERVALS),
  checkIn('maintenance_task_templates', 'triggertype', t.triggertype, TRIGGER_TYPES),
  checkIn('maintenance_task_templates', 'reminder', t.reminder, REMINDER_OPTIONS),
]);
