import { describe, expect, it } from 'vitest';
import { parseCsv, serializeCsv } from '../../src/client/lib/csv';
import { catalogForExecution, equipmentCsvRows, planEquipmentImport, type CsvMirror, type EquipmentCsvColumn } from '../../src/client/features/equipment/equipment-csv';
import { checkForm, emptyFormState, formatAmount, mirrorCatalogLookup, pathAfterSave } from '../../src/client/features/equipment/equipment-form-model';
import { AREA, BRAND, MACHINE, MANUFACTURER, NOW, pressRow, TYPE } from './support/press';

const ids = { site: '0190f5a0-0000-7000-8000-000000000051', area: AREA, pool: '0190f5a0-0000-7000-8000-000000000061', manufacturer: MANUFACTURER, brand: BRAND, type: TYPE, machine: MACHINE };

function mirror(): CsvMirror {
  return {
    // A name that needs quoting and a German decimal prove the CSV's escaping.
    equipment: [pressRow({ name: 'Presse; "groß"', dimensions: [1200.5, 2000, null] })],
    manufacturers: [{ nodeid: ids.manufacturer, name: 'Schuler AG' }],
    brands: [{ nodeid: ids.brand, name: 'Schuler', manufacturernodeid: ids.manufacturer }],
    equipmenttypes: [{ nodeid: ids.type, model: 'MSD 400', brandnodeid: ids.brand }],
    equipmentclasses: [],
    sites: [{ nodeid: ids.site, name: 'Werk Nord' }],
    areas: [{ nodeid: ids.area, name: 'Halle 1', sitenodeid: ids.site }],
    equipmentpools: [{ nodeid: ids.pool, name: { de: 'Mobile Geräte' } }],
  };
}

const header = (column: EquipmentCsvColumn) => `H:${column}`;
const headerNames = (column: EquipmentCsvColumn) => [column, header(column)];

/** The export of the mirror as parsed rows, and a copy of its machine's row with some cells changed. */
function exported() {
  const rows = parseCsv(serializeCsv(equipmentCsvRows(mirror(), 'de', header)));
  const machineWith = (cells: Partial<Record<EquipmentCsvColumn, string>>) => {
    const row = [...rows[1]!];
    for (const [name, value] of Object.entries(cells)) row[rows[0]!.indexOf(header(name as EquipmentCsvColumn))] = value;
    return row;
  };
  return { header: rows[0]!, machineWith };
}

describe('equipment CSV', () => {
  it('exports every form field and reads back as unchanged (quotes, semicolons, German decimals)', () => {
    const text = serializeCsv(equipmentCsvRows(mirror(), 'de', header));
    const rows = parseCsv(text);
    expect(rows[1]).toContain('Presse; "groß"');
    expect(rows[1]).toContain('1200,5');
    expect(rows[1]).toContain('Druckluft 6 bar | Kühlwasser');
    const plan = planEquipmentImport(rows, mirror(), 'de', headerNames, NOW);
    expect(plan.missingHeaders).toEqual([]);
    expect(plan.rows).toMatchObject([{ line: 2, action: 'unchanged', nodeid: ids.machine }]);
  });

  it('an edited cell makes an update, a row without nodeid a create, and bad rows errors naming the field', () => {
    const { header: head, machineWith } = exported();
    const edited = machineWith({ hourlyrate: '92,5' });
    const added = machineWith({ nodeid: '', name: 'Presse 4', brand: 'Bruderer', manufacturer: 'Bruderer AG', type: 'BSTA 510' });
    const bad = machineWith({ nodeid: '', width: '12.5', height: '0,5', constructionyear: '2099', area: 'Halle 9' });
    const plan = planEquipmentImport([head, edited, added, bad], mirror(), 'de', headerNames, NOW);
    expect(plan.rows.map((row) => row.action)).toEqual(['update', 'create', 'error']);
    const error = plan.rows[2]!;
    expect(error.errors.map((e) => [e.code, e.column])).toEqual(
      expect.arrayContaining([
        ['futureYear', 'constructionyear'],
        ['unknownArea', 'area'],
        ['invalidNumberFormat', 'width'],
        ['belowMinimum', 'height'],
      ]),
    );
    const create = plan.rows[1]!;
    if (create.action !== 'create') throw new Error('expected a create');
    expect(create.state.catalog.brand).toMatchObject({ isnew: true, name: 'Bruderer' });
    expect(create.state.catalog.legalentity).toMatchObject({ isnew: true, name: 'Bruderer AG' });
  });

  it('two rows naming the same new brand create it once', () => {
    const { header: head, machineWith } = exported();
    const make = (name: string) => machineWith({ nodeid: '', name, brand: 'Bruderer', manufacturer: 'Bruderer AG' });
    const plan = planEquipmentImport([head, make('A'), make('B')], mirror(), 'de', headerNames, NOW);
    const [a, b] = plan.rows;
    if (a?.action !== 'create' || b?.action !== 'create') throw new Error('expected creates');
    expect(b.state.catalog.brand?.nodeid).toBe(a.state.catalog.brand?.nodeid);
    const created = new Set<string>();
    expect(catalogForExecution(a.state.catalog, created).brand?.isnew).toBe(true);
    expect(catalogForExecution(b.state.catalog, created).brand?.isnew).toBe(false);
  });
});

describe('equipment form rules wiring', () => {
  const lookup = mirrorCatalogLookup(mirror().brands, mirror().equipmenttypes);

  it('adding needs brand, type, build year and a pool or an area; German dimensions use a comma', () => {
    const state = emptyFormState();
    const empty = checkForm(state, 'add', 'de', lookup);
    expect(empty.values).toBeNull();
    expect(empty.fieldIssues).toEqual(expect.arrayContaining(['buildyear', 'equipmentpool', 'area']));
    const filled = {
      ...state,
      name: 'Presse',
      constructionyear: 2020,
      areanodeid: ids.area,
      sitenodeid: ids.site,
      dimensions: ['1200,5', '', ''] as [string, string, string],
      catalog: { legalentity: { isnew: false, nodeid: ids.manufacturer }, brand: { isnew: false, nodeid: ids.brand }, equipmenttype: { isnew: false, nodeid: ids.type } },
    };
    expect(checkForm(filled, 'add', 'de', lookup).values?.dimensions).toEqual([1200.5, null, null]);
    expect(checkForm(filled, 'add', 'en', lookup).dimensionErrors[0]).toBe('invalidNumberFormat');
    expect(checkForm({ ...filled, dimensions: ['0,5', '', ''] }, 'add', 'de', lookup).dimensionErrors[0]).toBe('belowMinimum');

    // What the API refuses is said at the field while typing, not after a failed save: too long, too big.
    expect(checkForm({ ...filled, dimensions: ['', '99999999999', ''] }, 'add', 'de', lookup)).toMatchObject({ dimensionErrors: [null, 'aboveMaximum', null], values: null });
    const tooMuch = checkForm({ ...filled, name: 'P'.repeat(201), equipmentid: 'E'.repeat(101), electricalpower: '2000000', hourlyrate: '10000000,5' }, 'add', 'de', lookup);
    expect(tooMuch).toMatchObject({ tooLong: { name: 200, equipmentid: 100 }, electricalpowerTooBig: 1_000_000, hourlyrateTooBig: 10_000_000, values: null });
    expect(checkForm({ ...filled, name: ` ${'P'.repeat(200)} `, electricalpower: '1000000' }, 'add', 'de', lookup)).toMatchObject({ tooLong: {}, values: { electricalpower: 1_000_000 } });
  });

  it('an hourly rate shows its cents with two digits (85,50, not 85,5), whole euros bare', () => {
    expect([formatAmount(85.5, 'de'), formatAmount(85, 'de'), formatAmount(85.5, 'en'), formatAmount(0.1 + 0.2, 'de'), formatAmount(null, 'de')]).toEqual(['85,50', '85', '85.50', '0,30', '']);
  });

  it('an import row with a too long name or a too big number names the column and the limit', () => {
    const { header: head, machineWith } = exported();
    const plan = planEquipmentImport([head, machineWith({ name: 'N'.repeat(201), electricalpower: '2000000', width: '99999999999' })], mirror(), 'de', headerNames, NOW);
    expect(plan.rows[0]).toMatchObject({ action: 'error' });
    expect(plan.rows[0]!.errors).toEqual(
      expect.arrayContaining([
        { code: 'tooLong', column: 'name', max: 200 },
        { code: 'tooBig', column: 'electricalpower', value: '2000000', max: 1_000_000 },
        { code: 'aboveMaximum', column: 'width', value: '99999999999' },
      ]),
    );
  });

  it('goes to the plant after adding to an area without a pool, else to /machines', () => {
    expect(pathAfterSave({ areanodeid: ids.area, sitenodeid: ids.site, equipmentpoolnodeid: null }, 'add')).toBe(`/sites?sitenodeid=${ids.site}`);
    expect(pathAfterSave({ areanodeid: ids.area, sitenodeid: ids.site, equipmentpoolnodeid: ids.pool }, 'add')).toBe('/machines');
    expect(pathAfterSave({ areanodeid: ids.area, sitenodeid: ids.site, equipmentpoolnodeid: null }, 'edit')).toBe('/machines');
  });
});
