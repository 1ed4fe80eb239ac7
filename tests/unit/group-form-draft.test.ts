import { describe, expect, it } from 'vitest';
import type { ShiftEditorRow } from '../../src/client/components/shift-editor';
import { knownMachines, type SelectableEquipment } from '../../src/client/features/structure/equipment-selection';
import { AREA_DRAFT_KIND, emptyGroupForm, GROUP_FORM_MODEL, groupDraftKey, type GroupFormValues } from '../../src/client/features/structure/group-form-draft';
import { readKeptDraft, writeKeptDraft } from '../../src/client/stores/kept-drafts';
import { formDraftOf, formStart, isFormDraft, type FormDraft } from '../../src/client/stores/kept-form';
import { useMemoryLocalStorage } from './support/memory-storage';

// The area and pool forms keep a name, a selection of machines and a shift plan like the text forms keep text: an
// admin's forty checked machines are not lost to a reload or a tap on the navigation.
describe('area and pool forms: the kept draft', () => {
  const early: ShiftEditorRow = { key: 'shift-1', start: '06:00', end: '14:00', weekdays: [1, 2, 3], unmanned: false };
  const filled: GroupFormValues = { sitenodeid: 'site-1', name: 'Halle 1', selected: ['m1', 'm2'], shifts: [early] };
  const isDraft = (value: unknown): value is FormDraft<GroupFormValues> => isFormDraft(value, GROUP_FORM_MODEL);

  it('an add form with only a plant chosen keeps nothing; a name or a machine checked does', () => {
    expect(formDraftOf(GROUP_FORM_MODEL, emptyGroupForm('site-1'), null)).toBeNull();
    expect(formDraftOf(GROUP_FORM_MODEL, { ...emptyGroupForm('site-1'), name: '   ' }, null)).toBeNull();
    expect(formDraftOf(GROUP_FORM_MODEL, { ...emptyGroupForm(), name: 'Lager' }, null)).toMatchObject({ name: 'Lager', base: null });
    expect(formDraftOf(GROUP_FORM_MODEL, { ...emptyGroupForm(), selected: ['m3'] }, null)).toMatchObject({ selected: ['m3'], base: null });
  });

  it('an edit form back at what it was filled with keeps nothing, whatever the order of the checked machines', () => {
    expect(formDraftOf(GROUP_FORM_MODEL, { ...filled, selected: ['m2', 'm1'] }, filled)).toBeNull();
    // A shift's weekdays clicked off and on again come back in another order: still the same plan.
    expect(formDraftOf(GROUP_FORM_MODEL, { ...filled, shifts: [{ ...early, key: 'shift-9', weekdays: [3, 1, 2] }] }, filled)).toBeNull();
  });

  it('an edit keeps the values it was filled with, so a save still sends only what the user changed', () => {
    const renamed = { ...filled, name: 'Halle 1 Nord' };
    expect(formDraftOf(GROUP_FORM_MODEL, renamed, filled)).toMatchObject({ name: 'Halle 1 Nord', base: filled });
    expect(formDraftOf(GROUP_FORM_MODEL, { ...filled, selected: ['m1'] }, filled)).toMatchObject({ selected: ['m1'], base: filled });
    expect(formDraftOf(GROUP_FORM_MODEL, { ...filled, shifts: [] }, filled)).toMatchObject({ shifts: [], base: filled });
    expect(formDraftOf(GROUP_FORM_MODEL, { ...filled, shifts: [{ ...early, unmanned: true }] }, filled)).not.toBeNull();
  });

  it('taken back, a draft opens with its values and its base; one of the other mode is not taken', () => {
    const draft = formDraftOf(GROUP_FORM_MODEL, { ...filled, name: 'Halle 1 Nord' }, filled)!;
    const colleagueRenamed = { ...filled, name: 'Halle Eins' };
    const start = formStart(GROUP_FORM_MODEL, emptyGroupForm(), colleagueRenamed, draft);
    expect(start).toMatchObject({ initial: filled, values: { name: 'Halle 1 Nord', selected: ['m1', 'm2'] }, taken: true });
    const addDraft = formDraftOf(GROUP_FORM_MODEL, { ...emptyGroupForm(), name: 'Lager' }, null)!;
    expect(formStart(GROUP_FORM_MODEL, emptyGroupForm(), filled, addDraft)).toEqual({ initial: filled, values: filled, taken: false });
    expect(formStart(GROUP_FORM_MODEL, emptyGroupForm('site-2'), null, null)).toEqual({ initial: null, values: emptyGroupForm('site-2'), taken: false });
  });

  it('shift rows taken back get fresh keys (the editor counts keys from 1 again after a reload)', () => {
    const draft = formDraftOf(GROUP_FORM_MODEL, { ...filled, name: 'x' }, filled)!;
    const values = formStart(GROUP_FORM_MODEL, emptyGroupForm(), filled, draft).values;
    expect(values.shifts).toHaveLength(1);
    expect(values.shifts[0]).toMatchObject({ start: '06:00', end: '14:00', weekdays: [1, 2, 3], unmanned: false });
    expect(values.shifts[0]!.key).not.toBe('shift-1');
  });

  it('takes back only a draft of the current shape', () => {
    const draft = formDraftOf(GROUP_FORM_MODEL, { ...filled, name: 'x' }, filled)!;
    expect(isDraft(JSON.parse(JSON.stringify(draft)))).toBe(true);
    expect(isDraft({ ...draft, base: null })).toBe(true);
    expect(isDraft(null)).toBe(false);
    expect(isDraft({ ...draft, selected: 'm1' })).toBe(false);
    expect(isDraft({ ...draft, selected: [1] })).toBe(false);
    expect(isDraft({ ...draft, shifts: [{ start: '06:00', end: '14:00', weekdays: [1] }] })).toBe(false);
    expect(isDraft({ ...draft, shifts: [{ ...early, weekdays: [8] }] })).toBe(false);
    expect(isDraft({ ...draft, sitenodeid: undefined })).toBe(false);
    expect(isDraft({ ...draft, base: { name: 'no selection' } })).toBe(false);
  });

  it('an add draft is one per user (an area: per plant), an edit draft one per record', () => {
    expect(groupDraftKey(null)).toBe('new');
    expect(groupDraftKey(null, 'site-1')).toBe('new:site-1');
    expect(groupDraftKey('area-1', 'site-1')).toBe('area-1');
  });

  it('a machine deleted since the draft was kept is no longer selected', () => {
    const machine = (nodeid: string): SelectableEquipment => ({ nodeid, name: nodeid, equipmentid: null, brand: null, model: null, areanodeid: null, equipmentpoolnodeid: null, location: null });
    expect(knownMachines(['m1', 'gone', 'm2'], [machine('m2'), machine('m1')])).toEqual(['m1', 'm2']);
  });

  describe('through the browser storage', () => {
    useMemoryLocalStorage();

    it('a kept draft comes back whole for the same user only', () => {
      const draft = formDraftOf(GROUP_FORM_MODEL, { ...filled, selected: ['m1', 'm3'] }, filled)!;
      writeKeptDraft(AREA_DRAFT_KIND, 'user-1', 'area-1', draft, 1_000);
      expect(readKeptDraft(AREA_DRAFT_KIND, 'user-1', 'area-1', isDraft, 2_000)).toEqual({ value: draft, savedAt: 1_000 });
      expect(readKeptDraft(AREA_DRAFT_KIND, 'user-2', 'area-1', isDraft, 2_000)).toBeNull();
    });
  });
});
