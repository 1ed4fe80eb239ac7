import { and, eq } from 'drizzle-orm';
import type { History, HistoryQuery } from '../../shared/api/history';
import { buildYearOf, EMPTY_HISTORY_FILTER, filterHistory, type HistoryFilter } from '../../shared/domain/history';
import { equipment, notifications, users } from '../db/schema';
import { notFound } from '../http-errors';
import type { Actor, ServiceContext } from './service-context';
import { ofTenant } from './structure-common';

/**
 * A machine's history (GET /api/equipments/{id}/history): its notifications, filtered by the shared history rules
 * (`filterHistory`, the one the tab runs on the device's mirror), newest first. Date bounds are whole days on the
 * server's clock (UTC in the container); the tab filters by the tablet's own day.
 */
export async function machineHistory(ctx: ServiceContext, actor: Actor, equipmentnodeid: string, query: HistoryQuery): Promise<History> {
  const [machine] = await ctx.db.select({ constructiondate: equipment.constructiondate }).from(equipment).where(ofTenant(equipment, actor, equipmentnodeid));
  if (!machine) throw notFound('Equipment not found');
  const rows = await ctx.db
    .select({ n: notifications, givenname: users.givenname, surname: users.surname })
    .from(notifications)
    .leftJoin(users, eq(users.nodeid, notifications.authornodeid))
    .where(and(eq(notifications.legalentitynodeid, actor.legalentitynodeid), eq(notifications.equipmentnodeid, equipmentnodeid)));
  const entries = rows.map(({ n, givenname, surname }) => ({
    nodeid: n.nodeid,
    type: n.type,
    status: n.status,
    title: n.title,
    created: n.created.getTime(),
    closed: n.closed?.getTime() ?? 0,
    hasauthor: n.authornodeid && givenname !== null && surname !== null ? { nodeid: n.authornodeid, givenname, surname } : null,
  }));
  const filter: HistoryFilter = { ...EMPTY_HISTORY_FILTER, type: query.type ?? null, status: query.status ?? null, from: query.from ?? '', to: query.to ?? '' };
  return { equipmentnodeid, buildyear: buildYearOf(machine.constructiondate.getTime()), total: entries.length, entries: filterHistory(entries, filter) };
}
