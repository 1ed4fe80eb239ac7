import { describe, expect, it } from 'vitest';
import { buildMachineList, firstRowsOf, machineMatcher, rowCountOf } from '../../src/client/features/dashboard/machine-list-model';
import { rowBudget } from '../../src/client/lib/use-rows-in-steps';
import { buildArea, buildEquipmentSummary, buildPoolNode, buildSiteNode, buildStructureTree } from '../factories/structure-tree';

const press = buildEquipmentSummary({ name: 'PRE 01 Servopresse 400 t', equipmentid: 'STR-PRE-01' });
const mill = buildEquipmentSummary({ name: 'BAZ 02 Fräszentrum', equipmentid: 'STR-BAZ-02' });
const truck = buildEquipmentSummary({ name: 'Stapler 3', equipmentid: 'FFZ-03' });
const loose = buildEquipmentSummary({ name: 'Leihgerät Schweißen', equipmentid: null });
const tree = buildStructureTree({
  sites: [
    buildSiteNode({ name: 'Werk Stuttgart', areas: [buildArea({ name: 'Halle 1', equipment: [mill, press] }), buildArea({ name: 'Leer', equipment: [] })] }),
    buildSiteNode({ name: 'Werk Chemnitz', areas: [] }),
  ],
  // The press is in an area and a pool at once.
  equipmentpools: [buildPoolNode({ name: 'Flurförderzeuge', equipment: [truck, press] })],
  unlinked: [loose],
});

describe('machine list of the dashboard', () => {
  it('groups by plant → area and by pool, drops empty groups and counts a machine in two groups once', () => {
    const list = buildMachineList(tree, '');
    expect(list.sites.map((site) => [site.name, site.areas.map((area) => area.name)])).toEqual([['Werk Stuttgart', ['Halle 1']]]);
    expect(list.pools.map((pool) => pool.machines.map((m) => m.name))).toEqual([['Stapler 3', 'PRE 01 Servopresse 400 t']]);
    expect(list.unlinked).toEqual([loose]);
    expect(list.total).toBe(4);
  });

  it('finds machines by name or Equipment ID, every word, any case, accents ignored, ß as ss', () => {
    expect(buildMachineList(tree, 'fraszentrum').sites[0]!.areas[0]!.machines).toEqual([mill]);
    expect(buildMachineList(tree, 'str-pre').total).toBe(1);
    expect(buildMachineList(tree, '  presse   400 ').total).toBe(1);
    expect(buildMachineList(tree, 'presse 500').total).toBe(0);
    const pools = buildMachineList(tree, 'ffz');
    expect([pools.sites, pools.unlinked, pools.pools.map((p) => p.machines)]).toEqual([[], [], [[truck]]]);
    expect(buildMachineList(tree, 'SCHWEISSEN').unlinked).toEqual([loose]);
    expect(buildMachineList(tree, 'schweiß').unlinked).toEqual([loose]);
  });

  it('matches nothing on brand or inventory number alone', () => {
    const match = machineMatcher('Schuler');
    expect(match(buildEquipmentSummary({ name: 'X', equipmentid: 'Y', brand: 'Schuler', inventoryid: 'Schuler' }))).toBe(false);
  });

  it('cuts the first render after its first rows in the order shown, keeping each cut group\'s full count', () => {
    const list = buildMachineList(tree, '');
    // 2 rows in the area, 2 in the pool, 1 without a place: 5 rows for 4 machines.
    expect(firstRowsOf(list, 5)).toBe(list);
    const three = firstRowsOf(list, 3);
    expect(three.sites[0]!.areas[0]!.machines).toEqual([mill, press]);
    expect(three.pools.map((pool) => [pool.machines, pool.total])).toEqual([[[truck], 2]]);
    expect(three.unlinked).toEqual([]);
    expect(three.total).toBe(list.total);
    const one = firstRowsOf(list, 1);
    expect(one.sites[0]!.areas[0]!).toMatchObject({ machines: [mill], total: 2 });
    expect([one.pools, one.unlinked]).toEqual([[], []]);
  });

  it('counts the rows shown (a machine in an area and a pool is two rows), and every cut has at most that many', () => {
    const list = buildMachineList(tree, '');
    expect(rowCountOf(list)).toBe(5);
    for (let rows = 0; rows <= 6; rows += 1) expect(rowCountOf(firstRowsOf(list, rows))).toBe(Math.min(rows, 5));
  });
});

describe('a row budget over consecutive lists', () => {
  it('gives each list its share in call order, whole lists as they are, nothing once spent', () => {
    const take = rowBudget(5);
    const first = [1, 2];
    expect(take(first)).toBe(first);
    expect(take([3, 4, 5, 6])).toEqual([3, 4, 5]);
    expect(take([7])).toEqual([]);
    expect(rowBudget(0)([1])).toEqual([]);
  });
});
