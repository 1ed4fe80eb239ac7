import { describe, expect, it } from 'vitest';
import { COMMISSIONED_BEFORE_BUILT_DETAIL, createEquipmentSchema, updateEquipmentSchema } from '../../src/shared/api/equipment';
import {
  brandAndModel,
  brandOptions,
  catalogSelectionIssues,
  catalogueNameIssue,
  chooseBrand,
  chooseEquipmentType,
  chooseManufacturer,
  cleanMediaSupply,
  decimalSeparatorFor,
  EARLIEST_EQUIPMENT_YEAR,
  epochMsToYear,
  equipmentFormIssues,
  equipmentTypeOptions,
  formatDimension,
  isFutureYear,
  parseDimension,
  parseDimensions,
  yearToEpochMs,
  type CatalogLookup,
  type CatalogSelection,
} from '../../src/shared/domain/equipment';

const M1 = '0190a000-0000-7000-8000-000000000001';
const M2 = '0190a000-0000-7000-8000-000000000002';
const B1 = '0190a000-0000-7000-8000-0000000000b1';
const B2 = '0190a000-0000-7000-8000-0000000000b2';
const T1 = '0190a000-0000-7000-8000-0000000000c1';
const T2 = '0190a000-0000-7000-8000-0000000000c2';
const NEW_M = '0190a000-0000-7000-8000-0000000000f1';
const NEW_B = '0190a000-0000-7000-8000-0000000000f2';
const NEW_T = '0190a000-0000-7000-8000-0000000000f3';
const AREA = '0190a000-0000-7000-8000-0000000000a1';

/** Catalogue: M1 owns B1 (type T1), M2 owns B2 (type T2). */
const lookup: CatalogLookup = {
  manufacturerOfBrand: (id) => ({ [B1]: M1, [B2]: M2 })[id],
  brandOfType: (id) => ({ [T1]: B1, [T2]: B2 })[id],
};

describe('dimension parsing (§5)', () => {
  it.each([
    ['de', '12', 12],
    ['de', '12,5', 12.5],
    ['de', ' 1 ', 1],
    ['en', '12.5', 12.5],
    ['en-GB', '1000', 1000],
    ['fr', '3,25', 3.25],
    ['de', '', null],
    ['de', '   ', null],
  ])('%s %j → %j', (lang, text, value) => {
    expect(parseDimension(text, lang)).toEqual({ ok: true, value });
  });

  it.each([
    ['de', '12.5', 'invalidNumberFormat'],
    ['en', '12,5', 'invalidNumberFormat'],
    ['de', '1,2,3', 'invalidNumberFormat'],
    ['de', 'abc', 'invalidNumberFormat'],
    ['de', '-5', 'invalidNumberFormat'],
    ['de', ',5', 'invalidNumberFormat'],
    ['de', '1e3', 'invalidNumberFormat'],
    ['de', '12,', 'invalidNumberFormat'],
    ['de', '0', 'belowMinimum'],
    ['de', '0,99', 'belowMinimum'],
    ['en', '0.5', 'belowMinimum'],
    ['de', '1000000,5', 'aboveMaximum'],
  ])('%s %j → %s', (lang, text, error) => {
    expect(parseDimension(text, lang)).toEqual({ ok: false, error });
  });

  it('uses "." only for English', () => {
    expect(decimalSeparatorFor('en')).toBe('.');
    expect(decimalSeparatorFor('EN-us')).toBe('.');
    expect(decimalSeparatorFor('de')).toBe(',');
    expect(decimalSeparatorFor('it')).toBe(',');
  });

  it.each([
    [['', '', ''], undefined, true],
    [['10', '', '3,5'], [10, null, 3.5], true],
    [['10', 'x', '0'], [10, null, null], false],
  ] as const)('the three fields %j → %j (valid %s)', (texts, dimensions, valid) => {
    const result = parseDimensions(texts, 'de');
    expect(result.dimensions).toEqual(dimensions);
    expect(result.valid).toBe(valid);
  });

  it('names the error per field', () => {
    expect(parseDimensions(['10', 'x', '0'], 'de').errors).toEqual([null, 'invalidNumberFormat', 'belowMinimum']);
  });

  it.each([
    [12.5, 'de', '12,5'],
    [12.5, 'en', '12.5'],
    [null, 'de', ''],
  ])('formats %j in %s as %j', (value, lang, text) => {
    expect(formatDimension(value, lang)).toBe(text);
  });
});

describe('years (§5)', () => {
  const now = Date.UTC(2026, 5, 15);
  it.each([
    [yearToEpochMs(2026), false],
    [yearToEpochMs(2025), false],
    [yearToEpochMs(2027), true],
    // a device's local midnight of 1 January 2027 in Berlin is still 2027
    [Date.UTC(2026, 11, 31, 23), true],
  ])('%i in the future: %s', (ms, future) => {
    expect(isFutureYear(ms, now)).toBe(future);
  });

  it('counts a time past JavaScript\'s dates as in the future, not as the year NaN that passes every check', () => {
    for (const ms of [8_640_000_000_000_000, Number.MAX_SAFE_INTEGER, Number.NaN, Number.POSITIVE_INFINITY]) expect(isFutureYear(ms), String(ms)).toBe(true);
  });

  it('reads local midnight of 1 January in any time zone as that year', () => {
    for (const offsetHours of [-12, -5, 0, 1, 9, 14]) expect(epochMsToYear(Date.UTC(2015, 0, 1) - offsetHours * 3_600_000)).toBe(2015);
  });
});

describe('brand / type / manufacturer dependency (§4)', () => {
  it.each<[string, CatalogSelection, { field: string; code: string }[]]>([
    ['existing brand and its type', { brand: { isnew: false, nodeid: B1 }, equipmenttype: { isnew: false, nodeid: T1 } }, []],
    ['existing brand with its own manufacturer', { legalentity: { isnew: false, nodeid: M1 }, brand: { isnew: false, nodeid: B1 }, equipmenttype: { isnew: false, nodeid: T1 } }, []],
    ['existing brand, new type', { brand: { isnew: false, nodeid: B1 }, equipmenttype: { isnew: true, nodeid: NEW_T, model: 'X 200', brandnodeid: B1 } }, []],
    [
      'new manufacturer, new brand, new type',
      { legalentity: { isnew: true, nodeid: NEW_M, name: 'Neu GmbH' }, brand: { isnew: true, nodeid: NEW_B, name: 'Neu', isbrandof: NEW_M }, equipmenttype: { isnew: true, nodeid: NEW_T, model: 'N1', brandnodeid: NEW_B } },
      [],
    ],
    ['existing manufacturer, new brand, new type', { legalentity: { isnew: false, nodeid: M2 }, brand: { isnew: true, nodeid: NEW_B, name: 'Neu' }, equipmenttype: { isnew: true, nodeid: NEW_T, model: 'N1' } }, []],
    ['nothing chosen', {}, [{ field: 'brand', code: 'required' }, { field: 'equipmenttype', code: 'required' }]],
    ['type of another brand', { brand: { isnew: false, nodeid: B1 }, equipmenttype: { isnew: false, nodeid: T2 } }, [{ field: 'equipmenttype', code: 'typeNotOfBrand' }]],
    ['brand of another manufacturer', { legalentity: { isnew: false, nodeid: M2 }, brand: { isnew: false, nodeid: B1 }, equipmenttype: { isnew: false, nodeid: T1 } }, [{ field: 'brand', code: 'brandNotOfManufacturer' }]],
    ['existing brand with a new manufacturer', { legalentity: { isnew: true, nodeid: NEW_M, name: 'X' }, brand: { isnew: false, nodeid: B1 }, equipmenttype: { isnew: false, nodeid: T1 } }, [{ field: 'brand', code: 'brandNotOfManufacturer' }]],
    ['new brand with an existing type', { legalentity: { isnew: false, nodeid: M1 }, brand: { isnew: true, nodeid: NEW_B, name: 'Neu' }, equipmenttype: { isnew: false, nodeid: T1 } }, [{ field: 'equipmenttype', code: 'typeNotOfBrand' }]],
    ['new brand without manufacturer', { brand: { isnew: true, nodeid: NEW_B, name: 'Neu' }, equipmenttype: { isnew: true, nodeid: NEW_T, model: 'N1' } }, [{ field: 'legalentity', code: 'required' }]],
    ['new brand of another manufacturer', { legalentity: { isnew: false, nodeid: M1 }, brand: { isnew: true, nodeid: NEW_B, name: 'Neu', isbrandof: M2 }, equipmenttype: { isnew: true, nodeid: NEW_T, model: 'N1' } }, [{ field: 'brand', code: 'brandNotOfManufacturer' }]],
    ['new type of another brand', { brand: { isnew: false, nodeid: B1 }, equipmenttype: { isnew: true, nodeid: NEW_T, model: 'N1', brandnodeid: B2 } }, [{ field: 'equipmenttype', code: 'typeNotOfBrand' }]],
    ['new entries without names', { legalentity: { isnew: true, nodeid: NEW_M }, brand: { isnew: true, nodeid: NEW_B, name: ' ' }, equipmenttype: { isnew: true, nodeid: NEW_T } }, [
      { field: 'legalentity.name', code: 'nameRequired' },
      { field: 'brand.name', code: 'nameRequired' },
      { field: 'equipmenttype.model', code: 'nameRequired' },
    ]],
    ['unknown brand and type', { brand: { isnew: false, nodeid: NEW_B }, equipmenttype: { isnew: false, nodeid: NEW_T } }, [{ field: 'brand', code: 'unknown' }, { field: 'equipmenttype', code: 'unknown' }]],
  ])('%s', (_name, selection, issues) => {
    expect(catalogSelectionIssues(selection, lookup)).toEqual(issues);
  });

  it('choosing an existing brand fixes the manufacturer and keeps only a type of that brand', () => {
    const start: CatalogSelection = { legalentity: null, brand: null, equipmenttype: { isnew: false, nodeid: T2 } };
    expect(chooseBrand(start, { isnew: false, nodeid: B1 }, lookup)).toEqual({
      legalentity: { isnew: false, nodeid: M1 },
      brand: { isnew: false, nodeid: B1, isbrandof: M1 },
      equipmenttype: null,
      legalentityFromBrand: true,
    });
    const withType: CatalogSelection = { brand: { isnew: false, nodeid: B1 }, equipmenttype: { isnew: false, nodeid: T1 } };
    expect(chooseBrand(withType, { isnew: false, nodeid: B1 }, lookup).equipmenttype).toEqual({ isnew: false, nodeid: T1 });
  });

  it.each([null, { isnew: true, nodeid: NEW_B, name: 'Neu' }])('choosing %j as brand resets the type', (brand) => {
    const start: CatalogSelection = { legalentity: { isnew: false, nodeid: M1 }, brand: { isnew: false, nodeid: B1 }, equipmenttype: { isnew: false, nodeid: T1 } };
    expect(chooseBrand(start, brand, lookup).equipmenttype).toBeNull();
  });

  // An admin's walkthrough: one more letter in the new brand's name threw away the new type already typed.
  it('typing the new brand\'s name keeps the new type typed for it; another new brand does not', () => {
    const newType = { isnew: true as const, nodeid: NEW_T, model: 'Typ 9000' };
    const start: CatalogSelection = { legalentity: { isnew: false, nodeid: M1 }, brand: { isnew: true, nodeid: NEW_B, name: 'Neue Marke' }, equipmenttype: newType };
    expect(chooseBrand(start, { isnew: true, nodeid: NEW_B, name: 'Neue Marke X' }, lookup)).toMatchObject({ brand: { nodeid: NEW_B, name: 'Neue Marke X' }, equipmenttype: newType });
    expect(chooseBrand(start, { isnew: true, nodeid: B2, name: 'Andere' }, lookup).equipmenttype).toBeNull();
  });

  it('a manufacturer that came with the brand narrows no brand list, and goes when the brand is cleared; one the user picked stays', () => {
    const brands = [
      { nodeid: B1, manufacturernodeid: M1 },
      { nodeid: B2, manufacturernodeid: M2 },
    ];
    const chosen = chooseBrand({ legalentity: null, brand: null, equipmenttype: null }, { isnew: false, nodeid: B1 }, lookup);
    expect(brandOptions(brands, chosen.legalentity, chosen.legalentityFromBrand)).toEqual(brands);
    expect(chooseBrand(chosen, { isnew: false, nodeid: B2 }, lookup)).toMatchObject({ legalentity: { nodeid: M2 }, brand: { nodeid: B2 }, legalentityFromBrand: true });
    expect(chooseBrand(chosen, null, lookup)).toEqual({ legalentity: null, brand: null, equipmenttype: null });

    const picked = chooseBrand(chooseManufacturer({}, { isnew: false, nodeid: M1 }, lookup), { isnew: false, nodeid: B1 }, lookup);
    expect(picked.legalentityFromBrand).toBeUndefined();
    expect(brandOptions(brands, picked.legalentity, picked.legalentityFromBrand)).toEqual([brands[0]]);
    expect(chooseBrand(picked, null, lookup)).toMatchObject({ legalentity: { nodeid: M1 }, brand: null });
  });

  it('a new brand belongs to the chosen manufacturer, a new type to the chosen brand', () => {
    const selection = chooseBrand({ legalentity: { isnew: true, nodeid: NEW_M, name: 'Neu GmbH' } }, { isnew: true, nodeid: NEW_B, name: 'Neu' }, lookup);
    expect(selection.brand?.isbrandof).toBe(NEW_M);
    expect(chooseEquipmentType(selection, { isnew: true, nodeid: NEW_T, model: 'N1' }).equipmenttype?.brandnodeid).toBe(NEW_B);
    expect(catalogSelectionIssues(chooseEquipmentType(selection, { isnew: true, nodeid: NEW_T, model: 'N1' }), lookup)).toEqual([]);
  });

  it('a new manufacturer clears an existing brand and offers no existing brands', () => {
    const start: CatalogSelection = { legalentity: { isnew: false, nodeid: M1 }, brand: { isnew: false, nodeid: B1 }, equipmenttype: { isnew: false, nodeid: T1 } };
    expect(chooseManufacturer(start, { isnew: true, nodeid: NEW_M, name: 'X' }, lookup)).toEqual({ legalentity: { isnew: true, nodeid: NEW_M, name: 'X' }, brand: null, equipmenttype: null });
    expect(chooseManufacturer(start, { isnew: false, nodeid: M1 }, lookup).brand).toEqual({ isnew: false, nodeid: B1 });
    const brands = [{ nodeid: B1, manufacturernodeid: M1 }, { nodeid: B2, manufacturernodeid: M2 }];
    expect(brandOptions(brands, { isnew: true, nodeid: NEW_M })).toEqual([]);
    expect(brandOptions(brands, { isnew: false, nodeid: M2 }).map((b) => b.nodeid)).toEqual([B2]);
    expect(brandOptions(brands, null)).toHaveLength(2);
  });

  it('offers only the chosen existing brand’s types', () => {
    const types = [{ nodeid: T1, brandnodeid: B1 }, { nodeid: T2, brandnodeid: B2 }];
    expect(equipmentTypeOptions(types, { isnew: false, nodeid: B2 }).map((t) => t.nodeid)).toEqual([T2]);
    expect(equipmentTypeOptions(types, { isnew: true, nodeid: NEW_B })).toEqual([]);
    expect(equipmentTypeOptions(types, null)).toEqual([]);
  });
});

describe('equipment form required fields (§5)', () => {
  it.each([
    [{ mode: 'add', constructiondate: 1, equipmentpoolnodeid: AREA, areanodeid: null, dimensionsValid: true }, []],
    [{ mode: 'add', constructiondate: null, equipmentpoolnodeid: null, areanodeid: null, dimensionsValid: false }, ['buildyear', 'equipmentpool', 'area', 'dimensions']],
    [{ mode: 'edit', constructiondate: 1, equipmentpoolnodeid: null, areanodeid: null, dimensionsValid: true }, []],
    // Put into service before it was built (admin walkthrough: 2015 with a build year 2020 was saved); the same year is fine.
    [{ mode: 'edit', constructiondate: 2020, commissioningyear: 2015, equipmentpoolnodeid: null, areanodeid: null, dimensionsValid: true }, ['commissioningyear']],
    [{ mode: 'edit', constructiondate: 2020, commissioningyear: 2020, equipmentpoolnodeid: null, areanodeid: null, dimensionsValid: true }, []],
    [{ mode: 'edit', constructiondate: 2020, commissioningyear: null, equipmentpoolnodeid: null, areanodeid: null, dimensionsValid: true }, []],
  ] as const)('%j → %j', (form, issues) => {
    expect(equipmentFormIssues(form)).toEqual(issues);
  });

  it('drops empty media rows', () => {
    expect(cleanMediaSupply([' Druckluft ', '', '  ', 'Strom'])).toEqual(['Druckluft', 'Strom']);
  });
});

describe('create/update equipment schemas', () => {
  const base = {
    name: 'Presse 1',
    constructiondate: yearToEpochMs(2015),
    isequipmentof: [AREA],
    brand: { isnew: false, nodeid: B1 },
    equipmenttype: { isnew: false, nodeid: T1 },
  };

  it('accepts the form payload and fills defaults', () => {
    const parsed = createEquipmentSchema.parse({ ...base, mediasupply: ['', 'Druckluft'], hourlyrate: 85 });
    expect(parsed).toMatchObject({ lang: 'de', mediasupply: ['Druckluft'], useareashiftmodel: true, hourlyrate: [85, { unitid: 'EUR' }] });
  });

  it('takes an existing type alone', () => {
    const parsed = createEquipmentSchema.parse({ name: 'X', constructiondate: yearToEpochMs(2015), isequipmentof: [AREA], equipmenttypenodeid: T1 });
    expect(parsed.equipmenttype).toEqual({ isnew: false, nodeid: T1 });
  });

  const fieldsOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) => result.error?.issues.map((i) => i.path.join('.'));
  it.each([
    ['name', { name: ' ' }],
    ['constructiondate', { constructiondate: yearToEpochMs(new Date().getUTCFullYear() + 1) }],
    ['commissioningdate', { commissioningdate: yearToEpochMs(new Date().getUTCFullYear() + 2) }],
    ['dimensions.1', { dimensions: [10, 0.5, null] }],
    ['isequipmentof', { isequipmentof: [] }],
    ['equipmenttype', { equipmenttype: undefined }],
    ['legalentity', { brand: { isnew: true, nodeid: NEW_B, name: 'Neu' }, equipmenttype: { isnew: true, nodeid: NEW_T, model: 'N' } }],
    ['electricalpower', { electricalpower: -1 }],
    // A machine is not put into service before it was built; years before the form's earliest are no build years.
    ['commissioningdate', { commissioningdate: yearToEpochMs(2014) }],
    ['constructiondate', { constructiondate: yearToEpochMs(EARLIEST_EQUIPMENT_YEAR - 1) }],
  ])('names %s', (field, overrides) => {
    expect(fieldsOf(createEquipmentSchema.safeParse({ ...base, ...overrides }))).toEqual([field]);
  });

  it('gives the dimension error texts of the spec', () => {
    const result = createEquipmentSchema.safeParse({ ...base, dimensions: [0, 1, 1] });
    expect(result.error?.issues[0]?.message).toBe('Wert muss >= 1 sein');
  });

  it('takes the same year for build and commissioning, and the earliest year the form offers', () => {
    expect(createEquipmentSchema.safeParse({ ...base, commissioningdate: yearToEpochMs(2015) }).success).toBe(true);
    expect(createEquipmentSchema.safeParse({ ...base, constructiondate: yearToEpochMs(EARLIEST_EQUIPMENT_YEAR) }).success).toBe(true);
  });

  it('update refuses a commissioning year before the build year sent with it (one of them alone is the server’s to check)', () => {
    const refused = updateEquipmentSchema.safeParse({ constructiondate: yearToEpochMs(2015), commissioningdate: yearToEpochMs(2012) });
    expect(refused.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([['commissioningdate', COMMISSIONED_BEFORE_BUILT_DETAIL.message]]);
    expect(updateEquipmentSchema.safeParse({ commissioningdate: yearToEpochMs(2012) }).success).toBe(true);
    expect(updateEquipmentSchema.safeParse({ constructiondate: yearToEpochMs(2015), commissioningdate: null }).success).toBe(true);
  });

  it('update takes only what is sent', () => {
    expect(updateEquipmentSchema.parse({ memo: 'Öl prüfen', equipmentnodeid: AREA })).toEqual({ lang: 'de', memo: 'Öl prüfen', equipmentnodeid: AREA });
  });
});

// An admin's walkthrough: the brand and class forms took a 300-character name (then "Speichern … fehlgeschlagen")
// and a second "TruBend" under TRUMPF.
describe('the brand and class forms\' name', () => {
  it.each([
    ['', 'required'],
    ['  \u200B', 'required'],
    ['B'.repeat(201), 'tooLong'],
    ['B'.repeat(200), null],
    ['trubend ', 'taken'],
    ['TruBend 2', null],
  ] as const)('%j is %s', (name, issue) => {
    expect(catalogueNameIssue(name, ['TruBend', 'TruLaser'])).toBe(issue);
  });
});

describe('an equipment type as people call it', () => {
  it.each([
    ['DMG MORI', 'DMU 65 monoBLOCK', 'DMG MORI DMU 65 monoBLOCK'],
    // A model that already names its brand is not preceded by it again (the demo's "TruBend TruBend 5130").
    ['TruBend', 'TruBend 5130', 'TruBend 5130'],
    ['ALLROUNDER', 'allrounder 470 H', 'allrounder 470 H'],
    ['KUKA', 'KUKA', 'KUKA'],
    // Only the brand as a whole word counts: "Tru" before "TruBend 5130" stays.
    ['Tru', 'TruBend 5130', 'Tru TruBend 5130'],
    ['Schuler', null, 'Schuler'],
    [null, 'MSD 1600', 'MSD 1600'],
    [' ', '', ''],
  ])('%j + %j → %j', (brand, model, text) => {
    expect(brandAndModel(brand, model)).toBe(text);
  });
});
