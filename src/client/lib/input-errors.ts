/**
 * A declared action's input refused on the device (`MutationInputError`, src/shared/mutations/mutation.ts) as
 * the form shows it: one message per field, in the user's language. The schemas' messages are the API's
 * (English, for API clients); the ones a form can meet are translated here.
 */
import type { TFunction } from 'i18next';
import { MutationInputError } from '../../shared/mutations/mutation';

const TOO_LONG = /^Must be at most (\d+) characters$/;
/** zod's own text for a number over its maximum (`.max(n)` without a message). */
const TOO_BIG = /^Too big: expected number to be <=\s*(\d+(?:\.\d+)?)$/;

function translate(message: string, t: TFunction): string {
  if (message === 'Required') return t('validation.required');
  const tooLong = TOO_LONG.exec(message);
  if (tooLong) return t('validation.tooLong', { max: Number(tooLong[1]) });
  const tooBig = TOO_BIG.exec(message);
  if (tooBig) return t('validation.tooBig', { max: Number(tooBig[1]) });
  return t('validation.invalid');
}

/**
 * What a form shows under its fields while the user types, from its action's schema (`safeParse` of the values):
 * each field's first problem in the user's language — a text too long, a number too big. "Required" only where
 * something was typed (only spaces): an empty required field is marked as required already, and a new form should
 * not open full of errors.
 */
export function liveFieldErrors(
  result: { success: true } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } },
  /** The form's values as typed, by field. */
  typed: object,
  t: TFunction,
): Record<string, string> {
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.map(String).join('.');
    if (field === '' || field in errors) continue;
    if (issue.message === 'Required' && !String((typed as Record<string, unknown>)[field] ?? '').length) continue;
    errors[field] = translate(issue.message, t);
  }
  return errors;
}

/**
 * One field's problem while the user types, from its schema (a name too long): undefined for none, and for an empty
 * field, which the form marks as required itself.
 */
export function liveTextError(schema: { safeParse(value: unknown): { success: true } | { success: false; error: { issues: readonly { message: string }[] } } }, typed: string, t: TFunction): string | undefined {
  if (typed.trim() === '') return undefined;
  const result = schema.safeParse(typed);
  return result.success ? undefined : translate(result.error.issues[0]?.message ?? '', t);
}

/** Field → message for a refused input; null for any other error (a full disk, a bug), which the form words itself. */
export function inputErrors(error: unknown, t: TFunction): Record<string, string> | null {
  if (!(error instanceof MutationInputError)) return null;
  return Object.fromEntries(Object.entries(error.fieldErrors()).map(([field, message]) => [field, translate(message, t)]));
}
