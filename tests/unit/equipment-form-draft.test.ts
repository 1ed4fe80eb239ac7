import { describe, expect, it } from 'vitest';
import { emptyFormState, equipmentDraftKey, equipmentDraftOf, isEquipmentFormDraft, EQUIPMENT_DRAFT_KIND, type EquipmentFormDraft, type EquipmentFormState } from '../../src/client/features/equipment/equipment-form-model';
import { readKeptDraft, writeKeptDraft } from '../../src/client/stores/kept-drafts';
import { useMemoryLocalStorage } from './support/memory-storage';

// The equipment form keeps its unsaved input like the shorter forms do: an admin's thirty fields are not lost to a
// reload or a tap on the navigation.
describe('equipment form: the kept draft', () => {
  const start = emptyFormState();
  const typed: EquipmentFormState = { ...start, name: 'Abkantpresse', equipmentid: 'AKP-01', dimensions: ['3100,5', '', ''], commissioningyear: 2019, shifts: [{ start: '06:00', end: '14:00', weekdays: [1, 2], unmanned: false }] };

  it('a form as it was opened keeps no draft; any change does, with what it was opened with', () => {
    expect(equipmentDraftOf(emptyFormState(), start, { newId: 'n1', base: null, baseShifts: null })).toBeNull();
    expect(equipmentDraftOf(typed, start, { newId: 'n1', base: null, baseShifts: null })).toEqual({ form: typed, start, newId: 'n1', base: null, baseShifts: null });
    // Typed and deleted again is back to the start: nothing to keep.
    expect(equipmentDraftOf({ ...start, name: '' }, start, { newId: 'n1', base: null, baseShifts: null })).toBeNull();
  });

  it('an add draft is one per user, an edit draft one per machine', () => {
    expect(equipmentDraftKey('add', null)).toBe('new');
    expect(equipmentDraftKey('edit', 'machine-1')).toBe('machine-1');
  });

  it('takes back only a draft of the current shape', () => {
    const draft: EquipmentFormDraft = { form: typed, start, newId: null, base: { nodeid: 'machine-1', name: 'Presse' }, baseShifts: [] };
    expect(isEquipmentFormDraft(draft)).toBe(true);
    expect(isEquipmentFormDraft(JSON.parse(JSON.stringify(draft)))).toBe(true);
    expect(isEquipmentFormDraft(null)).toBe(false);
    expect(isEquipmentFormDraft({ ...draft, form: { name: 'Presse' } })).toBe(false);
    expect(isEquipmentFormDraft({ ...draft, form: { ...typed, dimensions: '3100' } })).toBe(false);
    expect(isEquipmentFormDraft({ ...draft, start: undefined })).toBe(false);
    expect(isEquipmentFormDraft({ ...draft, newId: 7 })).toBe(false);
    expect(isEquipmentFormDraft({ ...draft, base: { name: 'no id' } })).toBe(false);
  });

  describe('through the browser storage', () => {
    useMemoryLocalStorage();

    it('a kept draft comes back whole for the same user only', () => {
      const draft: EquipmentFormDraft = { form: typed, start, newId: 'new-machine-id', base: null, baseShifts: null };
      writeKeptDraft(EQUIPMENT_DRAFT_KIND, 'user-1', 'new', draft, 1_000);
      expect(readKeptDraft(EQUIPMENT_DRAFT_KIND, 'user-1', 'new', isEquipmentFormDraft, 2_000)).toEqual({ value: draft, savedAt: 1_000 });
      expect(readKeptDraft(EQUIPMENT_DRAFT_KIND, 'user-2', 'new', isEquipmentFormDraft, 2_000)).toBeNull();
    });
  });
});
