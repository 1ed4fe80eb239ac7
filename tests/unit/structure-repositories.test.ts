import { liveQuery } from 'dexie';
import { describe, expect, it } from 'vitest';
import { createAreaSchema, updateAreaSchema } from '../../src/shared/api/areas';
import { assignEquipmentsSchema } from '../../src/shared/api/assign';
import { createPoolSchema } from '../../src/shared/api/equipmentpools';
import { createShiftModelSchema, updateShiftModelSchema } from '../../src/shared/api/shiftmodels';
import { createSiteSchema, updateSiteSchema } from '../../src/shared/api/sites';
import { LocalDatabase, type MirrorRow } from '../../src/client/db/local-db';
import { selectableEquipment, siteViews } from '../../src/client/features/structure/structure-view';
import { writeState, stateKeys } from '../../src/client/sync/outbox';
import { createArea, deleteArea, updateArea } from '../../src/client/sync/repositories/areas';
import { createNotification } from '../../src/client/sync/repositories/notifications';
import { createPool, deletePool } from '../../src/client/sync/repositories/pools';
import { createSite, deleteSite, updateSite } from '../../src/client/sync/repositories/sites';
import { areaShiftModelId, shiftRowsOf } from '../../src/client/sync/structure-shifts';
import { readStructureData } from '../../src/client/sync/use-structure-data';
import { subscriptionNodeId } from '../../src/shared/domain/subscription';

const USER = '0190f5a0-0000-7000-8000-0000000000aa';
const TENANT = '0190f5a0-0000-7000-8000-0000000000ee';
const SITE = '0190f5a0-0000-7000-8000-000000000001';
const HALL_1 = '0190f5a0-0000-7000-8000-000000000011';
const HALL_2 = '0190f5a0-0000-7000-8000-000000000012';
const PRESS = '0190f5a0-0000-7000-8000-000000000101';
const DRILL = '0190f5a0-0000-7000-8000-000000000102';
const LOOSE = '0190f5a0-0000-7000-8000-000000000103';
const SITE_VALUES = { name: 'Werk Süd', street: 'Hauptstraße 1', siteid: '', zipcode: '70565', city: 'Stuttgart', country: 'DE' };

/** A mirror as a finished pull leaves it: one plant, two halls, three machines (one in no area). */
async function seededDb() {
  const db = new LocalDatabase(`structure-test-${Math.random()}`);
  await db.mirror('sites').put({ nodeid: SITE, ...SITE_VALUES, siteid: null, version: 1 });
  await db.mirror('areas').bulkPut([
    { nodeid: HALL_1, name: 'Halle 1', sitenodeid: SITE, areaid: null, shiftmodelnodeid: null, version: 1 },
    { nodeid: HALL_2, name: 'Halle 2', sitenodeid: SITE, areaid: null, shiftmodelnodeid: null, version: 1 },
  ]);
  const machine = (nodeid: string, name: string, areanodeid: string | null): MirrorRow => ({ nodeid, name, equipmentid: name.toUpperCase(), areanodeid, equipmentpoolnodeid: null, equipmenttypenodeid: null, version: 1 });
  await db.mirror('equipment').bulkPut([machine(PRESS, 'Presse', HALL_1), machine(DRILL, 'Bohrwerk', HALL_1), machine(LOOSE, 'Akkuschrauber', null)]);
  await writeState(db, stateKeys.initialSyncDone, true);
  return { db, context: { db, usernodeid: USER } };
}

const machinesOf = async (db: LocalDatabase) => new Map((await db.mirror('equipment').toArray()).map((row) => [row.nodeid, row]));

describe('plant repository', () => {
  it('creates the plant in the mirror and the outbox with a body the route accepts', async () => {
    const { db, context } = await seededDb();
    const nodeid = await createSite(context, TENANT, { ...SITE_VALUES, name: '  Werk Nord ' });
    expect(nodeid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(await db.mirror('sites').get(nodeid)).toMatchObject({ name: 'Werk Nord', siteid: null, country: 'DE', legalentitynodeid: TENANT });
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ method: 'POST', path: 'sites', kind: 'sites', nodeid, creates: true, mutationId: 1 });
    expect(createSiteSchema.parse(entry!.body)).toMatchObject({ nodeid, name: 'Werk Nord', legalentitynodeid: TENANT });
  });

  it('refuses a plant the route would refuse, writing nothing', async () => {
    const { db, context } = await seededDb();
    await expect(createSite(context, TENANT, { ...SITE_VALUES, zipcode: '  ' })).rejects.toThrow();
    expect(await db.outbox.count()).toBe(0);
  });

  it('sends only the fields the user changed, and deletes by hiding the row until the server confirms', async () => {
    const { db, context } = await seededDb();
    // Another tab saved a new street after this form was filled: the form still shows the old one, and its save
    // must not send it back.
    await updateSite(context, SITE, { ...SITE_VALUES, city: 'Esslingen', siteid: 'Tor 3' }, SITE_VALUES);
    expect(await db.mirror('sites').get(SITE)).toMatchObject({ city: 'Esslingen', siteid: 'Tor 3' });
    await updateSite(context, SITE, SITE_VALUES, SITE_VALUES);
    await deleteSite(context, SITE);
    const [update, remove] = await db.outbox.orderBy('mutationId').toArray();
    expect(updateSiteSchema.parse(update!.body)).toMatchObject({ sitenodeid: SITE, city: 'Esslingen', siteid: 'Tor 3' });
    expect(update!.body).not.toHaveProperty('street');
    expect(update!.body).not.toHaveProperty('name');
    expect(remove).toMatchObject({ method: 'DELETE', path: `sites/${SITE}`, body: { sitenodeid: SITE } });
    const data = await readStructureData(db);
    expect(data.sites).toEqual([]);
    // Its areas go with it on every screen.
    expect(siteViews(data, 'de')).toEqual([]);
  });
});

describe('area repository', () => {
  it('creates the area first, then moves each chosen machine with its own entry (old area link removed)', async () => {
    const { db, context } = await seededDb();
    const nodeid = await createArea(context, { sitenodeid: SITE, name: 'Lackiererei', selection: { added: [PRESS, LOOSE], removed: [], machines: await machinesOf(db) } });
    const entries = await db.outbox.orderBy('mutationId').toArray();
    // The creator follows the new area (it appears on their dashboard), as an entry of its own.
    expect(entries.map((entry) => [entry.method, entry.path, entry.nodeid])).toEqual([
      ['POST', 'areas', nodeid],
      ['POST', 'assign/equipments', PRESS],
      ['POST', 'assign/equipments', LOOSE],
      ['POST', 'subscriptions', subscriptionNodeId(USER, nodeid)],
    ]);
    expect(createAreaSchema.parse(entries[0]!.body)).toMatchObject({ nodeid, name: 'Lackiererei', sitenodeid: SITE, isSiteSubs: false });
    expect(entries[3]!.body).toEqual({ usernodeid: USER, sitenodeid: null, areanodeid: nodeid, equipmentpoolnodeid: null });
    expect(assignEquipmentsSchema.parse(entries[1]!.body).payload).toEqual([{ equipmentnodeid: PRESS, isequipmentof: nodeid, deleteequipmentof: [{ type: 'area', nodeid: HALL_1 }] }]);
    expect(assignEquipmentsSchema.parse(entries[2]!.body).payload).toEqual([{ equipmentnodeid: LOOSE, isequipmentof: nodeid, deleteequipmentof: [] }]);

    const data = await readStructureData(db);
    const areas = siteViews(data, 'de')[0]!.areas;
    expect(areas.map((area) => [area.name, area.equipment.map((machine) => machine.name)])).toEqual([
      ['Halle 1', ['Bohrwerk']],
      ['Halle 2', []],
      ['Lackiererei', ['Akkuschrauber', 'Presse']],
    ]);
  });

  it('on edit sends only what changed: no rename for the same name, removals unlink, shifts make the area its plan', async () => {
    const { db, context } = await seededDb();
    const shifts = [
      { start: '06:00', end: '13:59', weekdays: [1, 2, 3, 4, 5] as const, unmanned: false },
      { start: '22:00', end: '05:59', weekdays: [1] as const, unmanned: true },
    ].map((row) => ({ ...row, weekdays: [...row.weekdays] }));
    await updateArea(context, { nodeid: HALL_1, name: 'Halle 1', shiftmodelnodeid: null, shifts: [] }, { name: 'Halle 1 ', selection: { added: [], removed: [DRILL], machines: await machinesOf(db) }, shifts });
    const entries = await db.outbox.orderBy('mutationId').toArray();
    expect(entries.map((entry) => [entry.method, entry.path])).toEqual([
      ['POST', 'assign/equipments'],
      ['POST', 'shiftmodels'],
    ]);
    expect(assignEquipmentsSchema.parse(entries[0]!.body).payload).toEqual([{ equipmentnodeid: DRILL, isequipmentof: null, deleteequipmentof: [{ type: 'area', nodeid: HALL_1 }] }]);
    expect(createShiftModelSchema.parse(entries[1]!.body)).toMatchObject({ shiftmodelof: HALL_1, shifts: [{ start: '06:00' }, { start: '22:00', end: '05:59', unmanned: true }] });

    const data = await readStructureData(db);
    expect(selectableEquipment(data, 'de').find((machine) => machine.nodeid === DRILL)).toMatchObject({ areanodeid: null, location: null });
    const model = areaShiftModelId(data, { nodeid: HALL_1, shiftmodelnodeid: null });
    expect(model).toBe(entries[1]!.nodeid);
    expect(shiftRowsOf(data, model)).toEqual(shifts);
  });

  it('replaces the rows of an existing plan; without a pending change the mirrored rows are shown', async () => {
    const { db, context } = await seededDb();
    const MODEL = '0190f5a0-0000-7000-8000-000000000201';
    await db.mirror('shiftmodels').put({ nodeid: MODEL, name: null, version: 1 });
    await db.mirror('shifts').bulkPut([
      { nodeid: 's2', shiftmodelnodeid: MODEL, position: 1, weekdays: [6], startminute: 840, endminute: 1319, start: '14:00', end: '21:59', unmanned: false },
      { nodeid: 's1', shiftmodelnodeid: MODEL, position: 0, weekdays: [1, 2], startminute: 360, endminute: 839, unmanned: true },
    ]);
    expect(shiftRowsOf(await readStructureData(db), MODEL)).toEqual([
      { start: '06:00', end: '13:59', weekdays: [1, 2], unmanned: true },
      { start: '14:00', end: '21:59', weekdays: [6], unmanned: false },
    ]);
    const next = [{ start: '05:00', end: '12:59', weekdays: [7], unmanned: false }] as Parameters<typeof updateArea>[2]['shifts'];
    await updateArea(context, { nodeid: HALL_2, name: 'Halle 2', shiftmodelnodeid: MODEL, shifts: shiftRowsOf(await readStructureData(db), MODEL) }, { name: 'Halle Zwei', selection: { added: [], removed: [], machines: new Map() }, shifts: next });
    const [rename, plan] = await db.outbox.orderBy('mutationId').toArray();
    expect(updateAreaSchema.parse(rename!.body)).toMatchObject({ areanodeid: HALL_2, name: 'Halle Zwei' });
    expect(plan).toMatchObject({ method: 'PUT', path: `shiftmodels/${MODEL}` });
    expect(updateShiftModelSchema.parse(plan!.body).shifts).toHaveLength(1);
    expect(shiftRowsOf(await readStructureData(db), MODEL)).toEqual(next);
  });

  it('a plan left as it was filled is not sent: untouched, or edited and edited back, weekdays in another order', async () => {
    const { db, context } = await seededDb();
    const MODEL = '0190f5a0-0000-7000-8000-000000000204';
    await db.mirror('shiftmodels').put({ nodeid: MODEL, name: null, version: 1 });
    await db.mirror('shifts').bulkPut([
      { nodeid: 's1', shiftmodelnodeid: MODEL, position: 0, weekdays: [1, 2, 3], startminute: 360, endminute: 839, unmanned: false },
      { nodeid: 's2', shiftmodelnodeid: MODEL, position: 1, weekdays: [5], startminute: 1320, endminute: 359, unmanned: true },
    ]);
    const filled = shiftRowsOf(await readStructureData(db), MODEL);
    const area = { nodeid: HALL_2, name: 'Halle 2', shiftmodelnodeid: MODEL, shifts: filled };
    const nothingSelected = { added: [], removed: [], machines: new Map() };
    // Untouched; then the weekdays clicked off and on again (the select reports them in click order).
    await updateArea(context, area, { name: 'Halle 2', selection: nothingSelected, shifts: filled.map((row) => ({ ...row })) });
    await updateArea(context, area, { name: 'Halle 2', selection: nothingSelected, shifts: [{ ...filled[0]!, weekdays: [3, 1, 2] }, filled[1]!] });
    expect(await db.outbox.count()).toBe(0);
    // A rename with the plan as filled: the rename alone (a plan another device saved meanwhile is not undone).
    await updateArea(context, area, { name: 'Halle Zwei', selection: nothingSelected, shifts: filled });
    expect((await db.outbox.toArray()).map((entry) => entry.path)).toEqual([`areas/${HALL_2}`]);
    // A real change of the plan is sent.
    await updateArea(context, area, { name: 'Halle 2', selection: nothingSelected, shifts: [filled[0]!] });
    expect((await db.outbox.orderBy('mutationId').toArray()).map((entry) => entry.path)).toEqual([`areas/${HALL_2}`, `shiftmodels/${MODEL}`]);
  });

  it('after the server acknowledged a plan its answer is shown until the pull brings newer shift rows', async () => {
    const { db } = await seededDb();
    const MODEL = '0190f5a0-0000-7000-8000-000000000202';
    const answered = [{ nodeid: 'n1', start: '22:00', end: '05:55', weekdays: [5, 6], unmanned: true, endsnextday: true }];
    await db.mirror('shiftmodels').put({ nodeid: MODEL, version: 7, shifts: answered });
    await db.mirror('shifts').put({ nodeid: 'old', shiftmodelnodeid: MODEL, position: 0, weekdays: [1], startminute: 360, endminute: 839, unmanned: false, version: 4 });
    expect(shiftRowsOf(await readStructureData(db), MODEL)).toEqual([{ start: '22:00', end: '05:55', weekdays: [5, 6], unmanned: true }]);
    await db.mirror('shifts').bulkPut([
      { nodeid: 'old', shiftmodelnodeid: MODEL, position: 0, weekdays: [2], startminute: 420, endminute: 899, unmanned: false, version: 9 },
    ]);
    expect(shiftRowsOf(await readStructureData(db), MODEL)).toEqual([{ start: '07:00', end: '14:59', weekdays: [2], unmanned: false }]);
  });

  it('deleting an area leaves its machines unlinked on every screen', async () => {
    const { db, context } = await seededDb();
    await deleteArea(context, HALL_1);
    const data = await readStructureData(db);
    expect(siteViews(data, 'de')[0]!.areas.map((area) => area.name)).toEqual(['Halle 2']);
    expect(selectableEquipment(data, 'de').filter((machine) => !machine.areanodeid).map((machine) => machine.name).sort()).toEqual(['Akkuschrauber', 'Bohrwerk', 'Presse']);
    expect((await db.outbox.toArray())[0]).toMatchObject({ method: 'DELETE', path: `areas/${HALL_1}`, body: { areanodeid: HALL_1 } });
  });
});

describe('pool repository', () => {
  it('creates a pool with its machines (pool links only: the area link stays) and deletes it', async () => {
    const { db, context } = await seededDb();
    const nodeid = await createPool(context, { legalentitynodeid: TENANT, name: 'Mobile Geräte', selection: { added: [PRESS], removed: [], machines: await machinesOf(db) } });
    const [create, assign] = await db.outbox.orderBy('mutationId').toArray();
    expect(createPoolSchema.parse(create!.body)).toMatchObject({ nodeid, name: 'Mobile Geräte', isequipmentpoolof: TENANT });
    expect(assignEquipmentsSchema.parse(assign!.body).payload).toEqual([{ equipmentnodeid: PRESS, isequipmentof: nodeid, deleteequipmentof: [] }]);
    expect(await db.mirror('equipment').get(PRESS)).toMatchObject({ areanodeid: HALL_1, equipmentpoolnodeid: nodeid });

    await deletePool(context, nodeid);
    const data = await readStructureData(db);
    expect(data.equipmentpools).toEqual([]);
    expect(selectableEquipment(data, 'de').find((machine) => machine.nodeid === PRESS)).toMatchObject({ areanodeid: HALL_1, equipmentpoolnodeid: null });
  });
});

describe('the structure screens\' live read', () => {
  it('reads again for a shift plan queued, not for a queued write of another kind (a fault report)', async () => {
    const { db, context } = await seededDb();
    let reads = 0;
    const subscription = liveQuery(() => {
      reads += 1;
      return readStructureData(db);
    }).subscribe({ next: () => undefined });
    try {
      await expect.poll(() => reads).toBe(1);
      // A fault report queued offline: an outbox entry and a notification row, no structure table.
      await createNotification(context, { type: 0, title: 'Leck', equipmentnodeid: PRESS });
      await db.outbox.toArray(); // let Dexie deliver the change
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(reads).toBe(1);
      // A shift plan queued: its outbox entry is in the read's range.
      const MODEL = '0190f5a0-0000-7000-8000-000000000203';
      await db.mirror('shiftmodels').put({ nodeid: MODEL, name: null, version: 1 });
      await expect.poll(() => reads).toBe(2);
      await updateArea(context, { nodeid: HALL_2, name: 'Halle 2', shiftmodelnodeid: MODEL, shifts: [] }, { name: 'Halle 2', selection: { added: [], removed: [], machines: new Map() }, shifts: [{ start: '05:00', end: '12:59', weekdays: [7], unmanned: false }] });
      await expect.poll(() => reads).toBeGreaterThan(2);
      expect((await readStructureData(db)).pendingShiftModels).toEqual(new Set([MODEL]));
    } finally {
      subscription.unsubscribe();
    }
  });
});
