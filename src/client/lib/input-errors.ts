/**
 * A declared action's input refused on the device (`MutationInputError`, src/shared/mutations/mutation.ts) as
 * the form shows it: one message per field, in the user's language. The schemas' messages are the API's
 * (English, for API clients); the ones a form can meet are translated here.
 */
import type { TFunction } from 'i18next';
import { MutationInputError } from '../../shared/mutations/mutation';

const TOO_LONG = /^Must be at most (\d+) characters$/;

function translate(message: string, t: TFunction): string {
  if (message === 'Required') return t('validation.required');
  const tooLong = TOO_LONG.exec(message);
  if (tooLong) return t('validation.tooLong', { max: Number(tooLong[1]) });
  return t('validation.invalid');
}

/** Field → message for a refused input; null for any other error (a full disk, a bug), which the form words itself. */
export function inputErrors(error: unknown, t: TFunction): Record<string, string> | null {
  if (!(error instanceof MutationInputError)) return null;
  return Object.fromEntries(Object.entries(error.fieldErrors()).map(([field, message]) => [field, translate(message, t)]));
}
