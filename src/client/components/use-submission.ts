/**
 * A form's save, the same in every form and dialog that writes (spec part 1 §6): while it runs the form is busy;
 * a field the action's declaration refused shows next to its input, a full device says so, any other failure shows
 * the form's own text in its error line. A write that cannot go on for a reason the user must read (a file that
 * cannot be read) throws a `SubmissionStop` with that text.
 */
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { inputErrors } from '../lib/input-errors';
import { isQuotaExceeded } from '../sync/use-write-context';

/** Thrown by a write to end the save with this message in the form's error line. */
export class SubmissionStop extends Error {}

export interface Submission {
  saving: boolean;
  error: string | null;
  setError(message: string | null): void;
  fieldErrors: Record<string, string>;
  /** Stable across renders: forms call it when their values change. */
  clearFieldErrors(): void;
  /** Runs `write`, then `done` with its result; a failure leaves the form open with its message (`failed` unless it says better). */
  submit<T>(write: () => Promise<T>, outcome: { failed: string; done(result: T): void }): Promise<void>;
}

export function useSubmission(): Submission {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const clearFieldErrors = useCallback(() => setFieldErrors({}), []);

  const submit: Submission['submit'] = async (write, { failed, done }) => {
    setSaving(true);
    setError(null);
    setFieldErrors({});
    let result;
    try {
      result = await write();
    } catch (failure) {
      const refused = failure instanceof SubmissionStop ? null : inputErrors(failure, t);
      if (refused) setFieldErrors(refused);
      else setError(failure instanceof SubmissionStop ? failure.message : isQuotaExceeded(failure) ? t('sync.errors.quota') : failed);
      setSaving(false);
      return;
    }
    done(result);
  };

  return { saving, error, setError, fieldErrors, clearFieldErrors, submit };
}
