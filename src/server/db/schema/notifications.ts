import { sql } from 'drizzle-orm';
import { index, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { NOTIFICATION_STATUSES, NOTIFICATION_TYPES, type NotificationStatus, type NotificationType } from '../../../shared/domain/notification';
import { tenantColumns } from './columns';
import { checkIn, tenantConstraints } from './constraints';
import { users } from './core';
import { files } from './files';
import { maintenanceTasks } from './maintenance';
import { equipment } from './structure';

/**
 * A notification (Meldung) about a machine: fault, anomaly, note, task, maintenance, repair, improvement
 * (types 0–12, status 0 open / 1 in progress / 2 closed). `created`, `progressstarted` and `closed` are the
 * times the user stated on the device (they may be entered later, offline); created_at/updated_at are the
 * server's. The API's "0 when not closed" is null here.
 */
export const notifications = pgTable('notifications', {
  ...tenantColumns(),
  type: smallint('type').$type<NotificationType>().notNull(),
  status: smallint('status').$type<NotificationStatus>().notNull().default(0),
  title: text('title').notNull(),
  description: text('description'),
  created: timestamp('created', { withTimezone: true }).notNull(),
  progressstarted: timestamp('progressstarted', { withTimezone: true }),
  closed: timestamp('closed', { withTimezone: true }),
  dueuntil: timestamp('dueuntil', { withTimezone: true }),
  errorcode: text('errorcode'),
  // why cascade: a deleted machine takes its history with it (the spec's delete confirmation says so).
  equipmentnodeid: uuid('equipmentnodeid').notNull().references(() => equipment.nodeid, { onDelete: 'cascade' }),
  authornodeid: uuid('authornodeid').references(() => users.nodeid, { onDelete: 'set null' }),
  /** Set on planned maintenance (type 6) generated from a task; dueuntil is then the occurrence's due date. */
  maintenancetasknodeid: uuid('maintenancetasknodeid').references(() => maintenanceTasks.nodeid, { onDelete: 'set null' }),
}, (t) => [
  ...tenantConstraints('notifications', t),
  index('notifications_equipment_idx').on(t.equipmentnodeid, t.created),
  index('notifications_status_idx').on(t.legalentitynodeid, t.status, t.created),
  index('notifications_author_idx').on(t.authornodeid),
  // why: several server instances generate due maintenance; one occurrence of a task yields one notification.
  uniqueIndex('notifications_task_due_uq').on(t.maintenancetasknodeid, t.dueuntil).where(sql`${t.maintenancetasknodeid} is not null`),
  checkIn('notifications', 'type', t.type, NOTIFICATION_TYPES),
  checkIn('notifications', 'status', t.status, NOTIFICATION_STATUSES),
]);

/** Planning board: which users a notification is assigned to (`isassignedto`). */
export const notificationAssignments = pgTable('notification_assignments', {
  ...tenantColumns(),
  notificationnodeid: uuid('notificationnodeid').notNull().references(() => notifications.nodeid, { onDelete: 'cascade' }),
  usernodeid: uuid('usernodeid').notNull().references(() => users.nodeid, { onDelete: 'cascade' }),
  /** Who made the assignment. */
  assignedbynodeid: uuid('assignedbynodeid').references(() => users.nodeid, { onDelete: 'set null' }),
}, (t) => [
  ...tenantConstraints('notification_assignments', t),
  uniqueIndex('notification_assignments_uq').on(t.notificationnodeid, t.usernodeid),
  index('notification_assignments_user_idx').on(t.usernodeid),
]);

/**
 * A maintenance report (protocol) completing a notification: when it was executed, a comment and the
 * signature — a typed name and optionally a drawn image. Append-only in sync terms; costs point at it.
 */
export const reports = pgTable('reports', {
  ...tenantColumns(),
  notificationnodeid: uuid('notificationnodeid').notNull().references(() => notifications.nodeid, { onDelete: 'cascade' }),
  executed: timestamp('executed', { withTimezone: true }).notNull(),
  comment: text('comment'),
  authorsignature: text('authorsignature'),
  authorsignatureimagefilenodeid: uuid('authorsignatureimagefilenodeid').references(() => files.nodeid, { onDelete: 'set null' }),
  /** The device's creation time of the report (the confirmation date). */
  created: timestamp('created', { withTimezone: true }).notNull(),
  authornodeid: uuid('authornodeid').references(() => users.nodeid, { onDelete: 'set null' }),
}, (t) => [...tenantConstraints('reports', t), index('reports_notification_idx').on(t.notificationnodeid, t.created)]);
