import { describe, expect, it } from 'vitest';
import { addFormIssues, droppedInput, emptyAddForm, formUnitSymbol, readingCheckFor, readingFeedback, toNewCounter, withType, type AddCounterForm } from '../../src/client/features/machine/counter-modal-model';
import type { CounterTypeOption } from '../../src/client/sync/machine-counters';

const HOURS = { nodeid: 'u-h', unitid: 'HUR', symbol: 'h', name: 'Stunden' };
const PIECES = { nodeid: 'u-p', unitid: 'C62', symbol: 'Stk.', name: 'Stück' };
const types: CounterTypeOption[] = [
  { nodeid: 't-hours', name: 'Betriebsstunden', builtin: true, unit: HOURS },
  { nodeid: 't-strokes', name: 'Hubzähler', builtin: false, unit: PIECES },
];
const form = (patch: Partial<AddCounterForm> = {}): AddCounterForm => ({ ...emptyAddForm(types), ...patch });

describe('counter modal model (§4.6)', () => {
  it('starts with "existing type" when the tenant has types, otherwise with "new type"', () => {
    expect(emptyAddForm(types).typeMode).toBe('existing');
    expect(emptyAddForm([]).typeMode).toBe('new');
  });

  it('an existing type needs the type and a name', () => {
    expect(addFormIssues(form(), types)).toEqual({ typeNodeId: 'required', name: 'required' });
    expect(addFormIssues(form({ typeNodeId: 't-strokes', name: ' Hub ' }), types)).toEqual({});
    expect(addFormIssues(form({ typeNodeId: 'gone', name: 'x' }), types)).toEqual({ typeNodeId: 'required' });
  });

  it('a new type needs name and unit, and may not repeat an existing type', () => {
    expect(addFormIssues(form({ typeMode: 'new', name: 'x' }), types)).toEqual({ newTypeName: 'required', unitNodeId: 'required' });
    expect(addFormIssues(form({ typeMode: 'new', newTypeName: ' hubzähler ', unitNodeId: 'u-p', name: 'x' }), types)).toEqual({ newTypeName: 'typeExists' });
    expect(addFormIssues(form({ typeMode: 'new', newTypeName: 'Spindelstunden', unitNodeId: 'u-h', name: 'Spindel' }), types)).toEqual({});
  });

  it('a first reading is optional but must be a number by §5', () => {
    const ok = { typeNodeId: 't-strokes', name: 'Hub' };
    expect(addFormIssues(form({ ...ok, reading: '1234,5' }), types)).toEqual({});
    expect(addFormIssues(form({ ...ok, reading: '.' }), types)).toEqual({ reading: 'invalid' });
    expect(addFormIssues(form({ ...ok, reading: '70.045,5' }), types)).toEqual({ reading: 'bothSeparators' });
  });

  it('choosing a type fills an empty or default name; a typed name stays', () => {
    const chosen = withType(form(), 't-hours', types);
    expect(chosen.name).toBe('Betriebsstunden');
    expect(withType(chosen, 't-strokes', types).name).toBe('Hubzähler');
    expect(withType(form({ name: 'Presse oben' }), 't-strokes', types).name).toBe('Presse oben');
  });

  it('builds the repository input: existing type, or new type with unit; the reading only when typed', () => {
    expect(toNewCounter(form({ typeNodeId: 't-strokes', name: ' Hub ' }), 'm1')).toEqual({ equipmentnodeid: 'm1', name: 'Hub', type: { nodeid: 't-strokes' } });
    expect(toNewCounter(form({ typeMode: 'new', newTypeName: ' Spindelstunden ', unitNodeId: 'u-h', name: 'Spindel', reading: '12,5' }), 'm1')).toEqual({
      equipmentnodeid: 'm1',
      name: 'Spindel',
      type: { name: 'Spindelstunden', unitnodeid: 'u-h' },
      reading: { value: 12.5 },
    });
  });

  it('the unit of the counter being added: of the chosen type, or the chosen unit', () => {
    expect(formUnitSymbol(form({ typeNodeId: 't-hours' }), types, [HOURS, PIECES])).toBe('h');
    expect(formUnitSymbol(form({ typeMode: 'new', unitNodeId: 'u-p' }), types, [HOURS, PIECES])).toBe('Stk.');
    expect(formUnitSymbol(form(), types, [HOURS, PIECES])).toBeNull();
  });

  it('the reading field: interpreted value, thousands hint for "71.400", nothing for empty text', () => {
    expect(readingFeedback('71.400')).toEqual({ value: 71.4, issue: undefined, thousandsHint: true });
    expect(readingFeedback('71400')).toEqual({ value: 71400, issue: undefined, thousandsHint: false });
    expect(readingFeedback('')).toEqual({ value: undefined, issue: undefined, thousandsHint: false });
    expect(readingFeedback('70.045,5')).toEqual({ value: undefined, issue: 'bothSeparators', thousandsHint: false });
  });

  it('a reading that cannot be stored as typed is an issue and no value, so no dialog saves it (found: "1.250.000" was saved as 1,25)', () => {
    // The field keeps one period: "1.250.000" arrives as "1.250000", six decimals where the column keeps three.
    expect(readingFeedback('1.250000')).toEqual({ value: undefined, issue: 'tooManyDecimals', thousandsHint: false });
    expect(readingFeedback('1250,1234')).toMatchObject({ value: undefined, issue: 'tooManyDecimals' });
    expect(readingFeedback('1250,125')).toMatchObject({ value: 1250.125, issue: undefined });
    expect(readingFeedback('99999999999999999')).toMatchObject({ value: undefined, issue: 'tooBig' });
    expect(readingFeedback('999999999999999')).toMatchObject({ value: 999_999_999_999_999, issue: undefined });
    expect(readingFeedback('000000000000000012')).toMatchObject({ value: 12, issue: undefined });
    expect(readingFeedback('.')).toMatchObject({ value: undefined, issue: 'invalid' });
    expect(addFormIssues(form({ typeNodeId: 't-hours', name: 'Hub', reading: '1.250000' }), types).reading).toBe('tooManyDecimals');
  });

  it('the save check uses the latest reading and the counter kind', () => {
    const latest = { value: 70045.5, takenat: 0 };
    expect(readingCheckFor(71.4, 10 * 3_600_000, latest, true).kind).toBe('lower');
    expect(readingCheckFor(71400, 10 * 3_600_000, latest, true).kind).toBe('tooFast');
    expect(readingCheckFor(71400, 10 * 3_600_000, latest, false).kind).toBe('ok');
  });
});

/** What the reading field says it did not keep (a probe typed "-5" and saw 5 without a word). */
describe('droppedInput', () => {
  it('keeps what the §5 rule keeps and names a minus sign, other characters or a second separator', () => {
    expect(droppedInput('-5')).toEqual({ kept: '5', dropped: { kind: 'minus' } });
    expect(droppedInput('\u22125,5')).toEqual({ kept: '5,5', dropped: { kind: 'minus' } });
    expect(droppedInput('7 h')).toEqual({ kept: '7', dropped: { kind: 'other', characters: 'h' } });
    expect(droppedInput('1e5e')).toEqual({ kept: '15', dropped: { kind: 'other', characters: 'e' } });
    expect(droppedInput('12,3,4')).toEqual({ kept: '12,34', dropped: { kind: 'separator' } });
  });

  it('says nothing when only spaces went or nothing did', () => {
    expect(droppedInput('1 250')).toEqual({ kept: '1250', dropped: undefined });
    expect(droppedInput('70045,5')).toEqual({ kept: '70045,5', dropped: undefined });
    expect(droppedInput('')).toEqual({ kept: '', dropped: undefined });
  });
});
