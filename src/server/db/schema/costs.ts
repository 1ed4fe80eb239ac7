import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, numeric, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { COST_SPECIFIERS, COST_TYPE_KEYS } from '../../../shared/domain/cost';
import { tenantColumns } from './columns';
import { checkIn, tenantConstraints } from './constraints';
import { users, type LocalizedText } from './core';
import { maintenanceTasks } from './maintenance';
import { notifications, reports } from './notifications';
import { units } from './units';

/**
 * A kind of cost with its unit (Ersatzteile in EUR, Interne Personalstunden in hours …). `costtypeid` marks the
 * standard types, so screens can order them as the spec does and services can recognise them by key.
 */
export const costTypes = pgTable('cost_types', {
  ...tenantColumns(),
  costtypeid: text('costtypeid', { enum: COST_TYPE_KEYS }),
  name: jsonb('name').$type<LocalizedText>().notNull(),
  unitnodeid: uuid('unitnodeid').notNull().references(() => units.nodeid, { onDelete: 'restrict' }),
  position: integer('position').notNull().default(0),
}, (t) => [
  ...tenantConstraints('cost_types', t),
  uniqueIndex('cost_types_key_uq').on(t.legalentitynodeid, t.costtypeid).where(sql`${t.costtypeid} is not null`),
  checkIn('cost_types', 'costtypeid', t.costtypeid, COST_TYPE_KEYS),
]);

/**
 * An amount of one cost type booked on a source (`hasCostSourceNodeId`): a notification's effort capture, a
 * report, or a maintenance task's planned effort. Exactly one source.
 */
export const costs = pgTable('costs', {
  ...tenantColumns(),
  name: text('name'),
  value: numeric('value', { precision: 14, scale: 2, mode: 'number' }).notNull(),
  costtypenodeid: uuid('costtypenodeid').notNull().references(() => costTypes.nodeid, { onDelete: 'restrict' }),
  specifier: text('specifier', { enum: COST_SPECIFIERS }).notNull().default('actualcost'),
  notificationnodeid: uuid('notificationnodeid').references(() => notifications.nodeid, { onDelete: 'cascade' }),
  reportnodeid: uuid('reportnodeid').references(() => reports.nodeid, { onDelete: 'cascade' }),
  maintenancetasknodeid: uuid('maintenancetasknodeid').references(() => maintenanceTasks.nodeid, { onDelete: 'cascade' }),
  authornodeid: uuid('authornodeid').references(() => users.nodeid, { onDelete: 'set null' }),
}, (t) => [
  ...tenantConstraints('costs', t),
  index('costs_notification_idx').on(t.notificationnodeid),
  index('costs_report_idx').on(t.reportnodeid),
  index('costs_task_idx').on(t.maintenancetasknodeid),
  index('costs_type_idx').on(t.costtypenodeid),
  check('costs_source_ck', sql`num_nonnulls(${t.notificationnodeid}, ${t.reportnodeid}, ${t.maintenancetasknodeid}) = 1`),
  check('costs_value_ck', sql`${t.value} >= 0`),
  checkIn('costs', 'specifier', t.specifier, COST_SPECIFIERS),
]);
