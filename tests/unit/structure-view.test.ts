/**
 * The structure screens' lists (/sites, /machines, the selection dialog) order machines as people count:
 * an admin who imported "Drehbank 1" … "Drehbank 30" saw "Drehbank 1, Drehbank 11, …, Drehbank 2", and the
 * machines of a deleted area ('Nicht verknüpfte Geräte') in the order they were created.
 */
import { describe, expect, it } from 'vitest';
import type { MirrorRow } from '../../src/client/db/local-db';
import { selectionList } from '../../src/client/features/structure/equipment-selection';
import { poolViews, selectableEquipment, siteViews } from '../../src/client/features/structure/structure-view';
import type { StructureData } from '../../src/client/sync/use-structure-data';

const row = (nodeid: string, fields: Record<string, unknown>) => ({ nodeid, version: 1, ...fields }) as unknown as MirrorRow;

function data(): StructureData {
  const names = ['Drehbank 10', 'Drehbank 2', 'Drehbank 1', 'Drehbank 11'];
  return {
    synced: true,
    sites: [row('s', { name: 'Werk Görlitz' })],
    areas: [row('a', { name: 'Halle 1', sitenodeid: 's' })],
    equipmentpools: [row('p', { name: 'Pool' })],
    equipment: [
      ...names.map((name, index) => row(`a${index}`, { name, areanodeid: 'a' })),
      ...names.map((name, index) => row(`p${index}`, { name: `Säge ${name.split(' ')[1]}`, equipmentpoolnodeid: 'p' })),
      // The machines of a deleted area: linked to none.
      ...names.map((name, index) => row(`u${index}`, { name: `Fräse ${name.split(' ')[1]}`, areanodeid: null })),
    ],
    brands: [],
    equipmenttypes: [],
    shiftmodels: [],
    shifts: [],
    pendingShiftModels: new Set(),
  } as StructureData;
}

describe('structure lists order names as people count', () => {
  it('areas and pools list their machines 1, 2, 10, 11', () => {
    expect(siteViews(data(), 'de')[0]!.areas[0]!.equipment.map((machine) => machine.name)).toEqual(['Drehbank 1', 'Drehbank 2', 'Drehbank 10', 'Drehbank 11']);
    expect(poolViews(data(), 'de')[0]!.equipment.map((machine) => machine.name)).toEqual(['Säge 1', 'Säge 2', 'Säge 10', 'Säge 11']);
  });

  it("the unlinked machines (the machines screen's last section) are by name too, and so is the selection dialog", () => {
    const all = selectableEquipment(data(), 'de');
    expect(all.filter((machine) => !machine.areanodeid && !machine.equipmentpoolnodeid).map((machine) => machine.name)).toEqual(['Fräse 1', 'Fräse 2', 'Fräse 10', 'Fräse 11']);
    const { linked, unlinked } = selectionList(all, '');
    expect(linked.map((machine) => machine.name).slice(0, 4)).toEqual(['Drehbank 1', 'Drehbank 2', 'Drehbank 10', 'Drehbank 11']);
    expect(unlinked.map((machine) => machine.name)).toEqual(['Fräse 1', 'Fräse 2', 'Fräse 10', 'Fräse 11']);
  });
});
