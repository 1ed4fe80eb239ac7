import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenantColumns } from './columns';
import { tenantConstraints } from './constraints';
import { users } from './core';
import { notifications } from './notifications';

/**
 * A discussion. A notification has at most one room (`haschatroom`); the link is held here, so a room can also
 * exist without a notification.
 */
export const chatRooms = pgTable('chat_rooms', {
  ...tenantColumns(),
  name: text('name').notNull(),
  notificationnodeid: uuid('notificationnodeid').references(() => notifications.nodeid, { onDelete: 'cascade' }),
}, (t) => [...tenantConstraints('chat_rooms', t), uniqueIndex('chat_rooms_notification_uq').on(t.notificationnodeid)]);

/** Who takes part in a room (POST /chatrooms/join), and how far they have read. */
export const chatRoomMembers = pgTable('chat_room_members', {
  ...tenantColumns(),
  chatroomnodeid: uuid('chatroomnodeid').notNull().references(() => chatRooms.nodeid, { onDelete: 'cascade' }),
  usernodeid: uuid('usernodeid').notNull().references(() => users.nodeid, { onDelete: 'cascade' }),
  lastreadat: timestamp('lastreadat', { withTimezone: true }),
}, (t) => [
  ...tenantConstraints('chat_room_members', t),
  uniqueIndex('chat_room_members_uq').on(t.chatroomnodeid, t.usernodeid),
  index('chat_room_members_user_idx').on(t.usernodeid),
]);

/** A chat message; append-only. `sent` is the device's time, the feed order is the server's version. */
export const chatMessages = pgTable('chat_messages', {
  ...tenantColumns(),
  chatroomnodeid: uuid('chatroomnodeid').notNull().references(() => chatRooms.nodeid, { onDelete: 'cascade' }),
  authornodeid: uuid('authornodeid').references(() => users.nodeid, { onDelete: 'set null' }),
  body: text('body').notNull(),
  sent: timestamp('sent', { withTimezone: true }).notNull(),
}, (t) => [...tenantConstraints('chat_messages', t), index('chat_messages_room_idx').on(t.chatroomnodeid, t.sent)]);
