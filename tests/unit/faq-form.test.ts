/**
 * The FAQ rules both the form and the outbox use: the declarations' schemas and `apply` (spec part 1 §7), the
 * form's navigation state and return targets (§2.3), and which files the FAQ uploader takes (§5).
 */
import { describe, expect, it } from 'vitest';
import { createFaq, deleteFaq, updateFaq } from '../../src/shared/mutations/faqs';
import { MutationInputError, parseMutation } from '../../src/shared/mutations/mutation';
import { addMachineFaqState, addTypeFaqState, editFaqState, faqReturnPath, faqReturnState, resolveFaqForm, typeScreenMachine, typeScreenState } from '../../src/client/lib/faq-navigation';
import { canSaveFaq } from '../../src/client/features/faq/faq-form-model';

const MACHINE = '0190a1b2-0000-7000-8000-000000000001';
const TYPE = '0190a1b2-0000-7000-8000-000000000002';
const FAQ = '0190a1b2-0000-7000-8000-000000000003';
const USER = '0190a1b2-0000-7000-8000-000000000004';
const context = { now: 1_700_000_000_000, usernodeid: USER };

describe('FAQ declarations', () => {
  it('createFaq puts a machine FAQ on the machine and a type FAQ on the type, with the user as author', () => {
    const onMachine = parseMutation(createFaq, { params: {}, body: { nodeid: FAQ, question: ' Ölwechsel? ', answer: 'Alle 500 h.', isfaqof: MACHINE } });
    expect(createFaq.apply!(undefined, onMachine, context)).toEqual({ question: 'Ölwechsel?', answer: 'Alle 500 h.', specifier: 'internalfaq', equipmentnodeid: MACHINE, equipmenttypenodeid: null, authornodeid: USER });
    const onType = parseMutation(createFaq, { params: {}, body: { nodeid: FAQ, question: 'Ölwechsel?', answer: '   ', isfaqof: TYPE, specifier: 'equipmenttypefaq' } });
    expect(createFaq.apply!(undefined, onType, context)).toMatchObject({ answer: null, equipmentnodeid: null, equipmenttypenodeid: TYPE });
    expect(createFaq.target(onType)).toBe(FAQ);
  });

  it('refuses an empty question, an unknown specifier and a create without the device-made id, naming the field', () => {
    const refused = (input: Parameters<typeof parseMutation<typeof createFaq>>[1]) => {
      try {
        parseMutation(createFaq, input);
      } catch (error) {
        expect(error).toBeInstanceOf(MutationInputError);
        return Object.keys((error as MutationInputError).fieldErrors());
      }
      return [];
    };
    expect(refused({ params: {}, body: { nodeid: FAQ, question: '  ', isfaqof: MACHINE } })).toEqual(['question']);
    expect(refused({ params: {}, body: { nodeid: FAQ, question: 'Frage', isfaqof: MACHINE, specifier: 'externalfaq' as 'internalfaq' } })).toEqual(['specifier']);
    expect(() => createFaq.target(parseMutation(createFaq, { params: {}, body: { question: 'Frage', isfaqof: MACHINE } }))).toThrow(/nodeid/);
  });

  it('updateFaq changes only the fields sent; an empty answer unsets it, a missing one leaves it', () => {
    const only = (body: Record<string, unknown>) => updateFaq.apply!({ nodeid: FAQ, question: 'Alt', answer: 'Alt' }, parseMutation(updateFaq, { params: { id: FAQ }, body }), context);
    expect(only({ question: 'Neu' })).toEqual({ question: 'Neu' });
    expect(only({ answer: '' })).toEqual({ answer: null });
    expect(only({ answer: null })).toEqual({ answer: null });
    expect(only({})).toEqual({});
    expect(() => parseMutation(updateFaq, { params: { id: FAQ }, body: { question: '' } })).toThrow(MutationInputError);
  });

  it('need equipment.faq create, update and delete', () => {
    expect([createFaq, updateFaq, deleteFaq].map((definition) => definition.permission)).toEqual([
      { feature: 'equipment.faq', flag: 'create' },
      { feature: 'equipment.faq', flag: 'update' },
      { feature: 'equipment.faq', flag: 'delete' },
    ]);
  });
});

describe('FAQ form navigation (§2.3)', () => {
  it('the tab opens add with the spec state (from faq, pageType add, specifier internalfaq, equipmentnodeid)', () => {
    expect(addMachineFaqState(MACHINE)).toEqual({ from: 'faq', pageType: 'add', specifier: 'internalfaq', equipmentnodeid: MACHINE });
    const target = resolveFaqForm(addMachineFaqState(MACHINE));
    expect(target).toMatchObject({ mode: 'add', origin: 'faq', isfaqof: MACHINE, faqnodeid: null });
    expect(faqReturnPath(target!)).toBe(`/machine-overview?nodeid=${MACHINE}&tab=3`);
  });

  it('origin faqMB adds to the type and returns to /equipmenttype-overview?nodeid=…&tab=2', () => {
    const target = resolveFaqForm(addTypeFaqState(TYPE));
    expect(target).toMatchObject({ mode: 'add', origin: 'faqMB', specifier: 'equipmenttypefaq', isfaqof: TYPE });
    expect(faqReturnPath(target!)).toBe(`/equipmenttype-overview?nodeid=${TYPE}&tab=2`);
  });

  it('the type overview opened from a machine keeps leading back to it after the form (add, edit, save or cancel)', () => {
    expect(typeScreenMachine(typeScreenState(MACHINE))).toBe(MACHINE);
    expect(typeScreenMachine(null)).toBeNull();
    for (const state of [addTypeFaqState(TYPE, MACHINE), editFaqState({ nodeid: FAQ, specifier: 'equipmenttypefaq' }, { equipmenttypenodeid: TYPE, machine: MACHINE })]) {
      const target = resolveFaqForm(state)!;
      // Still the type's FAQ, added to the type and returning to it, not to the machine.
      expect(target).toMatchObject({ origin: 'faqMB', returnTo: { kind: 'equipmenttypes', nodeid: TYPE, machine: MACHINE } });
      if (target.mode === 'add') expect(target.isfaqof).toBe(TYPE);
      expect(faqReturnPath(target)).toBe(`/equipmenttype-overview?nodeid=${TYPE}&tab=2`);
      expect(typeScreenMachine(faqReturnState(target))).toBe(MACHINE);
    }
    // Opened without a machine (a link, a typed URL): the form returns to the type with nothing to lead further back to.
    expect(faqReturnState(resolveFaqForm(addTypeFaqState(TYPE))!)).toBeUndefined();
    expect(faqReturnState(resolveFaqForm(addMachineFaqState(MACHINE))!)).toBeUndefined();
  });

  it('a FAQ named in the state is edited; a type FAQ edited from a machine returns to that machine', () => {
    const target = resolveFaqForm(editFaqState({ nodeid: FAQ, specifier: 'equipmenttypefaq' }, { equipmentnodeid: MACHINE }));
    expect(target).toMatchObject({ mode: 'edit', origin: 'faq', faqnodeid: FAQ, isfaqof: null });
    expect(faqReturnPath(target!)).toBe(`/machine-overview?nodeid=${MACHINE}&tab=3`);
  });

  it('no usable state (typed URL, reload of an old entry, missing owner) is null, not a form for nothing', () => {
    expect(resolveFaqForm(null)).toBeNull();
    expect(resolveFaqForm({ from: 'notification', specifier: 'internalfaq', equipmentnodeid: MACHINE })).toBeNull();
    expect(resolveFaqForm({ from: 'faq', specifier: 'internalfaq' })).toBeNull();
    expect(resolveFaqForm({ from: 'faqMB', specifier: 'equipmenttypefaq', equipmentnodeid: MACHINE })).toBeNull();
    expect(resolveFaqForm({ from: 'faq', specifier: 'equipmenttypefaq', equipmentnodeid: MACHINE })).toBeNull();
  });
});


describe('FAQ save button', () => {
  const values = { question: 'Frage', answer: '' };
  it('needs a question and is off while saving', () => {
    expect(canSaveFaq(values, { saving: false, initial: null, newFiles: 0 })).toBe(true);
    expect(canSaveFaq({ question: '   ', answer: 'x' }, { saving: false, initial: null, newFiles: 0 })).toBe(false);
    expect(canSaveFaq(values, { saving: true, initial: null, newFiles: 0 })).toBe(false);
  });
  it('in edit mode needs a change: question, answer or a new file', () => {
    expect(canSaveFaq(values, { saving: false, initial: values, newFiles: 0 })).toBe(false);
    expect(canSaveFaq({ question: 'Frage ', answer: '' }, { saving: false, initial: values, newFiles: 0 })).toBe(false);
    expect(canSaveFaq({ question: 'Frage', answer: 'Antwort' }, { saving: false, initial: values, newFiles: 0 })).toBe(true);
    expect(canSaveFaq(values, { saving: false, initial: values, newFiles: 1 })).toBe(true);
  });
});
