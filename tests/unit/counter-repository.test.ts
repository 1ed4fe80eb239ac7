import { describe, expect, it } from 'vitest';
import { LocalDatabase } from '../../src/client/db/local-db';
import { readCounterChoices, readCounterDetails } from '../../src/client/sync/machine-counters';
import { countUserActions } from '../../src/client/sync/outbox';
import { createCounter, deleteCounter } from '../../src/client/sync/repositories/counters';
import { MutationInputError } from '../../src/shared/mutations/mutation';

const USER = '0190f5a0-0000-7000-8000-0000000000aa';
const MACHINE = '0190f5a0-0000-7000-8000-0000000000bb';
const HOUR_UNIT = '0190f5a0-0000-7000-8000-0000000000c1';
const HOURS_TYPE = '0190f5a0-0000-7000-8000-0000000000c2';

async function device() {
  const db = new LocalDatabase(`counter-repo-${Math.random()}`);
  await db.mirror('units').bulkPut([
    { nodeid: HOUR_UNIT, unitid: 'HUR', namespace: 'UNECE Rec 20', symbol: 'h', displayName: { plural: { de: 'Stunden', en: 'hours' } } },
    { nodeid: 'eur', unitid: 'EUR', namespace: 'ISO 4217', symbol: '€', displayName: { plural: { de: 'Euro' } } },
  ]);
  await db.mirror('countertypes').put({ nodeid: HOURS_TYPE, name: 'Betriebsstunden', unitnodeid: HOUR_UNIT, builtin: true, version: 1 });
  return { db, context: { db, usernodeid: USER, now: () => 1_000_000 } };
}

describe('counter repository and mirror reader (§4.6 offline)', () => {
  it('a counter of a NEW type with a first reading is one user action of three steps, in order, shown at once', async () => {
    const { db, context } = await device();
    const { counternodeid, countertypenodeid } = await createCounter(context, { equipmentnodeid: MACHINE, name: 'Spindel', type: { name: 'Spindelstunden', unitnodeid: HOUR_UNIT }, reading: { value: 1200 } });
    const entries = await db.outbox.orderBy('mutationId').toArray();
    expect(entries.map((e) => [e.action, e.method, e.path])).toEqual([
      ['createCounterType', 'POST', 'countertypes/create'],
      ['createCounter', 'POST', 'counters/create'],
      ['addCounterReading', 'PUT', `counters/update/${counternodeid}`],
    ]);
    expect(countUserActions(entries)).toBe(1);
    expect(entries[1]!.body).toMatchObject({ nodeid: counternodeid, counterTypeNodeId: countertypenodeid, equipmentNodeId: MACHINE });

    const [counter] = await readCounterDetails(db, MACHINE, 'de');
    expect(counter).toMatchObject({ nodeid: counternodeid, name: 'Spindel', pending: true, type: { name: 'Spindelstunden', builtin: false, unit: { symbol: 'h' } }, latest: { value: 1200, takenat: 1_000_000, pending: true } });
    const choices = await readCounterChoices(db, 'de');
    expect(choices.types.map((type) => type.name)).toEqual(['Betriebsstunden', 'Spindelstunden']);
    // Currencies are no unit a counter counts in.
    expect(choices.units.map((unit) => unit.unitid)).toEqual(['HUR']);
  });

  it('an existing type without a reading is one step; an empty name queues nothing', async () => {
    const { db, context } = await device();
    await createCounter(context, { equipmentnodeid: MACHINE, name: 'Betriebsstunden', type: { nodeid: HOURS_TYPE } });
    expect((await db.outbox.toArray()).map((e) => e.action)).toEqual(['createCounter']);
    await expect(createCounter(context, { equipmentnodeid: MACHINE, name: ' ', type: { nodeid: HOURS_TYPE } })).rejects.toBeInstanceOf(MutationInputError);
    expect(await db.outbox.count()).toBe(1);
  });

  it('a deleted counter leaves the tab at once, its delete is queued', async () => {
    const { db, context } = await device();
    const { counternodeid } = await createCounter(context, { equipmentnodeid: MACHINE, name: 'Betriebsstunden', type: { nodeid: HOURS_TYPE } });
    await deleteCounter(context, counternodeid);
    expect(await readCounterDetails(db, MACHINE, 'de')).toEqual([]);
    expect((await db.outbox.orderBy('mutationId').toArray()).map((e) => [e.action, e.method])).toEqual([
      ['createCounter', 'POST'],
      ['deleteCounter', 'DELETE'],
    ]);
  });
});
