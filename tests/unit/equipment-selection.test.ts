import { beforeAll, describe, expect, it } from 'vitest';
import { highlightParts, matchesSearch, membersOf, selectionChanges, selectionCount, selectionList, type SelectableEquipment } from '../../src/client/features/structure/equipment-selection';
import { i18n, initI18n, loadAppTexts } from '../../src/client/lib/i18n';

const machine = (overrides: Partial<SelectableEquipment> & Pick<SelectableEquipment, 'nodeid' | 'name'>): SelectableEquipment => ({
  equipmentid: null,
  brand: null,
  model: null,
  areanodeid: null,
  equipmentpoolnodeid: null,
  location: null,
  ...overrides,
});

const press = machine({ nodeid: 'p', name: 'Presse 3', equipmentid: 'CHE-PRS-03', brand: 'Schuler', model: 'MSP 400', areanodeid: 'a1' });
const drill = machine({ nodeid: 'd', name: 'Bohrwerk', equipmentid: 'CHE-BOH-01', brand: 'Union', model: 'PCR 130', equipmentpoolnodeid: 'pool' });
const loose = machine({ nodeid: 'l', name: 'Akkuschrauber', equipmentid: 'MOB-07', brand: 'Bosch', model: 'GSR 18V' });
const all = [press, drill, loose];

describe('equipment selection search', () => {
  it.each([
    ['presse', ['p']], // name, any case
    ['prs-03', ['p']], // equipment ID
    ['BOSCH', ['l']], // brand
    ['pcr', ['d']], // type
    ['che-', ['p', 'd']],
    ['  ', ['p', 'd', 'l']], // blank = everything
    ['nichts', []],
  ])('%j finds %j', (query, expected) => {
    expect(all.filter((item) => matchesSearch(item, query)).map((item) => item.nodeid)).toEqual(expected);
  });

  it('marks every occurrence, keeping the original letters', () => {
    expect(highlightParts('Presse Pressluft', 'PRES')).toEqual([
      { text: 'Pres', match: true },
      { text: 'se ', match: false },
      { text: 'Pres', match: true },
      { text: 'sluft', match: false },
    ]);
    expect(highlightParts('Bohrwerk', '')).toEqual([{ text: 'Bohrwerk', match: false }]);
    expect(highlightParts('Bohrwerk', 'xyz')).toEqual([{ text: 'Bohrwerk', match: false }]);
  });

  it('lists linked machines first and the unlinked ones apart, by name', () => {
    const list = selectionList(all, '');
    expect(list.linked.map((item) => item.nodeid)).toEqual(['d', 'p']);
    expect(list.unlinked.map((item) => item.nodeid)).toEqual(['l']);
    expect(selectionList(all, 'bosch')).toEqual({ linked: [], unlinked: [loose] });
  });
});

describe('selection count line (part 2 §2.6)', () => {
  initI18n('de');
  // The equipment selection's texts are beyond the shell's (as for its screen, router.tsx).
  beforeAll(() => loadAppTexts());
  const line = (listed: number, selected: number, query: string) => {
    const count = selectionCount(listed, selected, query);
    return i18n.t(count.key, count.values);
  };

  it.each([
    [3, 1, '', '3 Einträge - 1 ausgewählt'],
    [0, 0, '   ', '0 Einträge - 0 ausgewählt'],
    [2, 1, 'che', '2 Suchergebnisse – 1 ausgewählt'],
    [1, 1, 'che', '1 Suchergebnis – 1 ausgewählt'],
    [1, 0, '', '1 Eintrag - 0 ausgewählt'],
  ])('%i listed, %i selected, query %j → %j', (listed, selected, query, expected) => {
    expect(line(listed, selected, query)).toBe(expected);
  });
});

describe('moving semantics (part 2 §4)', () => {
  it('finds the members of an area or a pool', () => {
    expect(membersOf(all, 'area', 'a1')).toEqual(['p']);
    expect(membersOf(all, 'pool', 'pool')).toEqual(['d']);
    expect(membersOf(all, 'area', undefined)).toEqual([]);
  });

  it('newly checked machines are added, unchecked ones removed, the rest untouched', () => {
    expect(selectionChanges(['p', 'd'], ['d', 'l'])).toEqual({ added: ['l'], removed: ['p'] });
    expect(selectionChanges(['p'], ['p'])).toEqual({ added: [], removed: [] });
  });
});
