import { describe, expect, it } from 'vitest';
import { catalogSelectionIssues, CATALOG_NAME_MAX } from '../../src/shared/domain/equipment';
import { checkForm, emptyFormState, newNamesTaken } from '../../src/client/features/equipment/equipment-form-model';
import { AREA, BRAND, MANUFACTURER, TYPE } from './support/press';

// Found by an admin's walkthrough: a media connection, a controller entry or a new brand's name over the API's
// limit passed the form and failed on save with "Speichern auf diesem Gerät ist fehlgeschlagen". Each is now an
// error at its field and keeps the form from saving.
describe('equipment form: every text the API limits is checked while typing', () => {
  const lookup = { manufacturerOfBrand: (brand: string) => (brand === BRAND ? MANUFACTURER : undefined), brandOfType: (type: string) => (type === TYPE ? BRAND : undefined) };
  const filled = {
    ...emptyFormState(),
    name: 'Presse',
    constructionyear: 2020,
    areanodeid: AREA,
    catalog: { legalentity: { isnew: false, nodeid: MANUFACTURER }, brand: { isnew: false, nodeid: BRAND }, equipmenttype: { isnew: false, nodeid: TYPE } },
  };

  it('a filled form is valid', () => {
    expect(checkForm(filled, 'add', 'de', lookup)).toMatchObject({ mediasupplyTooLong: [], controllerTooLong: [] });
    expect(checkForm(filled, 'add', 'de', lookup).values).not.toBeNull();
  });

  it('media connection rows and controller entries over their limits', () => {
    const check = checkForm({ ...filled, mediasupply: ['Druckluft', 'x'.repeat(501), ''], controller: { manufacturer: 'Siemens', type: 'S'.repeat(201), softwareversion: '' } }, 'add', 'de', lookup);
    expect(check).toMatchObject({ mediasupplyTooLong: [1], controllerTooLong: ['type'], values: null });
  });

  it('a new manufacturer, brand or type whose name is too long', () => {
    const long = 'N'.repeat(CATALOG_NAME_MAX + 1);
    const issues = catalogSelectionIssues({ legalentity: { isnew: true, nodeid: MANUFACTURER, name: long }, brand: { isnew: true, nodeid: BRAND, name: long, isbrandof: MANUFACTURER }, equipmenttype: { isnew: true, nodeid: TYPE, model: long, brandnodeid: BRAND } });
    expect(issues.filter((issue) => issue.code === 'nameTooLong').map((issue) => issue.field)).toEqual(['legalentity', 'brand', 'equipmenttype']);
    expect(catalogSelectionIssues({ legalentity: { isnew: true, nodeid: MANUFACTURER, name: 'N'.repeat(CATALOG_NAME_MAX) }, brand: { isnew: true, nodeid: BRAND, name: 'Marke', isbrandof: MANUFACTURER }, equipmenttype: { isnew: true, nodeid: TYPE, model: 'T 1', brandnodeid: BRAND } })).toEqual([]);
  });
});

describe('a new catalogue entry with the name of one the picker lists', () => {
  const listed = { legalentity: [{ label: 'Nordwind Maschinenbau GmbH' }], brand: [{ label: 'Nordwind' }], equipmenttype: [{ label: 'NW 200' }] };

  it('is refused at its picker, case and surrounding spaces aside (found: two identical manufacturers in the picker)', () => {
    const catalog = { legalentity: { isnew: true, nodeid: MANUFACTURER, name: ' nordwind maschinenbau gmbh ' }, brand: { isnew: true, nodeid: BRAND, name: 'NORDWIND' }, equipmenttype: { isnew: true, nodeid: TYPE, model: 'NW 300' } };
    expect(newNamesTaken(catalog, listed)).toEqual(['legalentity', 'brand']);
    // Choosing the listed entry is what the error asks for.
    expect(newNamesTaken({ ...catalog, legalentity: { isnew: false, nodeid: MANUFACTURER }, brand: { isnew: false, nodeid: BRAND } }, listed)).toEqual([]);
  });
});
