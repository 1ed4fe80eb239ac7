import { describe, expect, it } from 'vitest';
import { catalogSelectionIssues, CATALOG_NAME_MAX } from '../../src/shared/domain/equipment';
import { checkForm, emptyFormState, newNamesTaken, parseDecimal } from '../../src/client/features/equipment/equipment-form-model';
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

// An admin typed the hourly rate as German writes money, "1.250,00", and the form said "Ungültiges Zahlenformat"
// though the CSV import takes the same text. Grouping is read in the form's language and nowhere else.
describe('the form reads grouped numbers as the language writes them', () => {
  it.each([
    ['de', '1.250,00', 1250],
    ['de', '1.250', 1250],
    ['de', '12.500.000,5', 12_500_000.5],
    ['de', '85,5', 85.5],
    ['de', ' 1250 ', 1250],
    ['en', '1,250.00', 1250],
    ['en', '1,250', 1250],
    ['en', '85.5', 85.5],
  ])('%s %j is %d', (lang, text, value) => {
    expect(parseDecimal(text, lang)).toEqual({ ok: true, value });
  });

  it.each([
    ['de', '1,250.00'],
    ['de', '1.25'],
    ['de', '12.50,0'],
    ['de', '.250'],
    ['de', '1..250'],
    ['de', '1.250.'],
    ['de', '-5'],
    ['en', '1.250,00'],
    ['en', '1,25'],
    ['en', '1,2500'],
    // A group never starts with 0: 0.75 typed the English way in German is refused, not read as 750.
    ['de', '0.750'],
    ['de', '000.000'],
    ['en', '0,750'],
  ])('%s %j is refused', (lang, text) => {
    expect(parseDecimal(text, lang)).toEqual({ ok: false });
  });

  it('a rate of 1.250,00 saves as 1250 and over the maximum is said at the field', () => {
    const base = { ...emptyFormState(), name: 'Presse', constructionyear: 2020, areanodeid: AREA, catalog: { legalentity: { isnew: false, nodeid: MANUFACTURER }, brand: { isnew: false, nodeid: BRAND }, equipmenttype: { isnew: false, nodeid: TYPE } } };
    const lookup = { manufacturerOfBrand: () => MANUFACTURER, brandOfType: () => BRAND };
    expect(checkForm({ ...base, hourlyrate: '1.250,00' }, 'add', 'de', lookup).values).toMatchObject({ hourlyrate: 1250 });
    expect(checkForm({ ...base, hourlyrate: '10.000.001' }, 'add', 'de', lookup)).toMatchObject({ hourlyrateTooBig: 10_000_000, values: null });
  });
});

// A new admin's walkthrough typed a width as "1.250,5": the power field beside it takes "1.250,00", the width said only
// "Ungültiges Zahlenformat". Dimensions keep §5's rule (no grouping, docs/decisions.md), so the field now says how
// to write the number it read.
describe('a dimension typed with thousands grouped names the number without them', () => {
  const base = { ...emptyFormState(), name: 'Presse', constructionyear: 2020, areanodeid: AREA, catalog: { legalentity: { isnew: false, nodeid: MANUFACTURER }, brand: { isnew: false, nodeid: BRAND }, equipmenttype: { isnew: false, nodeid: TYPE } } };
  const lookup = { manufacturerOfBrand: () => MANUFACTURER, brandOfType: () => BRAND };

  it('in German and in English', () => {
    const de = checkForm({ ...base, dimensions: ['1.250,5', '12.000', '800'] }, 'add', 'de', lookup);
    expect(de.dimensionErrors).toEqual(['invalidNumberFormat', 'invalidNumberFormat', null]);
    expect(de.dimensionUngrouped).toEqual(['1250,5', '12000', null]);
    expect(de.values).toBeNull();
    const en = checkForm({ ...base, dimensions: ['1,250.5', '', ''] }, 'add', 'en', lookup);
    expect(en.dimensionUngrouped).toEqual(['1250.5', null, null]);
  });

  it('not for text that is no grouped number of the language', () => {
    const check = checkForm({ ...base, dimensions: ['12.5', '12x5', '1,250.5'] }, 'add', 'de', lookup);
    expect(check.dimensionErrors).toEqual(['invalidNumberFormat', 'invalidNumberFormat', 'invalidNumberFormat']);
    expect(check.dimensionUngrouped).toEqual([null, null, null]);
  });
});
