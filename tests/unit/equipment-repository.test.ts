import { describe, expect, it } from 'vitest';
import { createBrandSchema, createEquipmentClassSchema, createEquipmentTypeSchema, createLegalEntitySchema, updateBrandSchema } from '../../src/shared/api/catalog';
import { createEquipmentSchema, updateEquipmentSchema } from '../../src/shared/api/equipment';
import { registerFilesSchema } from '../../src/shared/api/files';
import { createShiftModelSchema } from '../../src/shared/api/shiftmodels';
import { localized } from '../../src/shared/domain/text';
import { LocalDatabase } from '../../src/client/db/local-db';
import { PENDING_DELETE } from '../../src/client/sync/mirror-fields';
import { createBrand, createEquipmentClass, updateBrand, updateEquipmentClass } from '../../src/client/sync/repositories/brands';
import { createEquipment, deleteEquipment, updateEquipment, type EquipmentValues } from '../../src/client/sync/repositories/equipment';
import { AREA, BRAND, MANUFACTURER, NOW, pressRow, TYPE, USER } from './support/press';

const NEW_MANUFACTURER = '0190f5a0-0000-7000-8000-0000000000e2';
const NEW_BRAND = '0190f5a0-0000-7000-8000-0000000000b2';
const NEW_TYPE = '0190f5a0-0000-7000-8000-0000000000c2';
const freshDb = () => new LocalDatabase(`equipment-repo-${Math.random()}`);

function values(overrides: Partial<EquipmentValues> = {}): EquipmentValues {
  return {
    name: 'Presse 3',
    equipmentid: 'PR-003',
    inventoryid: '',
    manufacturerserialnumber: 'SN-42',
    constructionyear: 2019,
    commissioningyear: null,
    costcenter: 'KST 4711',
    inspectionbooknumber: '',
    dimensions: [1200, 2000, null],
    electricalpower: 7.5,
    mediasupply: ['Druckluft 6 bar', '  ', 'Kühlwasser'],
    controller: { manufacturer: 'Siemens', type: 'S7-1500', softwareversion: '' },
    hourlyrate: 85,
    equipmentclassnodeid: null,
    useareashiftmodel: true,
    shifts: [],
    ...overrides,
  };
}

const photo = (name: string) => ({ bytes: new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]).buffer, mimetype: 'image/jpeg', name });

describe('createEquipment', () => {
  it('writes new catalogue entries, both photo registrations, the machine and its shifts in one transaction, in dependency order', async () => {
    const db = freshDb();
    const nodeid = await createEquipment(
      { db, usernodeid: USER },
      {
        values: values({ useareashiftmodel: false, shifts: [{ weekdays: [1, 2], start: '06:00', end: '13:59', unmanned: false }] }),
        catalog: {
          legalentity: { isnew: true, nodeid: NEW_MANUFACTURER, name: 'Schuler AG' },
          brand: { isnew: true, nodeid: NEW_BRAND, name: 'Schuler', isbrandof: NEW_MANUFACTURER },
          equipmenttype: { isnew: true, nodeid: NEW_TYPE, model: 'MSD 400', brandnodeid: NEW_BRAND },
        },
        areanodeid: AREA,
        equipmentpoolnodeid: null,
        photos: { image: photo('maschine.jpg'), typenameplate: photo('typenschild.jpg') },
        lang: 'de',
        now: NOW,
      },
    );
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries.map((e) => e.action)).toEqual(['createManufacturer', 'createBrand', 'createEquipmentType', 'uploadFile', 'uploadFile', 'createEquipment', 'createShifts']);
    expect(entries.map((e) => e.mutationId)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // Every body is what the server's route accepts.
    expect(createLegalEntitySchema.safeParse(entries[0]!.body).success).toBe(true);
    expect(createBrandSchema.safeParse(entries[1]!.body).success).toBe(true);
    expect(createEquipmentTypeSchema.safeParse(entries[2]!.body).success).toBe(true);
    expect(registerFilesSchema.safeParse(entries[3]!.body).success).toBe(true);
    const parsed = createEquipmentSchema.safeParse(entries[5]!.body);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(createShiftModelSchema.safeParse(entries[6]!.body).success).toBe(true);

    const create = entries[5]!;
    const body = create.body as Record<string, unknown>;
    expect(body).toMatchObject({
      equipmentnodeid: nodeid,
      isequipmentof: [AREA],
      equipmenttypenodeid: NEW_TYPE,
      constructiondate: Date.UTC(2019, 0, 1),
      commissioningdate: Date.UTC(2026, 0, 1),
      mediasupply: ['Druckluft 6 bar', 'Kühlwasser'],
      controllerinformation: ['Siemens', 'S7-1500', '', ''],
      hourlyrate: [85, { unitid: 'EUR' }],
    });
    // The photos are referenced by their registration keys; the sender swaps in the server's fileid.
    const [imageReg, plateReg] = [entries[3]!, entries[4]!];
    expect(body.image).toEqual({ fileid: imageReg.nodeid, mimetype: 'image/jpeg' });
    expect(body.typenameplate).toEqual({ fileid: plateReg.nodeid, mimetype: 'image/jpeg' });
    expect(create.dependsOn).toEqual([imageReg.nodeid, plateReg.nodeid]);
    expect(await db.fileBytes.count()).toBe(2);

    const machine = await db.mirror('equipment').get(nodeid);
    expect(machine).toMatchObject({
      name: 'Presse 3',
      areanodeid: AREA,
      equipmentpoolnodeid: null,
      costcenter: { de: 'KST 4711' },
      mediasupply: [{ de: 'Druckluft 6 bar' }, { de: 'Kühlwasser' }],
      controllerinformation: { manufacturer: 'Siemens', type: 'S7-1500' },
      hourlyrate: 85,
      imagefilenodeid: imageReg.nodeid,
      typenameplatefilenodeid: plateReg.nodeid,
      shiftmodelnodeid: entries[6]!.nodeid,
      useareashiftmodel: false,
    });
    expect(await db.mirror('brands').get(NEW_BRAND)).toMatchObject({ name: 'Schuler', manufacturernodeid: NEW_MANUFACTURER });
    expect(await db.mirror('equipmenttypes').get(NEW_TYPE)).toMatchObject({ model: 'MSD 400', brandnodeid: NEW_BRAND });
    expect((await db.mirror('shiftmodels').get(entries[6]!.nodeid))?.shifts).toHaveLength(1);
  });

  it('with an existing type sends neither catalogue creates nor photos, and dimensions left empty are null', async () => {
    const db = freshDb();
    await createEquipment(
      { db, usernodeid: USER },
      {
        values: values({ dimensions: undefined }),
        catalog: { legalentity: { isnew: false, nodeid: MANUFACTURER }, brand: { isnew: false, nodeid: BRAND }, equipmenttype: { isnew: false, nodeid: TYPE } },
        areanodeid: null,
        equipmentpoolnodeid: AREA,
        photos: {},
        lang: 'de',
        now: NOW,
      },
    );
    const entries = await db.outbox.toArray();
    expect(entries.map((e) => e.action)).toEqual(['createEquipment']);
    expect(entries[0]!.body).toMatchObject({ dimensions: null, image: null, typenameplate: null, isequipmentof: [AREA] });
  });
});

describe('updateEquipment', () => {
  const existing = pressRow();
  const catalog = { legalentity: { isnew: false, nodeid: MANUFACTURER }, brand: { isnew: false, nodeid: BRAND }, equipmenttype: { isnew: false, nodeid: TYPE } };

  it('sends only the fields that changed, so another device’s edit of an untouched field survives', async () => {
    const db = freshDb();
    await db.mirror('equipment').put(existing);
    await updateEquipment({ db, usernodeid: USER }, existing, { values: values({ commissioningyear: 2020, name: 'Presse 3 (neu)', hourlyrate: 90 }), catalog, photos: {}, lang: 'de', now: NOW });
    const [entry] = await db.outbox.toArray();
    expect(entry!.body).toEqual({ lang: 'de', equipmentnodeid: existing.nodeid, name: 'Presse 3 (neu)', hourlyrate: [90, { unitid: 'EUR', namespace: 'ISO 4217' }] });
    expect(updateEquipmentSchema.safeParse(entry!.body).success).toBe(true);
    expect(entry!.fields.sort()).toEqual(['hourlyrate', 'name']);
    expect(await db.mirror('equipment').get(existing.nodeid)).toMatchObject({ name: 'Presse 3 (neu)', hourlyrate: 90, costcenter: { de: 'KST 4711' } });
  });

  it('what changed is counted against the row the form was filled from, not the mirror now (found: a second tab undid the first tab’s save)', async () => {
    const db = freshDb();
    // Tab A saved a new inventory id after tab B's form was filled; B's form still shows the old one.
    const now = { ...existing, inventoryid: 'INV-TAB-A', version: Number(existing.version) + 1 };
    await db.mirror('equipment').put(now);
    await updateEquipment({ db, usernodeid: USER }, now, { base: existing, values: values({ commissioningyear: 2020, hourlyrate: 90 }), catalog, photos: {}, lang: 'de', now: NOW });
    const [entry] = await db.outbox.toArray();
    expect(entry!.body).toEqual({ lang: 'de', equipmentnodeid: existing.nodeid, hourlyrate: [90, { unitid: 'EUR', namespace: 'ISO 4217' }] });
    expect(await db.mirror('equipment').get(existing.nodeid)).toMatchObject({ inventoryid: 'INV-TAB-A', hourlyrate: 90 });
  });

  it('a changed dimension or controller entry goes with the values the form was filled from, so the server changes only that part', async () => {
    const db = freshDb();
    // Another device changed the depth after this form was filled; this form changes the height and the controller type.
    const now = { ...existing, dimensions: [1200, 2000, 900], version: Number(existing.version) + 1 };
    await db.mirror('equipment').put(now);
    await updateEquipment({ db, usernodeid: USER }, now, {
      base: existing,
      values: values({ commissioningyear: 2020, dimensions: [1200, 2100, null], controller: { manufacturer: 'Siemens', type: 'S7-1200', softwareversion: '' } }),
      catalog,
      photos: {},
      lang: 'de',
      now: NOW,
    });
    const [entry] = await db.outbox.toArray();
    expect(entry!.body).toEqual({
      lang: 'de',
      equipmentnodeid: existing.nodeid,
      dimensions: [1200, 2100, null],
      previousdimensions: [1200, 2000, null],
      controllerinformation: ['Siemens', 'S7-1200', '', ''],
      previouscontrollerinformation: ['Siemens', 'S7-1500', '', ''],
    });
    expect(updateEquipmentSchema.safeParse(entry!.body).success).toBe(true);
    // On the device at once as the server will store it: the other device's depth kept.
    expect(await db.mirror('equipment').get(existing.nodeid)).toMatchObject({ dimensions: [1200, 2100, 900], controllerinformation: { manufacturer: 'Siemens', type: 'S7-1200' } });
  });

  it('writes nothing when nothing changed (an empty commissioning year keeps the stored one)', async () => {
    const db = freshDb();
    await db.mirror('equipment').put(existing);
    await updateEquipment({ db, usernodeid: USER }, existing, { values: values(), catalog, photos: {}, lang: 'de', now: NOW });
    expect(await db.outbox.count()).toBe(0);
  });

  it('a stored build or commissioning date within the year the form shows is no change (found: editing the name sent both years back as 1 January)', async () => {
    const db = freshDb();
    // Written elsewhere with a day (the demo plant, an import): the form picks years only and shows 2019 and 2020.
    const dated = { ...existing, constructiondate: Date.UTC(2019, 5, 14, 8), commissioningdate: Date.UTC(2020, 9, 6, 8) };
    await db.mirror('equipment').put(dated);
    await updateEquipment({ db, usernodeid: USER }, dated, { values: values({ commissioningyear: 2020, name: 'Presse 3 (neu)' }), catalog, photos: {}, lang: 'de', now: NOW });
    const [entry] = await db.outbox.toArray();
    expect(entry!.body).toEqual({ lang: 'de', equipmentnodeid: existing.nodeid, name: 'Presse 3 (neu)' });
    // Another year is a change, sent as the year's start.
    await updateEquipment({ db, usernodeid: USER }, dated, { values: values({ commissioningyear: 2021, constructionyear: 2018 }), catalog, photos: {}, lang: 'de', now: NOW });
    const second = (await db.outbox.toArray())[1]!;
    expect(second.body).toMatchObject({ constructiondate: Date.UTC(2018, 0, 1), commissioningdate: Date.UTC(2021, 0, 1) });
  });

  it('the machine’s own shift plan is sent only when the editor’s differs from the one it was filled with (found: every save sent it and undid a colleague’s plan)', async () => {
    const db = freshDb();
    const MODEL = '0190f5a0-0000-7000-8000-0000000000f1';
    const own = { ...existing, useareashiftmodel: false, shiftmodelnodeid: MODEL };
    await db.mirror('equipment').put(own);
    await db.mirror('shiftmodels').put({ nodeid: MODEL });
    const plan = [{ weekdays: [1, 2, 3] as (1 | 2 | 3)[], start: '06:00', end: '13:59', unmanned: false }];
    // The name changes; the plan is the one the form was filled with (weekdays clicked in another order).
    await updateEquipment({ db, usernodeid: USER }, own, { baseShifts: plan, values: values({ commissioningyear: 2020, name: 'Presse 3 (neu)', useareashiftmodel: false, shifts: [{ ...plan[0]!, weekdays: [3, 1, 2] }] }), catalog, photos: {}, lang: 'de', now: NOW });
    expect((await db.outbox.toArray()).map((entry) => entry.path)).toEqual([`equipments/${existing.nodeid}`]);
    // A changed plan is sent, as the update of the machine's own plan.
    await db.outbox.clear();
    await updateEquipment({ db, usernodeid: USER }, own, { baseShifts: plan, values: values({ commissioningyear: 2020, useareashiftmodel: false, shifts: [{ ...plan[0]!, end: '14:29' }] }), catalog, photos: {}, lang: 'de', now: NOW });
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ path: `shiftmodels/${MODEL}`, method: 'PUT' });
    expect(entry!.body).toMatchObject({ shifts: [{ start: '06:00', end: '14:29', weekdays: [1, 2, 3] }] });
    // Leaving the area's plan sends the plan even when it equals what the form showed.
    await db.outbox.clear();
    await updateEquipment({ db, usernodeid: USER }, existing, { baseShifts: plan, values: values({ commissioningyear: 2020, useareashiftmodel: false, shifts: plan }), catalog, photos: {}, lang: 'de', now: NOW });
    expect((await db.outbox.toArray()).some((queued) => queued.path.startsWith('shiftmodels'))).toBe(true);
  });

  it('texts kept per language count as changed only when the text the form shows changed (found: an English form sent the German cost centre and media back)', async () => {
    const db = freshDb();
    await db.mirror('equipment').put(existing);
    // Stored in German only; the English form shows the German texts (the fallback) and the user leaves them.
    await updateEquipment({ db, usernodeid: USER }, existing, { values: values(), catalog, photos: {}, lang: 'en', now: NOW });
    expect(await db.outbox.count()).toBe(0);
    await updateEquipment({ db, usernodeid: USER }, existing, { values: values({ costcenter: 'CC 4711', mediasupply: ['Compressed air 6 bar', 'Kühlwasser'] }), catalog, photos: {}, lang: 'en', now: NOW });
    const [entry] = await db.outbox.toArray();
    expect(entry!.body).toMatchObject({ costcenter: 'CC 4711', mediasupply: ['Compressed air 6 bar', 'Kühlwasser'] });
  });

  it('a new photo is registered first and replaces the machine’s photo reference', async () => {
    const db = freshDb();
    await db.mirror('equipment').put(existing);
    await updateEquipment({ db, usernodeid: USER }, existing, { values: values({ commissioningyear: 2020 }), catalog, photos: { typenameplate: photo('neu.png') }, lang: 'de', now: NOW });
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries.map((e) => e.action)).toEqual(['uploadFile', 'updateEquipment']);
    expect(entries[1]!.body).toMatchObject({ typenameplate: { fileid: entries[0]!.nodeid } });
    expect(entries[1]!.dependsOn).toEqual([entries[0]!.nodeid]);
  });
});

describe('deleteEquipment', () => {
  it('hides the machine at once and queues the delete', async () => {
    const db = freshDb();
    const nodeid = '0190f5a0-0000-7000-8000-0000000000f2';
    await db.mirror('equipment').put({ nodeid, name: 'Alt' });
    await deleteEquipment({ db, usernodeid: USER }, nodeid);
    expect((await db.mirror('equipment').get(nodeid))?.[PENDING_DELETE]).toBe(true);
    expect(await db.outbox.toArray()).toMatchObject([{ method: 'DELETE', path: `equipments/${nodeid}`, body: { nodeid } }]);
  });
});

describe('brands and classes', () => {
  it('creates a brand with a new manufacturer first, and an edit sends only what changed', async () => {
    const db = freshDb();
    const context = { db, usernodeid: USER };
    const brandId = await createBrand(context, { name: ' Trumpf ', manufacturer: { isnew: true, name: 'Trumpf GmbH' } });
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries.map((e) => e.action)).toEqual(['createManufacturer', 'createBrand']);
    expect(entries[1]!.body).toMatchObject({ name: 'Trumpf', isbrandof: entries[0]!.nodeid });
    expect(createBrandSchema.safeParse(entries[1]!.body).success).toBe(true);
    const brand = (await db.mirror('brands').get(brandId))!;
    const filledWith = { name: 'Trumpf', manufacturernodeid: String(brand.manufacturernodeid) };
    await updateBrand(context, brandId, { name: 'Trumpf', manufacturer: { isnew: false, nodeid: filledWith.manufacturernodeid } }, filledWith);
    expect(await db.outbox.count()).toBe(2);
    await updateBrand(context, brandId, { name: 'Trumpf Laser', manufacturer: { isnew: false, nodeid: filledWith.manufacturernodeid } }, filledWith);
    const update = (await db.outbox.orderBy('seq').toArray())[2]!;
    expect(update.body).toEqual({ lang: 'de', name: 'Trumpf Laser' });
    expect(updateBrandSchema.safeParse(update.body).success).toBe(true);
  });

  it('an equipment class keeps its name per language', async () => {
    const db = freshDb();
    const id = await createEquipmentClass({ db, usernodeid: USER }, { name: 'Pressen', lang: 'de' });
    expect(await db.mirror('equipmentclasses').get(id)).toMatchObject({ name: { de: 'Pressen' } });
    expect(createEquipmentClassSchema.safeParse((await db.outbox.toArray())[0]!.body).success).toBe(true);
    // An English form shows the German name (the fallback): saved untouched it sends nothing; a new name is English.
    const stored = (await db.mirror('equipmentclasses').get(id))!;
    await db.outbox.clear();
    const shown = localized(stored.name, 'en') ?? '';
    expect(shown).toBe('Pressen');
    await updateEquipmentClass({ db, usernodeid: USER }, id, { name: 'Pressen ', lang: 'en' }, shown);
    expect(await db.outbox.count()).toBe(0);
    await updateEquipmentClass({ db, usernodeid: USER }, id, { name: 'Presses', lang: 'en' }, shown);
    expect((await db.outbox.toArray())[0]!.body).toEqual({ lang: 'en', name: 'Presses' });
  });
});
