import { describe, expect, it } from 'vitest';
import { canCreateEquipment, countEquipment } from '../../src/client/features/dashboard/structure-stats';
import { buildArea, buildEquipmentSummary, buildPoolNode, buildSiteNode, buildStructureTree } from '../factories/structure-tree';

describe('dashboard onboarding: the equipment card (spec part 2 §1)', () => {
  it('is disabled for an empty organisation and for plants without areas', () => {
    expect(canCreateEquipment(buildStructureTree())).toBe(false);
    expect(canCreateEquipment(buildStructureTree({ sites: [buildSiteNode()] }))).toBe(false);
  });

  it('is enabled once an area or a pool exists', () => {
    expect(canCreateEquipment(buildStructureTree({ sites: [buildSiteNode({ areas: [buildArea()] })] }))).toBe(true);
    expect(canCreateEquipment(buildStructureTree({ equipmentpools: [buildPoolNode()] }))).toBe(true);
  });
});

describe('countEquipment', () => {
  it('counts a machine that is in an area and in a pool once', () => {
    const press = buildEquipmentSummary();
    const truck = buildEquipmentSummary({ name: 'Gabelstapler' });
    const tree = buildStructureTree({
      sites: [buildSiteNode({ areas: [buildArea({ equipment: [press] })] })],
      equipmentpools: [buildPoolNode({ equipment: [press, truck] })],
      unlinked: [buildEquipmentSummary({ name: 'Palettenhubwagen' })],
    });
    expect(countEquipment(tree)).toBe(3);
  });
});
