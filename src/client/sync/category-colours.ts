import { NOTIFICATION_TYPE } from '../../shared/domain/notification';
import type { LocalDatabase } from '../db/local-db';

/** What the lookup reads of a notification: planned maintenance names its task. */
export interface NotificationOfTask {
  nodeid: string;
  type?: unknown;
  maintenancetasknodeid?: unknown;
}

/**
 * §4.1: planned maintenance (type 6) takes its task category's colour. Looked up for the rows read only (their
 * task, then its category), so a page costs two small bulk reads more. The same colour on every screen that shows
 * the type: the machine overview, its history, the details and the notifications dashboard.
 */
export async function readCategoryColours(db: LocalDatabase, rows: readonly NotificationOfTask[]): Promise<Map<string, string>> {
  const planned = rows.filter((row): row is NotificationOfTask & { maintenancetasknodeid: string } => row.type === NOTIFICATION_TYPE.plannedMaintenance && typeof row.maintenancetasknodeid === 'string');
  if (planned.length === 0) return new Map();
  const taskIds = [...new Set(planned.map((row) => row.maintenancetasknodeid))];
  const tasks = await db.mirror('maintenancetasks').bulkGet(taskIds);
  const categoryOf = new Map(tasks.flatMap((task) => (task && typeof task.categorynodeid === 'string' ? [[task.nodeid, task.categorynodeid]] : [])));
  const categoryIds = [...new Set(categoryOf.values())];
  const categories = await db.mirror('maintenancecategories').bulkGet(categoryIds);
  const colourOf = new Map(categories.flatMap((category) => (category && typeof category.colorcode === 'string' ? [[category.nodeid, category.colorcode]] : [])));
  const colours = new Map<string, string>();
  for (const row of planned) {
    const colour = colourOf.get(categoryOf.get(row.maintenancetasknodeid) ?? '');
    if (colour) colours.set(row.nodeid, colour);
  }
  return colours;
}
