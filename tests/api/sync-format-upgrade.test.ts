// why first: Dexie looks for IndexedDB when it is imported; the device's database lives in fake-indexeddb.
import 'fake-indexeddb/auto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PENDING_DELETE } from '../../src/client/sync/mirror-fields';
import { enqueueMutation, readState, stateKeys, type MutationRequest } from '../../src/client/sync/outbox';
import { SYNC_FORMAT_VERSION } from '../../src/shared/api/sync';
import { subscriptionRecord } from '../../src/shared/domain/subscription';
import {
  areas,
  attachments,
  brands,
  counterReadings,
  equipment,
  equipmentClasses,
  equipmentPools,
  equipmentTypes,
  files,
  legalEntities,
  notifications,
  shiftModels,
  sites,
  structureSubscriptions,
  tombstones,
} from '../../src/server/db/schema';
import { Device, mirrorAndFreshView, serverLog, type Credentials } from './support/sync-device';
import { insertSyncPlant, type SyncPlant } from './support/sync-plant';
import { createTestApp, type TestApp } from './support/test-app';

// SYNC_FORMAT_VERSION 1 → 2 (docs/sync.md): a tablet updated while it holds a mirror of the previous format and a
// queue the previous app wrote. Its first pull empties the mirror once and pulls from 0; then every queued write
// reaches the server exactly once, in order, and the mirror ends equal to a fresh pull.

/** Ids as the previous app made them (UUIDv7 from the device; fixed here so the test reads plainly). */
const id = (n: number) => `0190f5a0-0000-7000-8000-${String(n).padStart(12, '0')}`;
const N = id(1); // notification
const READING = id(2);
const FILE = id(3);
const ATTACHMENT = id(4);
const SITE = id(5);
const AREA = id(6);
const POOL = id(7);
const SHIFT_MODEL = id(8);
const MANUFACTURER = id(9);
const BRAND = id(10);
const TYPE = id(11);
const CLASS = id(12);
const MACHINE = id(13);

const PHOTO = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x4a, 0x50, 0x45, 0x47, 0x20, 0x4c, 0x65, 0x63, 0x6b]).buffer;
const SHIFT = { start: '06:00', end: '14:00', weekdays: [1, 2, 3, 4, 5], unmanned: false };
const LATE_SHIFT = { start: '14:00', end: '22:00', weekdays: [1, 2, 3, 4, 5], unmanned: false };

type QueuedRequest = { request: MutationRequest; bytes?: ArrayBuffer };
type Write = Omit<MutationRequest, 'method' | 'creates'> & { method?: MutationRequest['method'] };
// The previous app's three kinds of entry: a create (a POST unless said) made the mirror row, a change (a PUT unless
// said) merged its fields into it, a delete marked the row until the server confirmed it.
const created = ({ method = 'POST', ...request }: Write): QueuedRequest => ({ request: { ...request, method, creates: true } });
const changed = ({ method = 'PUT', ...request }: Write): QueuedRequest => ({ request: { ...request, method } });
const deleted = (request: Omit<Write, 'values' | 'method'>): QueuedRequest => ({ request: { ...request, method: 'DELETE', values: { [PENDING_DELETE]: true } } });

describe('sync: a device with a mirror of format 1 and a full queue upgrades to format 2', () => {
  let t: TestApp;
  let plant: SyncPlant;
  let serverUrl: string;
  let tech: Credentials;

  beforeAll(async () => {
    t = await createTestApp();
    plant = await insertSyncPlant(t.database.db);
    serverUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    tech = plant.technicians[0]!;
  });
  afterAll(async () => {
    await t?.close();
  });

  /**
   * One outbox entry of every action, built as the previous app's repositories built them (method, path, body,
   * mirror values), in an order a technician could have made them offline.
   */
  function previousAppQueue(usernodeid: string): QueuedRequest[] {
    const le = plant.tenant.legalEntity.nodeid;
    const [m0, m1] = plant.machines as [string, string];
    const now = Date.now();
    const follow = subscriptionRecord(usernodeid, { type: 'site', nodeid: SITE });
    const { nodeid: subscription, ...followValues } = follow;
    const machineBody = {
      name: 'Drehmaschine DM 1',
      equipmentid: null,
      inventoryid: null,
      manufacturerserialnumber: null,
      constructiondate: Date.UTC(2019, 0, 1),
      commissioningdate: Date.UTC(2020, 0, 1),
      costcenter: null,
      inspectionbooknumber: null,
      dimensions: null,
      electricalpower: null,
      mediasupply: [],
      controllerinformation: null,
      hourlyrate: null,
      useareashiftmodel: true,
      equipmentclassnodeid: CLASS,
    };
    return [
      created({
        action: 'createNotification',
        path: 'notifications',
        body: { lang: 'de', nodeid: N, type: 0, title: 'Kühlmittel tropft', description: null, equipmentnodeid: m0, created: now },
        kind: 'notifications',
        nodeid: N,
        values: { type: 0, status: 0, title: 'Kühlmittel tropft', description: null, equipmentnodeid: m0, created: now, progressstarted: null, closed: null, authornodeid: usernodeid },
      }),
      changed({
        action: 'updateNotificationStatus',
        path: `notifications/${N}`,
        body: { lang: 'de', nodeid: N, status: 1, previousStatus: 0, onlyStatusUpdate: true, progressstarted: now, closed: 0, title: 'Kühlmittel tropft', type: 0, description: null, equipmentnodeid: m0 },
        kind: 'notifications',
        nodeid: N,
        values: { status: 1, progressstarted: now, closed: null },
      }),
      created({
        action: 'addCounterReading',
        path: `counters/update/${plant.counter}`,
        body: { lang: 'de', nodeid: plant.counter, values: [{ nodeid: READING, reading: 1234.5, timestamp: now }] },
        kind: 'counterreadings',
        nodeid: READING,
        values: { counternodeid: plant.counter, value: 1234.5, takenat: now, createdbynodeid: usernodeid },
        method: 'PUT',
      }),
      {
        ...created({
          action: 'uploadFile',
          path: 'files',
          body: { count: 1, extensions: [{ nodeid: FILE, extension: 'jpg', mimetype: 'image/jpeg', size: PHOTO.byteLength }] },
          kind: 'files',
          nodeid: FILE,
          values: { mimetype: 'image/jpeg', extension: 'jpg', size: PHOTO.byteLength, status: 'pending' },
          dependsOn: [FILE],
          upload: { fileid: FILE },
        }),
        bytes: PHOTO,
      },
      created({
        action: 'attachFile',
        path: 'attachments',
        body: { lang: 'de', nodeid: ATTACHMENT, title: 'Leck', description: null, specifier: null, isattachmentof: N, file: { fileid: FILE, mimetype: 'image/jpeg' } },
        kind: 'attachments',
        nodeid: ATTACHMENT,
        values: { title: 'Leck', description: null, isattachmentof: N, filenodeid: FILE, mimetype: 'image/jpeg' },
        dependsOn: [FILE],
      }),
      created({
        action: 'createSite',
        path: 'sites',
        body: { lang: 'de', name: 'Werk Nord', street: 'Hafenstraße 1', siteid: '', zipcode: '20457', city: 'Hamburg', country: 'DE', legalentitynodeid: le, nodeid: SITE },
        kind: 'sites',
        nodeid: SITE,
        values: { name: 'Werk Nord', street: 'Hafenstraße 1', siteid: null, zipcode: '20457', city: 'Hamburg', country: 'DE', legalentitynodeid: le },
      }),
      changed({
        action: 'updateSite',
        path: `sites/${SITE}`,
        body: { lang: 'de', name: 'Werk Nord II', street: 'Hafenstraße 1', siteid: '', zipcode: '20457', city: 'Hamburg', country: 'DE', sitenodeid: SITE },
        kind: 'sites',
        nodeid: SITE,
        values: { name: 'Werk Nord II', street: 'Hafenstraße 1', siteid: null, zipcode: '20457', city: 'Hamburg', country: 'DE' },
      }),
      created({ action: 'createArea', path: 'areas', body: { lang: 'de', nodeid: AREA, name: 'Halle 3', sitenodeid: SITE, isSiteSubs: false }, kind: 'areas', nodeid: AREA, values: { name: 'Halle 3', areaid: null, sitenodeid: SITE, shiftmodelnodeid: null } }),
      changed({ action: 'updateArea', path: `areas/${AREA}`, body: { lang: 'de', areanodeid: AREA, name: 'Halle 3a' }, kind: 'areas', nodeid: AREA, values: { name: 'Halle 3a' } }),
      created({ action: 'createPool', path: 'equipmentpools', body: { lang: 'de', nodeid: POOL, name: 'Stapler', isequipmentpoolof: le }, kind: 'equipmentpools', nodeid: POOL, values: { name: { de: 'Stapler' } } }),
      changed({ action: 'updatePool', path: `equipmentpools/${POOL}`, body: { lang: 'de', equipmentpoolnodeid: POOL, name: 'Flurförderzeuge' }, kind: 'equipmentpools', nodeid: POOL, values: { name: { de: 'Flurförderzeuge' } } }),
      // A move changes the machine's row; it creates nothing, though it POSTs.
      changed({ action: 'assignEquipment', path: 'assign/equipments', body: { payload: [{ equipmentnodeid: m1, isequipmentof: AREA, deleteequipmentof: [] }] }, kind: 'equipment', nodeid: m1, values: { areanodeid: AREA }, method: 'POST' }),
      created({ action: 'createShifts', path: 'shiftmodels', body: { nodeid: SHIFT_MODEL, shiftmodelof: AREA, shifts: [SHIFT] }, kind: 'shiftmodels', nodeid: SHIFT_MODEL, values: { shifts: [SHIFT], ownernodeid: AREA } }),
      changed({ action: 'updateShifts', path: `shiftmodels/${SHIFT_MODEL}`, body: { shiftnodeid: SHIFT_MODEL, shifts: [SHIFT, LATE_SHIFT] }, kind: 'shiftmodels', nodeid: SHIFT_MODEL, values: { shifts: [SHIFT, LATE_SHIFT] } }),
      created({ action: 'createManufacturer', path: 'legalentities', body: { lang: 'de', nodeid: MANUFACTURER, name: 'Weiler' }, kind: 'manufacturers', nodeid: MANUFACTURER, values: { name: 'Weiler', clienttype: 'company' } }),
      created({ action: 'createBrand', path: 'brands', body: { lang: 'de', nodeid: BRAND, name: 'Weiler Praktikant', isbrandof: MANUFACTURER }, kind: 'brands', nodeid: BRAND, values: { name: 'Weiler Praktikant', manufacturernodeid: MANUFACTURER } }),
      changed({ action: 'updateBrand', path: `brands/${BRAND}`, body: { lang: 'de', name: 'Weiler Praktikant C' }, kind: 'brands', nodeid: BRAND, values: { name: 'Weiler Praktikant C' } }),
      created({ action: 'createEquipmentType', path: 'equipmenttypes', body: { lang: 'de', nodeid: TYPE, model: 'C 30', brandnodeid: BRAND }, kind: 'equipmenttypes', nodeid: TYPE, values: { model: 'C 30', brandnodeid: BRAND } }),
      created({ action: 'createEquipmentClass', path: 'equipmentclasses', body: { lang: 'de', nodeid: CLASS, name: 'Drehmaschinen' }, kind: 'equipmentclasses', nodeid: CLASS, values: { name: { de: 'Drehmaschinen' } } }),
      changed({ action: 'updateEquipmentClass', path: `equipmentclasses/${CLASS}`, body: { lang: 'de', name: 'Zyklendrehmaschinen' }, kind: 'equipmentclasses', nodeid: CLASS, values: { name: { de: 'Zyklendrehmaschinen' } } }),
      created({
        action: 'createEquipment',
        path: 'equipments',
        body: { lang: 'de', equipmentnodeid: MACHINE, ...machineBody, isequipmentof: [AREA], equipmenttypenodeid: TYPE, image: null, typenameplate: null },
        kind: 'equipment',
        nodeid: MACHINE,
        values: {
          ...machineBody,
          equipmenttypenodeid: TYPE,
          areanodeid: AREA,
          equipmentpoolnodeid: null,
          imagefilenodeid: null,
          typenameplatefilenodeid: null,
          hourlyratecurrency: 'EUR',
          shiftmodelnodeid: null,
          memo: null,
        },
      }),
      changed({ action: 'updateEquipment', path: `equipments/${MACHINE}`, body: { lang: 'de', equipmentnodeid: MACHINE, name: 'Drehmaschine DM 2', equipmentid: 'DM-2' }, kind: 'equipment', nodeid: MACHINE, values: { name: 'Drehmaschine DM 2', equipmentid: 'DM-2' } }),
      created({ action: 'followStructure', path: 'subscriptions', body: followValues, kind: 'subscriptions', nodeid: subscription, values: { ...followValues, [PENDING_DELETE]: false } }),
      deleted({ action: 'unfollowStructure', path: `subscriptions/${subscription}`, body: undefined, kind: 'subscriptions', nodeid: subscription }),
      deleted({ action: 'deleteEquipment', path: `equipments/${MACHINE}`, body: { nodeid: MACHINE }, kind: 'equipment', nodeid: MACHINE }),
      deleted({ action: 'deletePool', path: `equipmentpools/${POOL}`, body: { equipmentpoolnodeid: POOL }, kind: 'equipmentpools', nodeid: POOL }),
      deleted({ action: 'deleteArea', path: `areas/${AREA}`, body: { areanodeid: AREA }, kind: 'areas', nodeid: AREA }),
      deleted({ action: 'deleteSite', path: `sites/${SITE}`, body: { sitenodeid: SITE }, kind: 'sites', nodeid: SITE }),
    ];
  }

  it('pulls, empties its mirror once, then sends every queued action exactly once; nothing lost, nothing doubled', async () => {
    const db = () => t.database.db;
    const tablet = new Device({ baseUrl: serverUrl });
    try {
      await tablet.login(tech);
      await tablet.pull();

      // The previous app's mirror: no format stamp, and rows as its answers left them (unset times as 0, fields
      // the row shape no longer has).
      await tablet.db.syncState.delete(stateKeys.mirrorFormat);
      await tablet.db.mirror('notifications').update(plant.notification, { progressstarted: 0, closed: 0, isnotificationof: { nodeid: plant.machines[0] } });
      await tablet.db.mirror('equipment').update(plant.machines[0]!, { formerfield: 'alte Form' });

      const queue = previousAppQueue(tablet.usernodeid);
      for (const { request, bytes } of queue) {
        const files = bytes ? [{ fileid: request.nodeid, bytes, mimetype: 'image/jpeg', name: 'leck.jpg', size: bytes.byteLength, createdAt: Date.now() }] : [];
        await enqueueMutation(tablet.context(), request, { files });
      }
      const actions = queue.map(({ request }) => request.action);
      expect(new Set(actions).size).toBe(28);
      expect((await tablet.pending()).map((entry) => [entry.mutationId, entry.action])).toEqual(actions.map((action, index) => [index + 1, action]));

      const upgrade = await tablet.pull();
      expect(upgrade.reset).toBe(true);
      expect(await readState(tablet.db, stateKeys.mirrorFormat)).toBe(SYNC_FORMAT_VERSION);
      // The queue, its bytes and what it shows survived the reset.
      expect(await tablet.pending()).toHaveLength(28);
      expect(await tablet.db.fileBytes.count()).toBe(1);
      expect(await tablet.db.mirror('notifications').get(N)).toMatchObject({ title: 'Kühlmittel tropft', status: 1 });
      expect(await tablet.db.mirror('sites').get(SITE)).toMatchObject({ name: 'Werk Nord II', [PENDING_DELETE]: true });
      expect(await tablet.db.mirror('notifications').get(plant.notification)).not.toHaveProperty('isnotificationof');

      const sent = await tablet.send();
      expect(sent).toEqual({ outcome: { type: 'idle' }, acknowledged: 28, deadLettered: 0 });
      expect(await tablet.db.deadLetters.count()).toBe(0);
      // Once: the pulls after it are incremental.
      expect((await tablet.pull()).reset).toBe(false);
      expect((await tablet.pull()).reset).toBe(false);

      // Each write once, in order, and applied.
      const log = await serverLog(db(), await tablet.clientId());
      expect(log.map((row) => [row.mid, row.method, row.path.replace(/^\/api\//, '')])).toEqual(queue.map(({ request }, index) => [index + 1, request.method, request.path]));
      expect(log.filter((row) => row.status >= 300)).toEqual([]);

      // What the server holds afterwards.
      expect(await db().select({ status: notifications.status, title: notifications.title }).from(notifications).where(eq(notifications.nodeid, N))).toEqual([{ status: 1, title: 'Kühlmittel tropft' }]);
      expect(await db().select({ value: counterReadings.value }).from(counterReadings).where(eq(counterReadings.nodeid, READING))).toEqual([{ value: 1234.5 }]);
      expect(await db().select({ status: files.status }).from(files).where(eq(files.fileid, (await db().select({ fileid: files.fileid }).from(files).where(eq(files.nodeid, FILE)))[0]!.fileid))).toEqual([
        { status: 'complete' },
      ]);
      expect(await db().select({ isattachmentof: attachments.isattachmentof }).from(attachments).where(eq(attachments.nodeid, ATTACHMENT))).toEqual([{ isattachmentof: N }]);
      expect(await db().select({ name: legalEntities.name }).from(legalEntities).where(eq(legalEntities.nodeid, MANUFACTURER))).toEqual([{ name: 'Weiler' }]);
      expect(await db().select({ name: brands.name }).from(brands).where(eq(brands.nodeid, BRAND))).toEqual([{ name: 'Weiler Praktikant C' }]);
      expect(await db().select({ model: equipmentTypes.model }).from(equipmentTypes).where(eq(equipmentTypes.nodeid, TYPE))).toEqual([{ model: 'C 30' }]);
      expect(await db().select({ name: equipmentClasses.name }).from(equipmentClasses).where(eq(equipmentClasses.nodeid, CLASS))).toEqual([{ name: { de: 'Zyklendrehmaschinen' } }]);
      // Created, changed and deleted offline: gone, each with its tombstone.
      for (const [table, nodeid] of [
        [sites, SITE],
        [areas, AREA],
        [equipmentPools, POOL],
        [equipment, MACHINE],
        [shiftModels, SHIFT_MODEL],
      ] as const) {
        expect(await db().select({ nodeid: table.nodeid }).from(table).where(eq(table.nodeid, nodeid)), nodeid).toEqual([]);
      }
      const buried = await db()
        .select({ nodeid: tombstones.nodeid })
        .from(tombstones)
        .where(and(eq(tombstones.legalentitynodeid, plant.tenant.legalEntity.nodeid), inArray(tombstones.nodeid, [SITE, AREA, POOL, MACHINE])));
      expect(buried.map((row) => row.nodeid).sort()).toEqual([SITE, AREA, POOL, MACHINE].sort());
      expect(await db().select().from(structureSubscriptions).where(eq(structureSubscriptions.usernodeid, tablet.usernodeid))).toEqual([]);
      // The machine moved into the area lost the link with the area.
      expect(await db().select({ areanodeid: equipment.areanodeid }).from(equipment).where(eq(equipment.nodeid, plant.machines[1]!))).toEqual([{ areanodeid: null }]);

      // Nothing pending, no bytes left, and the mirror is what a fresh device gets.
      expect(await tablet.pending()).toEqual([]);
      expect(await tablet.db.fileBytes.count()).toBe(0);
      const { mirror, fresh } = await mirrorAndFreshView(tablet, tech, serverUrl);
      expect(mirror).toEqual(fresh);
    } finally {
      await tablet.close();
    }
  });
});
