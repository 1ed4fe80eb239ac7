/**
 * The brand and equipment class forms' kept input (stores/kept-form.ts), like every other form that writes a
 * record: a brand's name and manufacturer (an existing one or a new one being named), a class's name and the
 * language it is written in. A reload, a tab the browser killed or a tap on the navigation loses none of it.
 */
import { isLanguage, type Language } from '../../../shared/domain/language';
import type { FormModel } from '../../stores/kept-form';
import type { PickerChoice } from './catalog-picker';

export const BRAND_DRAFT_KIND = 'brand-form-draft';
export const CLASS_DRAFT_KIND = 'class-form-draft';

export interface BrandFormValues {
  name: string;
  manufacturer: PickerChoice | null;
}

export interface ClassFormValues {
  name: string;
  /** The language the name was filled in and is saved under: the form's language when it opened, not at the save. */
  lang: Language;
}

export const EMPTY_BRAND_FORM: BrandFormValues = { name: '', manufacturer: null };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function isPickerChoice(value: unknown): value is PickerChoice {
  return isObject(value) && typeof value.isnew === 'boolean' && typeof value.nodeid === 'string' && (value.name === undefined || typeof value.name === 'string');
}

/** The same manufacturer: both none, the same existing one, or both a new one of the same name. */
function sameChoice(a: PickerChoice | null, b: PickerChoice | null): boolean {
  if (a === null || b === null) return a === b;
  return a.isnew === b.isnew && (a.isnew ? (a.name ?? '') === (b.name ?? '') : a.nodeid === b.nodeid);
}

export const BRAND_FORM_MODEL: FormModel<BrandFormValues> = {
  accept: (value): value is BrandFormValues => isObject(value) && typeof value.name === 'string' && (value.manufacturer === null || isPickerChoice(value.manufacturer)),
  pick: ({ name, manufacturer }) => ({ name, manufacturer: manufacturer && { ...manufacturer } }),
  unchanged: (values, initial) => (initial ? values.name === initial.name && sameChoice(values.manufacturer, initial.manufacturer) : values.name.trim() === '' && values.manufacturer === null),
};

export const CLASS_FORM_MODEL: FormModel<ClassFormValues> = {
  accept: (value): value is ClassFormValues => isObject(value) && typeof value.name === 'string' && isLanguage(value.lang),
  pick: ({ name, lang }) => ({ name, lang }),
  unchanged: (values, initial) => (initial ? values.name === initial.name : values.name.trim() === ''),
};
