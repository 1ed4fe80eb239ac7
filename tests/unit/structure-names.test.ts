/**
 * Plants, areas and pools of one name could not be told apart in the pickers, the plant list and the dashboard
 * (an admin saved a second "Werk Stuttgart" without a hint): the forms check the name against the fellow entries
 * as the brand and class forms do (`sameName`), and an edit that keeps the name it was filled with is not held up.
 */
import { describe, expect, it } from 'vitest';
import type { MirrorRow } from '../../src/client/db/local-db';
import { fellowNames } from '../../src/client/features/structure/structure-view';
import type { StructureData } from '../../src/client/sync/use-structure-data';
import { nameTaken } from '../../src/shared/domain/text';

const row = (nodeid: string, fields: Record<string, unknown>) => ({ nodeid, version: 1, ...fields }) as unknown as MirrorRow;

const data = {
  synced: true,
  sites: [row('s1', { name: 'Werk Stuttgart' }), row('s2', { name: { de: 'Werk Görlitz', en: 'Goerlitz plant' } })],
  areas: [row('a1', { name: 'Halle 1', sitenodeid: 's1' }), row('a2', { name: 'Halle 2', sitenodeid: 's1' }), row('a3', { name: 'Lager', sitenodeid: 's2' })],
  equipmentpools: [row('p1', { name: 'Leihgeräte' }), row('p2', { name: 'Messmittel' })],
  equipment: [],
  brands: [],
  equipmenttypes: [],
  shiftmodels: [],
  shifts: [],
  pendingShiftModels: new Set(),
} as StructureData;

describe('nameTaken', () => {
  it('finds the name of a fellow entry, case, surrounding and invisible characters aside', () => {
    expect(nameTaken(' werk stuttgart ', ['Werk Stuttgart'])).toBe(true);
    expect(nameTaken('Werk Stuttgart\u200B', ['Werk Stuttgart'])).toBe(true);
    expect(nameTaken('Werk Stuttgart 2', ['Werk Stuttgart'])).toBe(false);
  });

  it('accents count, as everywhere names are compared', () => {
    expect(nameTaken('Presse', ['Pressé'])).toBe(false);
  });

  it('an empty name is missing, not taken', () => {
    expect(nameTaken('  ', ['', '  '])).toBe(false);
  });

  it('an edit that keeps the name it was filled with is not held up by a duplicate that was there before', () => {
    expect(nameTaken('Werk Stuttgart', ['Werk Stuttgart'], 'Werk Stuttgart')).toBe(false);
    expect(nameTaken('werk stuttgart ', ['Werk Stuttgart'], 'Werk Stuttgart')).toBe(false);
    expect(nameTaken('Werk Görlitz', ['Werk Görlitz'], 'Werk Stuttgart')).toBe(true);
  });
});

describe('fellowNames', () => {
  it('plants: the other plants, in the UI language', () => {
    expect(fellowNames(data, 'de', { kind: 'site', nodeid: null })).toEqual(['Werk Stuttgart', 'Werk Görlitz']);
    expect(fellowNames(data, 'en', { kind: 'site', nodeid: 's1' })).toEqual(['Goerlitz plant']);
  });

  it('areas: only the other areas of the same plant (another plant may have a "Halle 1" too)', () => {
    expect(fellowNames(data, 'de', { kind: 'area', nodeid: null, sitenodeid: 's1' })).toEqual(['Halle 1', 'Halle 2']);
    expect(fellowNames(data, 'de', { kind: 'area', nodeid: 'a1', sitenodeid: 's1' })).toEqual(['Halle 2']);
    expect(nameTaken('Halle 1', fellowNames(data, 'de', { kind: 'area', nodeid: null, sitenodeid: 's2' }))).toBe(false);
  });

  it('pools: the other pools', () => {
    expect(fellowNames(data, 'de', { kind: 'pool', nodeid: 'p2' })).toEqual(['Leihgeräte']);
  });
});
