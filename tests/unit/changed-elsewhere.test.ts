/**
 * "Changed elsewhere" of the edit forms: a field another device or tab saved while the form was open is said, with
 * its value to take over; a field the form already holds that way is not. For the equipment form, taking a field
 * over counts as filled from the record now: its warning goes and the save does not send it back.
 */
import { describe, expect, it } from 'vitest';
import { LocalDatabase, type MirrorRow } from '../../src/client/db/local-db';
import {
  checkForm,
  equipmentChangedElsewhere,
  formStateFromRow,
  mirrorCatalogLookup,
  takeOverBase,
  takeOverField,
  type EquipmentFormState,
} from '../../src/client/features/equipment/equipment-form-model';
import { changedElsewhere, sameFieldValue } from '../../src/client/lib/changed-elsewhere';
import { updateEquipment } from '../../src/client/sync/repositories/equipment';
import { AREA, BRAND, MANUFACTURER, NOW, pressRow, TYPE, USER } from './support/press';

describe('changedElsewhere', () => {
  const fields = ['title', 'description', 'dueDate'] as const;
  const filledFrom = { title: 'Pumpe leckt', description: 'Tropft', dueDate: '' };

  it('lists a field the record now has otherwise than the form was filled from, in the order of the fields', () => {
    const now = { ...filledFrom, dueDate: '01.07.2026', description: 'Tropft stark' };
    expect(changedElsewhere(fields, filledFrom, now, filledFrom)).toEqual(['description', 'dueDate']);
  });

  it('lists it also when the user changed that field too (their value would replace the other)', () => {
    const now = { ...filledFrom, title: 'Pumpe 2 leckt' };
    expect(changedElsewhere(fields, filledFrom, now, { ...filledFrom, title: 'Pumpe undicht' })).toEqual(['title']);
  });

  it('does not list a field the form already holds as the record has it now (typed the same, or taken over)', () => {
    const now = { ...filledFrom, title: 'Pumpe 2 leckt' };
    expect(changedElsewhere(fields, filledFrom, now, now)).toEqual([]);
  });

  it('does not list a field only the user changed', () => {
    expect(changedElsewhere(fields, filledFrom, filledFrom, { ...filledFrom, title: 'Neu' })).toEqual([]);
  });

  it('compares lists by items and objects by content, undefined as null', () => {
    expect(sameFieldValue(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(sameFieldValue(['a', 'b'], ['b', 'a'])).toBe(false);
    expect(sameFieldValue({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(sameFieldValue(undefined, null)).toBe(true);
    expect(sameFieldValue('', null)).toBe(false);
  });
});

describe('the equipment form, changed elsewhere', () => {
  const OTHER_TYPE = '0190f5a0-0000-7000-8000-0000000000c3';
  const lookup = mirrorCatalogLookup(
    [{ nodeid: BRAND, manufacturernodeid: MANUFACTURER, name: 'Schuler' }] as MirrorRow[],
    [
      { nodeid: TYPE, brandnodeid: BRAND, model: 'MSD 400' },
      { nodeid: OTHER_TYPE, brandnodeid: BRAND, model: 'MSD 630' },
    ] as MirrorRow[],
  );
  const read = (row: MirrorRow, lang = 'de'): EquipmentFormState => formStateFromRow(row, { lang, lookup, areas: [{ nodeid: AREA, sitenodeid: 'site' } as MirrorRow], shifts: [] });
  const filledFrom = pressRow();

  it('says nothing while the record is as the form was filled from it', () => {
    expect(equipmentChangedElsewhere(read(filledFrom), read(filledFrom), read(filledFrom), 'de')).toEqual([]);
  });

  it('says each field of the form another device changed: texts, type, class, dimensions, numbers, media, controller, years', () => {
    const now = pressRow({
      inventoryid: 'INV-77',
      equipmenttypenodeid: OTHER_TYPE,
      equipmentclassnodeid: 'class-1',
      dimensions: [1200, 2100, null],
      electricalpower: 11,
      mediasupply: [{ de: 'Druckluft 8 bar' }],
      controllerinformation: { manufacturer: 'Siemens', type: 'S7-1500', softwareversion: 'V2.9' },
      constructiondate: Date.UTC(2018, 0, 1),
      useareashiftmodel: false,
    });
    expect(equipmentChangedElsewhere(read(filledFrom), read(now), read(filledFrom), 'de')).toEqual([
      'catalog',
      'inventoryid',
      'constructionyear',
      'equipmentclassnodeid',
      'height',
      'electricalpower',
      'mediasupply',
      'controller.softwareversion',
      'useareashiftmodel',
    ]);
  });

  it('is blind to what only the other language or the stored form changed (the form shows neither)', () => {
    const now = pressRow({ costcenter: { de: 'KST 4711', en: 'CC 4711' }, controllerinformation: { type: 'S7-1500', manufacturer: 'Siemens' }, version: 9 });
    expect(equipmentChangedElsewhere(read(filledFrom), read(now), read(filledFrom), 'de')).toEqual([]);
  });

  it('a number the user typed as the other device saved it is no difference ("7,50" for 7.5)', () => {
    const now = pressRow({ electricalpower: 7.5, hourlyrate: 90 });
    const form = { ...read(filledFrom), hourlyrate: '90,00' };
    expect(equipmentChangedElsewhere(read(filledFrom), read(now), form, 'de')).toEqual([]);
  });

  it('shows the other value in the form’s language', () => {
    const now = read(pressRow({ electricalpower: 7.25, hourlyrate: 85.5, dimensions: [1200.5, 2000, null] }), 'de');
    expect([now.electricalpower, now.hourlyrate, now.dimensions[0]]).toEqual(['7,25', '85,50', '1200,5']);
  });

  it('taking a field over sets it in the form and leaves the other fields as the user has them', () => {
    const now = pressRow({ dimensions: [1300, 2100, null], inventoryid: 'INV-77' });
    const form = { ...read(filledFrom), name: 'Presse 3 (Halle 2)' };
    const taken = takeOverField(form, read(now), 'width');
    expect(taken.dimensions).toEqual(['1300', '2000', '']);
    expect(taken.name).toBe('Presse 3 (Halle 2)');
    expect(equipmentChangedElsewhere(read(filledFrom), read(now), taken, 'de')).toEqual(['inventoryid', 'height']);
    expect(takeOverField(form, read(now), 'inventoryid').inventoryid).toBe('INV-77');
  });

  it('a field taken over counts as filled from the record now: only that part of a dimension or controller entry', () => {
    const now = pressRow({ dimensions: [1300, 2100, null], controllerinformation: { manufacturer: 'Bosch', type: 'S7-1500', softwareversion: 'V3' } });
    const base = takeOverBase(takeOverBase(filledFrom, now, 'width'), now, 'controller.softwareversion');
    expect(base.dimensions).toEqual([1300, 2000, null]);
    expect(base.controllerinformation).toEqual({ manufacturer: 'Siemens', type: 'S7-1500', softwareversion: 'V3' });
    // Height and the controller's manufacturer were not taken over: still said.
    const form = takeOverField(takeOverField(read(filledFrom), read(now), 'width'), read(now), 'controller.softwareversion');
    expect(equipmentChangedElsewhere(read(base), read(now), form, 'de')).toEqual(['height', 'controller.manufacturer']);
    // A third device changes the taken width again: said anew.
    const later = pressRow({ ...now, dimensions: [1400, 2100, null] });
    expect(equipmentChangedElsewhere(read(base), read(later), form, 'de')).toEqual(['width', 'height', 'controller.manufacturer']);
  });

  it('the save after taking a field over sends only what the user changed (not the taken value, not the untouched other)', async () => {
    const db = new LocalDatabase(`changed-elsewhere-${Math.random()}`);
    const now = pressRow({ inventoryid: 'INV-77', costcenter: { de: 'KST 9000' }, version: 2 });
    await db.mirror('equipment').put(now);
    const base = takeOverBase(filledFrom, now, 'inventoryid');
    const form = { ...takeOverField(read(filledFrom), read(now), 'inventoryid'), name: 'Presse 3 (Halle 2)' };
    const values = checkForm(form, 'edit', 'de', lookup).values!;
    await updateEquipment({ db, usernodeid: USER }, now, { base, values, catalog: form.catalog, photos: {}, lang: 'de', now: NOW });
    const [entry] = await db.outbox.toArray();
    expect(entry!.body).toEqual({ lang: 'de', equipmentnodeid: now.nodeid, name: 'Presse 3 (Halle 2)' });
    expect(await db.mirror('equipment').get(now.nodeid)).toMatchObject({ name: 'Presse 3 (Halle 2)', inventoryid: 'INV-77', costcenter: { de: 'KST 9000' } });
  });

  it('a type chosen elsewhere is taken over with its brand and manufacturer', () => {
    const now = read(pressRow({ equipmenttypenodeid: OTHER_TYPE }));
    const taken = takeOverField(read(filledFrom), now, 'catalog');
    expect(taken.catalog).toEqual(now.catalog);
    expect(takeOverBase(filledFrom, pressRow({ equipmenttypenodeid: OTHER_TYPE }), 'catalog').equipmenttypenodeid).toBe(OTHER_TYPE);
  });
});
