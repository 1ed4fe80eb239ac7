/**
 * Solutions (Maßnahmen), the pure parts: the declarations' `apply` and schemas (what the device writes to its
 * mirror, and the input it refuses before queuing), the form's save rule and file sorting, and the form's
 * navigation (state, or the query after a reload).
 */
import { describe, expect, it } from 'vitest';
import { MutationInputError, parseMutation } from '../../src/shared/mutations/mutation';
import { createWorkflow, updateWorkflow, WORKFLOW_STEP_DESCRIPTION, WORKFLOW_STEP_ID } from '../../src/shared/mutations/workflows';
import { mutationByAction } from '../../src/shared/mutations/registry';
import { canSaveSolution, SOLUTION_FIELDS, solutionDraftKey } from '../../src/client/features/solution/solution-form-model';
import { isTextFormDraft, textFormDraftOf, textFormStart, type TextFormDraft, type TextValues } from '../../src/client/stores/kept-text-form';

type SolutionText = TextValues<(typeof SOLUTION_FIELDS)[number]>;
const solutionDraftOf = (values: SolutionText, initial: SolutionText | null) => textFormDraftOf(SOLUTION_FIELDS, values, initial);
const solutionFormStart = (saved: SolutionText | null, draft: TextFormDraft<(typeof SOLUTION_FIELDS)[number]> | null) => textFormStart(SOLUTION_FIELDS, saved, draft);
const isSolutionDraft = (value: unknown) => isTextFormDraft(value, SOLUTION_FIELDS);
import { addSolutionLink, editSolutionLink, resolveSolutionForm, solutionReturnPath, solutionReturnState } from '../../src/client/lib/solution-navigation';

const notification = '01930000-0000-7000-8000-000000000001';
const workflow = '01930000-0000-7000-8000-000000000002';
const step = '01930000-0000-7000-8000-000000000003';
const user = '01930000-0000-7000-8000-000000000004';

describe('solution declarations', () => {
  it('are registered under their names', () => {
    for (const name of ['createWorkflow', 'updateWorkflow', 'deleteWorkflow']) expect(mutationByAction(name)?.name).toBe(name);
    expect(mutationByAction('deleteWorkflow')?.permission).toEqual({ feature: 'notification.workflow', flag: 'delete' });
  });

  it('createWorkflow: the workflow row with the step riding on it as mirror-only fields; empty texts are none', () => {
    const args = parseMutation(createWorkflow, { params: {}, body: { lang: 'de', nodeid: workflow, stepnodeid: step, created: 1_700_000_000_000, notificationnodeid: notification, title_workflow: ' ', description: '  Lager gefettet ' } });
    expect(createWorkflow.target(args)).toBe(workflow);
    expect(createWorkflow.apply!(undefined, args, { now: 1_800_000_000_000, usernodeid: user })).toEqual({
      title: null,
      notificationnodeid: notification,
      maintenancetasknodeid: null,
      authornodeid: user,
      created: 1_700_000_000_000,
      [WORKFLOW_STEP_ID]: step,
      [WORKFLOW_STEP_DESCRIPTION]: 'Lager gefettet',
    });
  });

  it('updateWorkflow: only the fields sent; a description becomes the step field on the workflow row', () => {
    const onlyTitle = parseMutation(updateWorkflow, { params: { id: workflow }, body: { lang: 'de', title_workflow: 'Neu' } });
    expect(updateWorkflow.apply!(undefined, onlyTitle, { now: 1, usernodeid: user })).toEqual({ title: 'Neu' });
    const cleared = parseMutation(updateWorkflow, { params: { id: workflow }, body: { lang: 'de', description: '' } });
    expect(updateWorkflow.apply!(undefined, cleared, { now: 1, usernodeid: user })).toEqual({ [WORKFLOW_STEP_DESCRIPTION]: null });
  });

  it('refuses input the server would refuse, naming the field', () => {
    const bad = () => parseMutation(createWorkflow, { params: {}, body: { lang: 'de', notificationnodeid: 'x', description: 'y'.repeat(20_001) } });
    expect(bad).toThrow(MutationInputError);
    try {
      bad();
    } catch (error) {
      expect(Object.keys((error as MutationInputError).fieldErrors()).sort()).toEqual(['description', 'notificationnodeid']);
    }
  });
});

describe('solution form', () => {
  it('save: not while saving, not empty, in edit mode only when something changed', () => {
    const empty = { title: '', description: '' };
    expect(canSaveSolution(empty, { saving: false, initial: null, newFiles: 0 })).toBe(false);
    expect(canSaveSolution(empty, { saving: false, initial: null, newFiles: 1 })).toBe(true);
    expect(canSaveSolution({ title: 'T', description: '' }, { saving: true, initial: null, newFiles: 0 })).toBe(false);
    expect(canSaveSolution({ title: '', description: 'D' }, { saving: false, initial: null, newFiles: 0 })).toBe(true);
    const initial = { title: 'T', description: 'D' };
    expect(canSaveSolution({ title: 'T ', description: 'D' }, { saving: false, initial, newFiles: 0 })).toBe(false);
    expect(canSaveSolution({ title: 'T2', description: 'D' }, { saving: false, initial, newFiles: 0 })).toBe(true);
    expect(canSaveSolution(initial, { saving: false, initial, newFiles: 1 })).toBe(true);
    expect(canSaveSolution(empty, { saving: false, initial, newFiles: 0, existingFiles: 1 })).toBe(true);
    expect(canSaveSolution(empty, { saving: false, initial, newFiles: 0, existingFiles: 0 })).toBe(false);
  });


  it('navigation: state first, the query after a reload; edit needs the solution; back to the details', () => {
    const add = addSolutionLink(notification, null);
    expect(resolveSolutionForm('/create-workflow-step', add.state, '')).toEqual({ mode: 'add', notificationnodeid: notification, workflownodeid: null, origin: null });
    expect(resolveSolutionForm('/create-workflow-step', null, add.to.split('?')[1]!)).toEqual({ mode: 'add', notificationnodeid: notification, workflownodeid: null, origin: null });
    const edit = editSolutionLink(workflow, notification);
    expect(resolveSolutionForm('/edit-workflow-step', undefined, `?${edit.to.split('?')[1]}`)).toEqual({ mode: 'edit', notificationnodeid: notification, workflownodeid: workflow, origin: null });
    expect(resolveSolutionForm('/edit-workflow-step', add.state, '')).toBeNull();
    expect(resolveSolutionForm('/create-workflow-step', null, '')).toBeNull();
    expect(solutionReturnPath(notification)).toBe(`/notification-details?nodeid=${notification}&tab=measures`);
  });

  it('the details’ origin goes through the form and back, so their back link still leads to the machine', () => {
    const machine = '0190f5a0-0000-7000-8000-0000000000b7';
    const origin = { from: 'overview', equipmentNodeId: machine };
    const add = addSolutionLink(notification, machine, origin);
    const addTarget = resolveSolutionForm('/create-workflow-step', add.state, '')!;
    expect(addTarget.origin).toEqual(origin);
    expect(solutionReturnState(addTarget)).toEqual({ from: 'overview', equipmentNodeId: machine });
    const edit = editSolutionLink(workflow, notification, { from: 'history', equipmentNodeId: null });
    expect(solutionReturnState(resolveSolutionForm('/edit-workflow-step', edit.state, '')!)).toEqual({ from: 'history', equipmentNodeId: null });
    // Without an origin (a reload keeps only the query; opened by its address) the details use what they remembered.
    expect(solutionReturnState(resolveSolutionForm('/create-workflow-step', null, add.to.split('?')[1]!)!)).toBeUndefined();
    expect(solutionReturnState(resolveSolutionForm('/create-workflow-step', addSolutionLink(notification, null).state, '')!)).toBeUndefined();
  });
});

describe('solution form draft (kept on the device until saved or cancelled)', () => {
  const seeded = { title: 'Schlauch getauscht', description: 'Dicht.' };

  it('is one per notification for a new solution and one per solution for an edit', () => {
    expect(solutionDraftKey({ mode: 'add', notificationnodeid: notification, workflownodeid: null })).toBe(`add:${notification}`);
    expect(solutionDraftKey({ mode: 'edit', notificationnodeid: notification, workflownodeid: workflow })).toBe(`edit:${workflow}`);
  });

  it('keeps nothing while the form shows what it started from', () => {
    expect(solutionDraftOf({ title: ' ', description: '' }, null)).toBeNull();
    expect(solutionDraftOf(seeded, seeded)).toBeNull();
    expect(solutionDraftOf({ title: 'Dichtung', description: '' }, null)).toEqual({ title: 'Dichtung', description: '', base: null });
    expect(solutionDraftOf({ ...seeded, description: 'Nachgeprüft.' }, seeded)).toEqual({ ...seeded, description: 'Nachgeprüft.', base: seeded });
  });

  it('an edit taken back compares with what its form was filled from, so an untouched field is not sent', () => {
    const colleague = { title: 'Schlauch und Kupplung getauscht', description: 'Dicht.' };
    const draft = { ...seeded, description: 'Nachgeprüft.', base: seeded };
    const start = solutionFormStart(colleague, draft);
    expect(start).toEqual({ initial: seeded, values: { title: seeded.title, description: 'Nachgeprüft.' } });
    expect(canSaveSolution(start.values, { saving: false, initial: start.initial, newFiles: 0 })).toBe(true);
  });

  it('a draft of the other mode, or none, starts from the solution', () => {
    expect(solutionFormStart(seeded, { title: 'x', description: '', base: null })).toEqual({ initial: seeded, values: seeded });
    expect(solutionFormStart(null, { ...seeded, base: seeded })).toEqual({ initial: null, values: { title: '', description: '' } });
    expect(solutionFormStart(null, null)).toEqual({ initial: null, values: { title: '', description: '' } });
  });

  it('takes back only what it wrote', () => {
    expect(isSolutionDraft({ title: 'a', description: 'b', base: null })).toBe(true);
    expect(isSolutionDraft({ title: 'a', description: 'b', base: seeded })).toBe(true);
    expect(isSolutionDraft({ title: 'a', description: 'b' })).toBe(false);
    expect(isSolutionDraft({ title: 'a', description: 1, base: null })).toBe(false);
  });
});
