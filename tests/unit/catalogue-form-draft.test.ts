import { describe, expect, it } from 'vitest';
import { BRAND_DRAFT_KIND, BRAND_FORM_MODEL, CLASS_FORM_MODEL, EMPTY_BRAND_FORM, type BrandFormValues, type ClassFormValues } from '../../src/client/features/equipment/catalogue-form-draft';
import { readKeptDraft, writeKeptDraft } from '../../src/client/stores/kept-drafts';
import { formDraftOf, formStart, isFormDraft, recordDraftKey, type FormDraft } from '../../src/client/stores/kept-form';
import { useMemoryLocalStorage } from './support/memory-storage';

// The brand and class forms keep what was entered like every other form that writes a record: a brand named and
// given a new manufacturer is not lost to a reload or a tap on the navigation.
describe('brand form: the kept draft', () => {
  const filled: BrandFormValues = { name: 'Trumpf', manufacturer: { isnew: false, nodeid: 'maker-1' } };
  const isDraft = (value: unknown): value is FormDraft<BrandFormValues> => isFormDraft(value, BRAND_FORM_MODEL);

  it('an add form keeps nothing until a name is typed or a manufacturer chosen', () => {
    expect(formDraftOf(BRAND_FORM_MODEL, EMPTY_BRAND_FORM, null)).toBeNull();
    expect(formDraftOf(BRAND_FORM_MODEL, { ...EMPTY_BRAND_FORM, name: '  ' }, null)).toBeNull();
    expect(formDraftOf(BRAND_FORM_MODEL, { ...EMPTY_BRAND_FORM, name: 'Amada' }, null)).toMatchObject({ name: 'Amada', base: null });
    const newMaker = { isnew: true, nodeid: 'maker-new', name: 'Amada Ltd' };
    expect(formDraftOf(BRAND_FORM_MODEL, { ...EMPTY_BRAND_FORM, manufacturer: newMaker }, null)).toMatchObject({ manufacturer: newMaker, base: null });
  });

  it('an edit back at what it was filled with keeps nothing; another name or manufacturer is kept with its base', () => {
    expect(formDraftOf(BRAND_FORM_MODEL, { name: 'Trumpf', manufacturer: { isnew: false, nodeid: 'maker-1' } }, filled)).toBeNull();
    expect(formDraftOf(BRAND_FORM_MODEL, { ...filled, name: 'Trumpf Laser' }, filled)).toMatchObject({ name: 'Trumpf Laser', base: filled });
    expect(formDraftOf(BRAND_FORM_MODEL, { ...filled, manufacturer: { isnew: false, nodeid: 'maker-2' } }, filled)).not.toBeNull();
    expect(formDraftOf(BRAND_FORM_MODEL, { ...filled, manufacturer: null }, filled)).not.toBeNull();
    // A new manufacturer is told apart by its name, not by the id the picker made up for it.
    const a = { ...filled, manufacturer: { isnew: true, nodeid: 'x', name: 'Neu' } };
    expect(formDraftOf(BRAND_FORM_MODEL, { ...filled, manufacturer: { isnew: true, nodeid: 'y', name: 'Neu' } }, a)).toBeNull();
    expect(formDraftOf(BRAND_FORM_MODEL, { ...filled, manufacturer: { isnew: true, nodeid: 'x', name: 'Neuer' } }, a)).not.toBeNull();
  });

  it('taken back, an edit draft opens with its values and what the form was filled with; an add draft does not open an edit', () => {
    const draft = formDraftOf(BRAND_FORM_MODEL, { ...filled, name: 'Trumpf Laser' }, filled)!;
    const colleagueMoved = { ...filled, manufacturer: { isnew: false, nodeid: 'maker-2' } };
    expect(formStart(BRAND_FORM_MODEL, EMPTY_BRAND_FORM, colleagueMoved, draft)).toEqual({ initial: filled, values: { ...filled, name: 'Trumpf Laser' }, taken: true });
    const addDraft = formDraftOf(BRAND_FORM_MODEL, { ...EMPTY_BRAND_FORM, name: 'Amada' }, null)!;
    expect(formStart(BRAND_FORM_MODEL, EMPTY_BRAND_FORM, filled, addDraft)).toEqual({ initial: filled, values: filled, taken: false });
  });

  it('takes back only a draft of the current shape', () => {
    const draft = formDraftOf(BRAND_FORM_MODEL, { ...filled, name: 'x' }, filled)!;
    expect(isDraft(JSON.parse(JSON.stringify(draft)))).toBe(true);
    expect(isDraft({ name: 'x', manufacturer: null, base: null })).toBe(true);
    expect(isDraft({ name: 'x', base: null })).toBe(false);
    expect(isDraft({ name: 1, manufacturer: null, base: null })).toBe(false);
    expect(isDraft({ name: 'x', manufacturer: { nodeid: 'm' }, base: null })).toBe(false);
    expect(isDraft({ name: 'x', manufacturer: { isnew: true, nodeid: 'm', name: 3 }, base: null })).toBe(false);
    expect(isDraft({ ...draft, base: { name: 'no manufacturer field' } })).toBe(false);
  });

  it('one draft per brand, one for a new brand, per user', () => {
    expect(recordDraftKey(null)).toBe('new');
    expect(recordDraftKey('brand-1')).toBe('brand-1');
  });

  describe('through the browser storage', () => {
    useMemoryLocalStorage();

    it('a kept draft comes back whole for the same user only', () => {
      const draft = formDraftOf(BRAND_FORM_MODEL, { name: 'Amada', manufacturer: { isnew: true, nodeid: 'maker-new', name: 'Amada Ltd' } }, null)!;
      writeKeptDraft(BRAND_DRAFT_KIND, 'user-1', 'new', draft, 1_000);
      expect(readKeptDraft(BRAND_DRAFT_KIND, 'user-1', 'new', isDraft, 2_000)).toEqual({ value: draft, savedAt: 1_000 });
      expect(readKeptDraft(BRAND_DRAFT_KIND, 'user-2', 'new', isDraft, 2_000)).toBeNull();
    });
  });
});

describe('equipment class form: the kept draft', () => {
  const filled: ClassFormValues = { name: 'Pressen', lang: 'de' };
  const isDraft = (value: unknown): value is FormDraft<ClassFormValues> => isFormDraft(value, CLASS_FORM_MODEL);

  it('keeps a typed name with the language it was typed in', () => {
    expect(formDraftOf(CLASS_FORM_MODEL, { name: ' ', lang: 'en' }, null)).toBeNull();
    expect(formDraftOf(CLASS_FORM_MODEL, { name: 'Presses', lang: 'en' }, null)).toEqual({ name: 'Presses', lang: 'en', base: null });
    expect(formDraftOf(CLASS_FORM_MODEL, filled, filled)).toBeNull();
    expect(formDraftOf(CLASS_FORM_MODEL, { ...filled, name: 'Pressen groß' }, filled)).toEqual({ name: 'Pressen groß', lang: 'de', base: filled });
  });

  it('takes back only a draft of the current shape and a known language', () => {
    expect(isDraft({ name: 'x', lang: 'de', base: null })).toBe(true);
    expect(isDraft({ name: 'x', lang: 'fr', base: null })).toBe(false);
    expect(isDraft({ name: 'x', base: null })).toBe(false);
    expect(isDraft({ name: 'x', lang: 'de', base: { name: 'y' } })).toBe(false);
  });
});
