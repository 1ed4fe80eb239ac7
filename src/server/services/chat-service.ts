import { and, desc, eq, max, sql } from 'drizzle-orm';
import type { ChatRoom } from '../../shared/api/structure';
import { chatMessages, chatRoomMembers, chatRooms, users } from '../db/schema';
import { notFound } from '../http-errors';
import type { Actor, ServiceContext } from './service-context';
import { ofTenant } from './structure-common';

/** GET /api/chatrooms?usernodeid: the rooms a user of the caller's tenant takes part in, latest activity first. */
export async function listChatRooms(ctx: ServiceContext, actor: Actor, usernodeid: string): Promise<ChatRoom[]> {
  if (usernodeid !== actor.usernodeid) {
    const [member] = await ctx.db.select({ nodeid: users.nodeid }).from(users).where(ofTenant(users, actor, usernodeid));
    if (!member) throw notFound('User not found');
  }
  const lastMessage = max(chatMessages.sent);
  const rows = await ctx.db
    .select({ nodeid: chatRooms.nodeid, name: chatRooms.name, notificationnodeid: chatRooms.notificationnodeid, lastmessageat: lastMessage })
    .from(chatRooms)
    .innerJoin(
      chatRoomMembers,
      and(eq(chatRoomMembers.chatroomnodeid, chatRooms.nodeid), eq(chatRoomMembers.usernodeid, usernodeid), eq(chatRoomMembers.legalentitynodeid, actor.legalentitynodeid)),
    )
    .leftJoin(chatMessages, and(eq(chatMessages.chatroomnodeid, chatRooms.nodeid), eq(chatMessages.legalentitynodeid, actor.legalentitynodeid)))
    .where(eq(chatRooms.legalentitynodeid, actor.legalentitynodeid))
    .groupBy(chatRooms.nodeid)
    .orderBy(sql`${lastMessage} desc nulls last`, desc(chatRooms.createdAt));
  return rows.map((r) => ({ ...r, lastmessageat: r.lastmessageat ? new Date(r.lastmessageat).getTime() : null }));
}
