/**
 * The §4.6 counter modal as data, without React: the add form's fields and what is wrong with them, the input
 * the repository gets, and what the reading field says about a typed reading (the interpreted value, the
 * thousands-separator hint, the warning that needs a confirmation). The dialogs render it; unit tests check it.
 */
import {
  checkReading,
  COUNTER_READING_DECIMALS,
  COUNTER_READING_MAX,
  hasBothSeparators,
  looksLikeThousandsSeparator,
  parseCounterReading,
  readingDecimals,
  readingIntegerDigits,
  sanitizeCounterReading,
  separatorCount,
  type PreviousReading,
  type ReadingCheck,
} from '../../../shared/domain/counter';
import { sameName } from '../../../shared/domain/text';
import type { NewCounterInput } from '../../sync/repositories/counters';
import type { CounterTypeOption } from '../../sync/machine-counters';

export type TypeMode = 'existing' | 'new';

export interface AddCounterForm {
  typeMode: TypeMode;
  /** An existing type (typeMode existing). */
  typeNodeId: string;
  /** A new type's name and unit (typeMode new). */
  newTypeName: string;
  unitNodeId: string;
  name: string;
  /** The first reading as typed; optional. */
  reading: string;
}

export const emptyAddForm = (types: readonly CounterTypeOption[]): AddCounterForm => ({
  typeMode: types.length > 0 ? 'existing' : 'new',
  typeNodeId: '',
  newTypeName: '',
  unitNodeId: '',
  name: '',
  reading: '',
});

/** i18n keys below `counterModal.` for each field that is wrong. */
export type AddFormIssues = Partial<Record<'typeNodeId' | 'newTypeName' | 'unitNodeId' | 'name' | 'reading', 'required' | 'typeExists' | ReadingIssue>>;


/**
 * What keeps the add form from saving. A new type may not repeat an existing type's name (the user picks that
 * type instead, so two "Betriebsstunden" never stand side by side); a first reading is optional but must be a
 * number by the §5 rule.
 */
export function addFormIssues(form: AddCounterForm, types: readonly CounterTypeOption[]): AddFormIssues {
  const issues: AddFormIssues = {};
  if (form.typeMode === 'existing') {
    if (!types.some((type) => type.nodeid === form.typeNodeId)) issues.typeNodeId = 'required';
  } else {
    if (form.newTypeName.trim() === '') issues.newTypeName = 'required';
    else if (types.some((type) => sameName(type.name, form.newTypeName))) issues.newTypeName = 'typeExists';
    if (form.unitNodeId === '') issues.unitNodeId = 'required';
  }
  if (form.name.trim() === '') issues.name = 'required';
  const reading = readingIssue(form.reading);
  if (reading) issues.reading = reading;
  return issues;
}

export type ReadingIssue = 'invalid' | 'bothSeparators' | 'tooManyDecimals' | 'tooBig';

/**
 * The reading field's own problem: none for '' or a number that can be stored as typed. Both separators, more than
 * three decimals (a thousands separator the rule read as a decimal point, "1.250.000" kept as "1.250000") and more
 * than fifteen digits before the separator each get their own text.
 */
export function readingIssue(input: string): ReadingIssue | undefined {
  if (input.trim() === '') return undefined;
  if (hasBothSeparators(input)) return 'bothSeparators';
  if (readingIntegerDigits(input) > String(COUNTER_READING_MAX).length) return 'tooBig';
  if (parseCounterReading(input) === undefined) return 'invalid';
  return readingDecimals(input) > COUNTER_READING_DECIMALS ? 'tooManyDecimals' : undefined;
}

/**
 * Choosing a type fills an empty name with the type's name (most machines have one counter per type); a name
 * the user typed stays.
 */
export function withType(form: AddCounterForm, typeNodeId: string, types: readonly CounterTypeOption[]): AddCounterForm {
  const previous = types.find((type) => type.nodeid === form.typeNodeId);
  const next = types.find((type) => type.nodeid === typeNodeId);
  const nameIsDefault = form.name.trim() === '' || (previous !== undefined && form.name === previous.name);
  return { ...form, typeNodeId, name: nameIsDefault && next ? next.name : form.name };
}

/** The repository's input for a form without issues (`addFormIssues` empty). */
export function toNewCounter(form: AddCounterForm, equipmentnodeid: string): NewCounterInput {
  const value = parseCounterReading(form.reading);
  return {
    equipmentnodeid,
    name: form.name.trim(),
    type: form.typeMode === 'existing' ? { nodeid: form.typeNodeId } : { name: form.newTypeName.trim(), unitnodeid: form.unitNodeId },
    ...(form.reading.trim() !== '' && value !== undefined && { reading: { value } }),
  };
}

/** The unit symbol of the counter being added, for its first reading's interpreted value ("= 71,4 h"). */
export function formUnitSymbol(form: AddCounterForm, types: readonly CounterTypeOption[], units: readonly { nodeid: string; symbol: string }[]): string | null {
  if (form.typeMode === 'existing') return types.find((candidate) => candidate.nodeid === form.typeNodeId)?.unit?.symbol ?? null;
  return units.find((candidate) => candidate.nodeid === form.unitNodeId)?.symbol ?? null;
}

/** What the reading field shows beside and under the input, from the typed text alone. */
export interface ReadingFeedback {
  /** The value the §5 rule reads, or undefined (nothing typed, or not a number). */
  value: number | undefined;
  issue: ReadingIssue | undefined;
  /** A period in the thousands position: it is a decimal point here, which the field says in words. */
  thousandsHint: boolean;
}

/**
 * What the §5 rule did not keep of a typed reading, for the field to say: a second comma or period, a minus sign (a
 * counter never runs below zero: "-5" became "5"), or other characters ("7 h" became "7"). Spaces are not
 * mentioned: "1 250" is 1250 as meant. Undefined when nothing but spaces was dropped.
 */
export type DroppedInput = { kind: 'separator' } | { kind: 'minus' } | { kind: 'other'; characters: string };

const MINUS_SIGNS = new Set(['-', '\u2212', '\u2013', '\u2012']);

export function droppedInput(typed: string): { kept: string; dropped: DroppedInput | undefined } {
  const kept = sanitizeCounterReading(typed);
  const others = [...typed].filter((ch) => !/[\d.,\s]/u.test(ch));
  if (others.some((ch) => MINUS_SIGNS.has(ch))) return { kept, dropped: { kind: 'minus' } };
  if (others.length > 0) return { kept, dropped: { kind: 'other', characters: [...new Set(others)].join('') } };
  if (separatorCount(kept) < separatorCount(typed)) return { kept, dropped: { kind: 'separator' } };
  return { kept, dropped: undefined };
}

export function readingFeedback(input: string): ReadingFeedback {
  const issue = readingIssue(input);
  // why no value with an issue: the dialogs save only a value, and one the field calls wrong must not be saved.
  const value = input.trim() === '' || issue ? undefined : parseCounterReading(input);
  return { value, issue, thousandsHint: value !== undefined && looksLikeThousandsSeparator(input) };
}

/**
 * The check a save runs before writing: a reading lower than the last one, or an hour counter faster than the
 * clock, is only saved after the user confirmed exactly that warning.
 */
export function readingCheckFor(value: number, now: number, previous: PreviousReading | null, hourCounter: boolean): ReadingCheck {
  return checkReading({ value, takenat: now, previous, hourCounter });
}

/** The thousands reading the user probably meant ("71.400" → 71400), for the hint's text. */
export function meantWithoutPeriod(input: string): number | undefined {
  return parseCounterReading(input.replace('.', ''));
}
