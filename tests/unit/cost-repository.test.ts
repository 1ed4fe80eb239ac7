import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import de from '../../src/client/i18n/de.json';
import { LocalDatabase } from '../../src/client/db/local-db';
import { readNotificationEffort } from '../../src/client/sync/notification-costs';
import { countUserActions } from '../../src/client/sync/outbox';
import { saveEffort, type EffortEdit } from '../../src/client/sync/repositories/costs';
import { syncListItems } from '../../src/client/sync/use-sync-lists';
import { MutationInputError } from '../../src/shared/mutations/mutation';

const USER = '0190f5a0-0000-7000-8000-0000000000aa';
const MACHINE = '0190f5a0-0000-7000-8000-0000000000bb';
const NOTIFICATION = '0190f5a0-0000-7000-8000-0000000000cc';
const EUR = '0190f5a0-0000-7000-8000-0000000000e1';
const HOUR = '0190f5a0-0000-7000-8000-0000000000e2';
const TYPE = {
  parts: '0190f5a0-0000-7000-8000-0000000000d1',
  downtime: '0190f5a0-0000-7000-8000-0000000000d4',
  internalhours: '0190f5a0-0000-7000-8000-0000000000d5',
  own: '0190f5a0-0000-7000-8000-0000000000d9',
};
const COST_A = '0190f5a0-0000-7000-8000-0000000000f1';
const COST_B = '0190f5a0-0000-7000-8000-0000000000f2';

async function device(hourlyrate: number | null = 80) {
  const db = new LocalDatabase(`cost-repo-${Math.random()}`);
  await db.mirror('units').bulkPut([
    { nodeid: EUR, unitid: 'EUR', namespace: 'ISO 4217', symbol: '€', displayName: { plural: { de: 'Euro' } } },
    { nodeid: HOUR, unitid: 'HUR', namespace: 'UNECE Rec 20', symbol: 'h', displayName: { plural: { de: 'Stunden' } } },
  ]);
  await db.mirror('costtypes').bulkPut([
    { nodeid: TYPE.internalhours, costtypeid: 'internalhours', name: { de: 'Interne Personalstunden', en: 'Internal person hours' }, unitnodeid: HOUR, position: 5, version: 1 },
    { nodeid: TYPE.parts, costtypeid: 'parts', name: { de: 'Ersatzteile', en: 'Spare parts' }, unitnodeid: EUR, position: 1, version: 1 },
    { nodeid: TYPE.downtime, costtypeid: 'downtime', name: { de: 'Ausfallzeit' }, unitnodeid: HOUR, position: 4, version: 1 },
    { nodeid: TYPE.own, costtypeid: null, name: { de: 'Sonstiges' }, unitnodeid: EUR, position: 9, version: 1 },
  ]);
  await db.mirror('equipment').put({ nodeid: MACHINE, name: { de: 'BAZ 01' }, hourlyrate, hourlyratecurrency: 'EUR', version: 1 });
  await db.mirror('costs').bulkPut([
    // Two devices booked parts offline: the cell shows the sum.
    { nodeid: COST_A, value: 100, costtypenodeid: TYPE.parts, specifier: 'actualcost', notificationnodeid: NOTIFICATION, reportnodeid: null, maintenancetasknodeid: null, version: 2 },
    { nodeid: COST_B, value: 20.5, costtypenodeid: TYPE.parts, specifier: 'actualcost', notificationnodeid: NOTIFICATION, reportnodeid: null, maintenancetasknodeid: null, version: 3 },
    { nodeid: '0190f5a0-0000-7000-8000-0000000000f3', value: 999, costtypenodeid: TYPE.own, specifier: 'actualcost', notificationnodeid: NOTIFICATION, reportnodeid: null, maintenancetasknodeid: null, version: 4 },
  ]);
  return { db, context: { db, usernodeid: USER, now: () => 1_000_000 } };
}

const read = (db: LocalDatabase) => readNotificationEffort(db, NOTIFICATION, MACHINE, 'de');

describe('effort reader and save (§2.2, §4.3, §5 offline)', () => {
  it('reads the effort inputs in the spec’s order, without the excluded type, cells as sums, and the machine’s rate', async () => {
    const { db } = await device();
    const effort = await read(db);
    expect(effort.hourlyRate).toBe(80);
    expect(effort.lines.map((line) => [line.name, line.unit, line.symbol])).toEqual([
      ['Ersatzteile', 'EUR', '€'],
      ['Ausfallzeit', 'hours', 'h'],
      ['Interne Personalstunden', 'hours', 'h'],
    ]);
    expect(effort.lines[0]!.cells.actualcost).toMatchObject({ value: 120.5, pending: false });
    expect(effort.lines[0]!.cells.plannedcost).toMatchObject({ value: null, rows: [] });
  });

  it('saves only the changed cells as ONE user action: a new cost for an empty cell, updates for a booked one; shown at once', async () => {
    const { db, context } = await device();
    const effort = await read(db);
    const [parts, downtime, hours] = effort.lines;
    const edits: EffortEdit[] = [
      { costtypenodeid: parts!.costtypenodeid, name: parts!.nameDe, specifier: 'actualcost', before: parts!.cells.actualcost, value: 150.25 },
      { costtypenodeid: hours!.costtypenodeid, name: hours!.nameDe, specifier: 'plannedcost', before: hours!.cells.plannedcost, value: 2.5 },
      // Unchanged and empty: nothing.
      { costtypenodeid: downtime!.costtypenodeid, name: downtime!.nameDe, specifier: 'actualcost', before: downtime!.cells.actualcost, value: null },
    ];
    expect(await saveEffort(context, NOTIFICATION, edits)).toBe(3);
    const entries = await db.outbox.orderBy('mutationId').toArray();
    expect(entries.map((entry) => [entry.action, entry.method, entry.path])).toEqual([
      ['updateCost', 'PUT', `costs/update/${COST_A}`],
      ['updateCost', 'PUT', `costs/update/${COST_B}`],
      ['createCost', 'POST', 'costs/create'],
    ]);
    expect(countUserActions(entries)).toBe(1);
    expect(entries[0]!.body).toEqual({ lang: 'de', nodeid: COST_A, value: 150.25 });
    expect(entries[1]!.body).toEqual({ lang: 'de', nodeid: COST_B, value: 0 });
    expect(entries[2]!.body).toMatchObject({ name: 'Interne Personalstunden', value: 2.5, costTypeNodeId: TYPE.internalhours, hasCostSourceNodeId: NOTIFICATION, specifier: 'plannedcost' });

    const after = await read(db);
    expect(after.lines[0]!.cells.actualcost).toMatchObject({ value: 150.25, pending: true });
    expect(after.lines[2]!.cells.plannedcost).toMatchObject({ value: 2.5, pending: true });

    // The sync panel lists the save as one item that says how many values it holds, not the first one's value.
    await db.mirror('notifications').put({ nodeid: NOTIFICATION, title: 'Spindel macht Geräusche', equipmentnodeid: MACHINE, version: 1 });
    const { pending } = await syncListItems(db, USER);
    expect(pending).toHaveLength(1);
    expect(pending[0]!.description).toEqual({ action: 'updateCost', params: { name: 'Spindel macht Geräusche', value: '150,25', count: 3 } });
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'de', resources: { de: { translation: de } } });
    expect(i18n.t('sync.describe.updateCost', pending[0]!.description.params)).toBe('Aufwand erfassen: Spindel macht Geräusche – 3 Werte');
    // A save of one value still names it.
    expect(i18n.t('sync.describe.updateCost', { name: 'Spindel macht Geräusche', value: '150,25' })).toBe('Kosten ändern: Spindel macht Geräusche = 150,25');
  });

  it('a value the server would refuse queues nothing at all, not even the valid edits beside it', async () => {
    const { db, context } = await device();
    const [parts, , hours] = (await read(db)).lines;
    const edits: EffortEdit[] = [
      { costtypenodeid: hours!.costtypenodeid, name: hours!.nameDe, specifier: 'actualcost', before: hours!.cells.actualcost, value: 3 },
      { costtypenodeid: parts!.costtypenodeid, name: parts!.nameDe, specifier: 'plannedcost', before: parts!.cells.plannedcost, value: 1.005 },
    ];
    await expect(saveEffort(context, NOTIFICATION, edits)).rejects.toBeInstanceOf(MutationInputError);
    expect(await db.outbox.count()).toBe(0);
    expect((await read(db)).lines[2]!.cells.actualcost.value).toBeNull();
  });

  it('a machine without an hourly rate says so (null), it is not taken as 0', async () => {
    const { db } = await device(null);
    expect((await read(db)).hourlyRate).toBeNull();
  });
});
