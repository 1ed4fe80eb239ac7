import { describe, expect, it } from 'vitest';
import { LocalDatabase } from '../../src/client/db/local-db';
import { readMachineHistory } from '../../src/client/sync/machine-history';
import { createNotification } from '../../src/client/sync/repositories/notifications';

const USER = '0190f5a0-0000-7000-8000-0000000000aa';
const MACHINE = '0190f5a0-0000-7000-8000-0000000000bb';
const OTHER = '0190f5a0-0000-7000-8000-0000000000cc';
const DAY = 86_400_000;

/** A mirror as a pull leaves it: a machine built 2014 with notifications of every status, one of planned maintenance. */
async function mirror() {
  const db = new LocalDatabase(`machine-history-${Math.random()}`);
  await db.mirror('equipment').put({ nodeid: MACHINE, name: 'BAZ 02 Fräszentrum', constructiondate: Date.UTC(2014, 0, 1) });
  await db.mirror('equipment').put({ nodeid: OTHER, name: 'HYD 01', constructiondate: null });
  await db.mirror('users').put({ nodeid: 'u1', givenname: 'Jonas', surname: 'Weber' });
  await db.mirror('maintenancecategories').put({ nodeid: 'mc1', colorcode: '#FB8C00' });
  await db.mirror('maintenancetasks').put({ nodeid: 'mt1', categorynodeid: 'mc1', equipmentnodeid: MACHINE });
  await db.mirror('notifications').bulkPut([
    { nodeid: 'n1', equipmentnodeid: MACHINE, type: 8, status: 2, title: 'Türverriegelung repariert', created: 10 * DAY, closed: 12 * DAY, authornodeid: 'u1' },
    { nodeid: 'n2', equipmentnodeid: MACHINE, type: 6, status: 1, title: 'Zentralschmierung', created: 20 * DAY, closed: null, authornodeid: 'gone', maintenancetasknodeid: 'mt1' },
    { nodeid: 'n3', equipmentnodeid: OTHER, type: 0, status: 0, title: 'Andere Maschine', created: 30 * DAY, closed: null },
  ]);
  return { db, context: { db, usernodeid: USER, now: () => 40 * DAY } };
}

describe('the history tab reads the machine’s notifications from the mirror', () => {
  it('every status, with author, category colour and build year; only this machine’s', async () => {
    const { db } = await mirror();
    const history = await readMachineHistory(db, MACHINE);
    expect(history?.buildYear).toBe(2014);
    expect(history?.entries.sort((a, b) => a.nodeid.localeCompare(b.nodeid))).toEqual([
      { nodeid: 'n1', type: 8, status: 2, title: 'Türverriegelung repariert', created: 10 * DAY, closed: 12 * DAY, author: 'Jonas Weber', colorcode: null, pending: false },
      { nodeid: 'n2', type: 6, status: 1, title: 'Zentralschmierung', created: 20 * DAY, closed: null, author: null, colorcode: '#FB8C00', pending: false },
    ]);
    expect((await readMachineHistory(db, OTHER))?.buildYear).toBeNull();
  });

  it('a notification reported offline is in the history at once, marked as not sent', async () => {
    const { db, context } = await mirror();
    const nodeid = await createNotification(context, { type: 1, title: 'Geräusch am Späneförderer', equipmentnodeid: MACHINE });
    const entry = (await readMachineHistory(db, MACHINE))?.entries.find((e) => e.nodeid === nodeid);
    expect(entry).toMatchObject({ title: 'Geräusch am Späneförderer', type: 1, status: 0, pending: true });
  });

  it('no machine, no history', async () => {
    const { db } = await mirror();
    expect(await readMachineHistory(db, 'unknown')).toBeNull();
    expect(await readMachineHistory(db, null)).toBeNull();
  });
});
