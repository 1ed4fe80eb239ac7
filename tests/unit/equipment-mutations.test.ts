import { describe, expect, it } from 'vitest';
import { yearToEpochMs } from '../../src/shared/domain/equipment';
import { createBrand, updateBrand, updateEquipmentClass } from '../../src/shared/mutations/catalog';
import { createEquipment, updateEquipment } from '../../src/shared/mutations/equipment';
import { attachFile, uploadFile } from '../../src/shared/mutations/files';
import { MutationInputError, parseMutation, type AnyMutation, type MutationInput } from '../../src/shared/mutations/mutation';
import { brandRowSchema, equipmentClassRowSchema } from '../../src/shared/rows/catalog';
import { attachmentRowSchema, equipmentRowSchema, fileRowSchema } from '../../src/shared/rows/equipment';
import { AREA, MACHINE, NOW, TYPE, USER } from './support/press';

const FILE = '0190f5a0-0000-7000-8000-0000000000d1';

/** What the device writes to its mirror and the server to its row: the declaration's rule on parsed input. */
function applied<M extends AnyMutation>(definition: M, input: MutationInput<M>, current?: Record<string, unknown>) {
  return definition.apply!(current ? { nodeid: MACHINE, ...current } : undefined, parseMutation(definition, input), { now: NOW, usernodeid: USER });
}

describe('machine declarations', () => {
  const body = {
    lang: 'de' as const,
    equipmentnodeid: MACHINE,
    name: ' Presse 3 ',
    constructiondate: Date.UTC(2019, 0, 1) - 3_600_000,
    commissioningdate: null,
    costcenter: 'KST 4711',
    mediasupply: ['Druckluft', ' '],
    controllerinformation: ['Siemens', '', '', '4.9'],
    hourlyrate: 85,
    dimensions: [null, null, null] as [null, null, null],
    isequipmentof: [AREA],
    equipmenttypenodeid: TYPE,
    image: { fileid: FILE, mimetype: 'image/jpeg' },
  };

  it('a create gives the row in the change feed’s shape: texts per language, the lists as the row’s objects, years as 1 January', () => {
    const row = applied(createEquipment, { params: {}, body });
    expect(row).toEqual({
      name: 'Presse 3',
      equipmentid: null,
      inventoryid: null,
      manufacturerserialnumber: null,
      constructiondate: yearToEpochMs(2019),
      commissioningdate: yearToEpochMs(2026),
      costcenter: { de: 'KST 4711' },
      inspectionbooknumber: null,
      dimensions: null,
      electricalpower: null,
      mediasupply: [{ de: 'Druckluft' }],
      controllerinformation: { manufacturer: 'Siemens', softwareversion: '4.9' },
      hourlyrate: 85,
      hourlyratecurrency: 'EUR',
      imagefilenodeid: FILE,
      typenameplatefilenodeid: null,
      memo: null,
      equipmenttypenodeid: TYPE,
      equipmentclassnodeid: null,
      useareashiftmodel: true,
    });
    // Only the fields the server adds (ids, area and pool, own shift plan) are missing from a whole row.
    expect(equipmentRowSchema.omit({ nodeid: true, legalentitynodeid: true, version: true, areanodeid: true, equipmentpoolnodeid: true, shiftmodelnodeid: true }).strict().parse(row)).toEqual(row);
  });

  it('an update changes only the fields sent, a localised one only in its language', () => {
    const current = { costcenter: { de: 'KST 4711', en: 'CC 4711' }, mediasupply: [{ de: 'Druckluft', en: 'Compressed air' }] };
    expect(applied(updateEquipment, { params: { id: MACHINE }, body: { lang: 'en', costcenter: 'CC 9', mediasupply: ['Air', 'Water'] } }, current)).toEqual({
      costcenter: { de: 'KST 4711', en: 'CC 9' },
      mediasupply: [{ de: 'Druckluft', en: 'Air' }, { en: 'Water' }],
    });
    // Emptied: empty in every language — removing only 'en' would show the German one again as the fallback.
    expect(applied(updateEquipment, { params: { id: MACHINE }, body: { lang: 'en', costcenter: '' } }, current)).toEqual({ costcenter: null });
    expect(applied(updateEquipment, { params: { id: MACHINE }, body: { lang: 'de', memo: 'Öl prüfen', image: null } }, current)).toEqual({ memo: 'Öl prüfen', imagefilenodeid: null });
  });

  it('an input the route refuses is a MutationInputError naming the field, on the device as on the server', () => {
    expect(() => parseMutation(createEquipment, { params: {}, body: { ...body, isequipmentof: [] } })).toThrow(MutationInputError);
    const refusal = (() => {
      try {
        parseMutation(updateEquipment, { params: { id: 'x' }, body: { lang: 'de', name: '' } });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(MutationInputError);
    expect((refusal as MutationInputError).fieldErrors()).toMatchObject({ 'params.id': expect.any(String), name: 'Required' });
  });
});

describe('catalogue declarations', () => {
  it('a brand carries its manufacturer under both names the feed uses', () => {
    const row = applied(createBrand, { params: {}, body: { nodeid: MACHINE, name: ' Trumpf ', isbrandof: AREA } });
    expect(row).toEqual({ name: 'Trumpf', manufacturernodeid: AREA, isbrandof: AREA });
    expect(brandRowSchema.pick({ name: true, manufacturernodeid: true, isbrandof: true }).parse(row)).toEqual(row);
    expect(applied(updateBrand, { params: { id: MACHINE }, body: { name: 'Trumpf Laser' } }, {})).toEqual({ name: 'Trumpf Laser' });
  });

  it('renaming a class keeps its other languages', () => {
    const row = applied(updateEquipmentClass, { params: { id: MACHINE }, body: { lang: 'en', name: 'Presses' } }, { name: { de: 'Pressen' } });
    expect(row).toEqual({ name: { de: 'Pressen', en: 'Presses' } });
    expect(equipmentClassRowSchema.pick({ name: true }).parse(row)).toEqual(row);
  });
});

describe('file declarations', () => {
  it('a registration stores the declared type, or the extension’s when the device declared a generic one', () => {
    const register = (mimetype?: string) => applied(uploadFile, { params: {}, body: { count: 1, extensions: [{ nodeid: FILE, extension: '.JPG', ...(mimetype && { mimetype }), size: 6 }] } });
    expect(register('image/JPEG; q=1')).toEqual({ mimetype: 'image/jpeg', extension: 'jpg', size: 6, status: 'pending' });
    expect(register('application/octet-stream')).toMatchObject({ mimetype: 'image/jpeg' });
    expect(register()).toMatchObject({ mimetype: 'image/jpeg' });
    expect(fileRowSchema.pick({ mimetype: true, extension: true, size: true, status: true }).parse(register())).toEqual(register());
    expect(uploadFile.target(parseMutation(uploadFile, { params: {}, body: { count: 1, extensions: [{ nodeid: FILE, extension: 'pdf' }] } }))).toBe(FILE);
  });

  it('an attachment names its file by the registration’s nodeid and its author by the writer', () => {
    const row = applied(attachFile, { params: {}, body: { nodeid: MACHINE, title: ' Foto ', specifier: '', isattachmentof: AREA, file: { fileid: FILE } } });
    expect(row).toEqual({ title: 'Foto', description: null, specifier: null, isattachmentof: AREA, filenodeid: FILE, authornodeid: USER });
    expect(attachmentRowSchema.omit({ nodeid: true, legalentitynodeid: true, version: true, targetkind: true }).strict().parse(row)).toEqual(row);
  });
});
