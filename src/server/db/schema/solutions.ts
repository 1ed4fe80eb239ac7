import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { FAQ_SPECIFIERS } from '../../../shared/domain/faq';
import { tenantColumns } from './columns';
import { checkIn, tenantConstraints } from './constraints';
import { users } from './core';
import { maintenanceTasks } from './maintenance';
import { notifications } from './notifications';
import { equipment, equipmentTypes } from './structure';

/**
 * A solution (Maßnahme) documented on a notification, or the procedure of a maintenance task: a titled
 * workflow with ordered steps. Exactly one owner.
 */
export const workflows = pgTable('workflows', {
  ...tenantColumns(),
  title: text('title'),
  notificationnodeid: uuid('notificationnodeid').references(() => notifications.nodeid, { onDelete: 'cascade' }),
  maintenancetasknodeid: uuid('maintenancetasknodeid').references(() => maintenanceTasks.nodeid, { onDelete: 'cascade' }),
  authornodeid: uuid('authornodeid').references(() => users.nodeid, { onDelete: 'set null' }),
  /** Device time the solution was documented. */
  created: timestamp('created', { withTimezone: true }).notNull(),
}, (t) => [
  ...tenantConstraints('workflows', t),
  index('workflows_notification_idx').on(t.notificationnodeid),
  index('workflows_task_idx').on(t.maintenancetasknodeid),
  check('workflows_owner_ck', sql`num_nonnulls(${t.notificationnodeid}, ${t.maintenancetasknodeid}) = 1`),
]);

/** A step of a workflow (`title_workflow`, description, attachments via attachments.isattachmentof). */
export const workflowSteps = pgTable('workflow_steps', {
  ...tenantColumns(),
  workflownodeid: uuid('workflownodeid').notNull().references(() => workflows.nodeid, { onDelete: 'cascade' }),
  position: integer('position').notNull().default(0),
  title: text('title'),
  description: text('description'),
  created: timestamp('created', { withTimezone: true }).notNull(),
  authornodeid: uuid('authornodeid').references(() => users.nodeid, { onDelete: 'set null' }),
}, (t) => [...tenantConstraints('workflow_steps', t), index('workflow_steps_workflow_idx').on(t.workflownodeid, t.position)]);

/**
 * A question and answer (`isfaqof`): on a machine (internal FAQ) or on an equipment type (the machine
 * builder's FAQ). Two foreign keys rather than one untyped id, so deleting either owner removes its FAQs.
 */
export const faqs = pgTable('faqs', {
  ...tenantColumns(),
  question: text('question').notNull(),
  answer: text('answer'),
  specifier: text('specifier', { enum: FAQ_SPECIFIERS }).notNull().default('internalfaq'),
  equipmentnodeid: uuid('equipmentnodeid').references(() => equipment.nodeid, { onDelete: 'cascade' }),
  equipmenttypenodeid: uuid('equipmenttypenodeid').references(() => equipmentTypes.nodeid, { onDelete: 'cascade' }),
  authornodeid: uuid('authornodeid').references(() => users.nodeid, { onDelete: 'set null' }),
}, (t) => [
  ...tenantConstraints('faqs', t),
  index('faqs_equipment_idx').on(t.equipmentnodeid),
  index('faqs_equipment_type_idx').on(t.equipmenttypenodeid),
  check('faqs_target_ck', sql`num_nonnulls(${t.equipmentnodeid}, ${t.equipmenttypenodeid}) = 1`),
  checkIn('faqs', 'specifier', t.specifier, FAQ_SPECIFIERS),
]);
