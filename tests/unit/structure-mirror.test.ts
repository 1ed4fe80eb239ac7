import { describe, expect, it } from 'vitest';
import { structureTreeFromRows } from '../../src/client/sync/structure-mirror';

const site = { nodeid: 's1', name: 'Werk Stuttgart', street: 'Siemensstraße 42', siteid: null, zipcode: '70469', city: 'Stuttgart', country: 'DE' };
const rows = {
  sites: [site, { ...site, nodeid: 's0', name: 'Werk Chemnitz' }],
  areas: [
    { nodeid: 'a2', name: 'Halle 2', sitenodeid: 's1' },
    { nodeid: 'a1', name: 'Halle 1', sitenodeid: 's1' },
  ],
  equipmentpools: [{ nodeid: 'p1', name: { de: 'Flurförderzeuge', en: 'Industrial trucks' } }],
  brands: [{ nodeid: 'b1', name: 'Jungheinrich' }],
  equipmenttypes: [{ nodeid: 't1', model: 'EFG 316', brandnodeid: 'b1' }],
  equipment: [
    { nodeid: 'e1', name: 'Stapler 1', equipmentid: 'EQ-1', inventoryid: null, areanodeid: 'a1', equipmentpoolnodeid: 'p1', equipmenttypenodeid: 't1' },
    { nodeid: 'e2', name: 'Palettenhubwagen', equipmentid: null, inventoryid: null, areanodeid: null, equipmentpoolnodeid: null, equipmenttypenodeid: 't1' },
  ],
};

describe('structure tree from the local mirror', () => {
  it('has the API shape: sorted sites and areas, machines with brand and model, pools by language, unlinked machines', () => {
    const tree = structureTreeFromRows(rows, 'en');
    expect(tree.sites.map((s) => s.name)).toEqual(['Werk Chemnitz', 'Werk Stuttgart']);
    expect(tree.sites[1]!.areas.map((a) => a.name)).toEqual(['Halle 1', 'Halle 2']);
    expect(tree.sites[1]!.areas[0]!.equipment).toEqual([{ nodeid: 'e1', name: 'Stapler 1', equipmentid: 'EQ-1', inventoryid: null, brand: 'Jungheinrich', model: 'EFG 316', imageurl: null }]);
    expect(tree.equipmentpools).toEqual([{ nodeid: 'p1', name: 'Industrial trucks', equipment: [expect.objectContaining({ nodeid: 'e1' })] }]);
    expect(tree.unlinked.map((e) => e.nodeid)).toEqual(['e2']);
    expect(structureTreeFromRows(rows, 'de').equipmentpools[0]!.name).toBe('Flurförderzeuge');
  });
});
