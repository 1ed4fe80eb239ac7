/** The state of a screen's local write (a form's save or delete, a dialog's save). */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isQuotaExceeded } from '../db/local-db';

/**
 * One write at a time (`busy` while it runs) and its failure in words: the device being full, or `failed`. The
 * write goes to the mirror and the outbox, so it works offline; what fails here is the device itself.
 */
export function useLocalWrite(failed: string) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /**
   * Runs `write`. True when it went through: `busy` stays set, as the screen leaves or closes with it — unless
   * `stays` (the screen stays where it is, e.g. a table back from edit mode, and may write again). False after a
   * failure, which is then the `error`.
   */
  const run = async (write: () => Promise<unknown>, { stays = false }: { stays?: boolean } = {}): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await write();
      if (stays) setBusy(false);
      return true;
    } catch (cause) {
      setBusy(false);
      setError(isQuotaExceeded(cause) ? t('sync.errors.quota') : failed);
      return false;
    }
  };
  return { busy, error, run };
}
