import { describe, expect, it } from 'vitest';
import { LocalDatabase } from '../../src/client/db/local-db';
import { readCounterDetails } from '../../src/client/sync/machine-counters';
import { readAttachments, readMachineDetail, readMachineNames, readMachineRecord, readNotificationDetail, readOpenNotifications } from '../../src/client/sync/machine-mirror';
import { writeState, stateKeys } from '../../src/client/sync/outbox';
import { addCounterReading } from '../../src/client/sync/repositories/counters';
import { createNotification, updateNotificationStatus } from '../../src/client/sync/repositories/notifications';

const USER = '0190f5a0-0000-7000-8000-0000000000aa';
const MACHINE = '0190f5a0-0000-7000-8000-0000000000bb';
const COUNTER = '0190f5a0-0000-7000-8000-0000000000cc';
const DAY = 86_400_000;

/** A mirror as a pull leaves it: one machine in an area of a plant and in a pool, one counter with readings. */
async function plant(options: { synced?: boolean } = {}) {
  const db = new LocalDatabase(`machine-mirror-${Math.random()}`);
  await db.mirror('sites').put({ nodeid: 's1', name: 'Werk Stuttgart' });
  await db.mirror('areas').put({ nodeid: 'a1', name: { de: 'Halle 1 – Zerspanung', en: 'Hall 1 – Machining' }, sitenodeid: 's1' });
  await db.mirror('equipmentpools').put({ nodeid: 'p1', name: { de: 'Druckluft', en: 'Compressed air' } });
  await db.mirror('brands').put({ nodeid: 'b1', name: 'DMG MORI' });
  await db.mirror('equipmenttypes').put({ nodeid: 't1', model: 'DMU 65', brandnodeid: 'b1' });
  await db.mirror('equipment').put({ nodeid: MACHINE, name: 'BAZ 02 Fräszentrum', equipmentid: 'STR-BAZ-02', inventoryid: null, equipmenttypenodeid: 't1', areanodeid: 'a1', equipmentpoolnodeid: 'p1', imagefilenodeid: 'f-img' });
  await db.mirror('units').put({ nodeid: 'u1', symbol: 'h' });
  await db.mirror('countertypes').put({ nodeid: 'ct1', name: 'Betriebsstunden', unitnodeid: 'u1' });
  await db.mirror('counters').put({ nodeid: COUNTER, name: 'Betriebsstunden', equipmentnodeid: MACHINE, countertypenodeid: 'ct1' });
  // Stored out of order: the latest is the one taken last, not the one stored last.
  await db.mirror('counterreadings').bulkPut([
    { nodeid: 'r2', counternodeid: COUNTER, value: 1200, takenat: 20 * DAY },
    { nodeid: 'r1', counternodeid: COUNTER, value: 1100, takenat: 10 * DAY },
  ]);
  await db.mirror('counters').put({ nodeid: 'c0', name: 'Anzahl Hübe', equipmentnodeid: MACHINE, countertypenodeid: 'missing' });
  if (options.synced !== false) await writeState(db, stateKeys.initialSyncDone, true);
  return { db, context: { db, usernodeid: USER, now: () => 30 * DAY } };
}

describe('what the machine screens read from the mirror', () => {
  it('a machine with brand, model, area, pool and plant in the chosen language; unknown ids load until the first sync, then are missing', async () => {
    const { db } = await plant();
    expect(await readMachineDetail(db, MACHINE, 'en')).toEqual({
      status: 'ready',
      value: { nodeid: MACHINE, name: 'BAZ 02 Fräszentrum', brand: 'DMG MORI', model: 'DMU 65', area: 'Hall 1 – Machining', pool: 'Compressed air', site: 'Werk Stuttgart', equipmentid: 'STR-BAZ-02', inventoryid: null, imagefilenodeid: 'f-img' },
    });
    expect(await readMachineDetail(db, 'unknown', 'de')).toEqual({ status: 'missing' });
    expect(await readMachineDetail(db, null, 'de')).toEqual({ status: 'missing' });
    const { db: filling } = await plant({ synced: false });
    expect(await readMachineDetail(filling, 'unknown', 'de')).toEqual({ status: 'loading' });
  });

  it('the machine\'s own fields come from its row alone, before the names it references are read', async () => {
    const { db } = await plant();
    // The referenced rows are gone: the record does not need them, the names say they are unknown.
    await db.mirror('equipmenttypes').clear();
    await db.mirror('areas').clear();
    expect(await readMachineRecord(db, MACHINE, 'en')).toEqual({
      status: 'ready',
      value: { nodeid: MACHINE, name: 'BAZ 02 Fräszentrum', equipmentid: 'STR-BAZ-02', inventoryid: null, imagefilenodeid: 'f-img' },
    });
    expect(await readMachineNames(db, MACHINE, 'en')).toEqual({ brand: null, model: null, area: null, site: null, pool: 'Compressed air' });
    expect(await readMachineNames(db, 'unknown', 'en')).toBeNull();
    expect(await readMachineRecord(db, 'unknown', 'de')).toEqual({ status: 'missing' });
    const { db: filling } = await plant({ synced: false });
    expect(await readMachineRecord(filling, 'unknown', 'de')).toEqual({ status: 'loading' });
  });

  it('a fault report shows at once as an open, unsynced notification with its photo bytes; the status change too', async () => {
    const { db, context } = await plant();
    await db.mirror('notifications').bulkPut([
      { nodeid: 'old', equipmentnodeid: MACHINE, status: 0, type: 2, title: 'Alt', created: 1 * DAY },
      { nodeid: 'done', equipmentnodeid: MACHINE, status: 2, type: 0, title: 'Erledigt', created: 2 * DAY },
    ]);
    const bytes = new Uint8Array([137, 80, 78, 71]).buffer;
    const nodeid = await createNotification(context, { type: 12, title: 'Öl tritt aus', equipmentnodeid: MACHINE, photo: { bytes, mimetype: 'image/png', name: 'leck.png' } });

    const open = await readOpenNotifications(db, MACHINE);
    expect(open.map((n) => [n.title, n.status, n.pending])).toEqual([
      ['Öl tritt aus', 0, true],
      ['Alt', 0, false],
    ]);
    const [photo] = await readAttachments(db, nodeid);
    expect(photo).toMatchObject({ title: 'Öl tritt aus', mimetype: 'image/png', pending: true, local: { mimetype: 'image/png' } });
    expect(new Uint8Array(photo!.local!.bytes)).toEqual(new Uint8Array(bytes));

    await updateNotificationStatus(context, open[0]!.row, 1);
    const detail = await readNotificationDetail(db, nodeid, 'de');
    expect(detail.status === 'ready' && detail.value.notification).toMatchObject({ status: 1, progressstarted: 30 * DAY, closed: null, pending: true });
    expect(detail.status === 'ready' && detail.value.machine?.area).toBe('Halle 1 – Zerspanung');
  });

  // A technician's walkthrough: a planned maintenance was blue on the overview and its category's orange in the
  // history and on the notifications dashboard.
  it('an open planned maintenance carries its task category\'s colour, as on the other screens', async () => {
    const { db } = await plant();
    await db.mirror('maintenancecategories').put({ nodeid: 'cat1', name: 'Schmierung', colorcode: '#f97316' });
    await db.mirror('maintenancetasks').put({ nodeid: 'task1', name: 'Zentralschmierung', categorynodeid: 'cat1' });
    await db.mirror('notifications').bulkPut([
      { nodeid: 'pm', equipmentnodeid: MACHINE, status: 0, type: 6, title: 'Zentralschmierung auffüllen', created: 2 * DAY, maintenancetasknodeid: 'task1' },
      { nodeid: 'fault', equipmentnodeid: MACHINE, status: 0, type: 0, title: 'Stillstand', created: 1 * DAY, maintenancetasknodeid: 'task1' },
    ]);
    const open = await readOpenNotifications(db, MACHINE);
    expect(open.map((n) => [n.nodeid, n.colorcode])).toEqual([
      ['pm', '#f97316'],
      ['fault', null],
    ]);
  });

  it('an attachment pulled from the server takes its type from its file record and has no local bytes', async () => {
    const { db } = await plant();
    await db.mirror('files').put({ nodeid: 'f1', mimetype: 'image/jpeg' });
    await db.mirror('attachments').put({ nodeid: 'at1', title: 'Typenschild', isattachmentof: 'n1', filenodeid: 'f1' });
    expect(await readAttachments(db, 'n1')).toEqual([{ nodeid: 'at1', title: 'Typenschild', mimetype: 'image/jpeg', pending: false, local: null }]);
  });

  it('counters with unit and the latest reading by time taken; a new reading is the latest at once, unsynced', async () => {
    const { db, context } = await plant();
    const before = await readCounterDetails(db, MACHINE, 'de');
    expect(before.map((c) => [c.name, c.type?.name ?? null, c.type?.unit?.symbol ?? null, c.latest && { value: c.latest.value, takenat: c.latest.takenat, pending: c.latest.pending }])).toEqual([
      ['Anzahl Hübe', null, null, null],
      ['Betriebsstunden', 'Betriebsstunden', 'h', { value: 1200, takenat: 20 * DAY, pending: false }],
    ]);
    await addCounterReading(context, { counternodeid: COUNTER, value: 1234.5 });
    const after = await readCounterDetails(db, MACHINE, 'de');
    expect(after[1]!.latest).toMatchObject({ value: 1234.5, takenat: 30 * DAY, pending: true });
  });
});
