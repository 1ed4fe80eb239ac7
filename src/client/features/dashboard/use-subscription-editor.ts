/** Opening, saving and closing the "Dashboard-Auswahl" (subscription-dialog.tsx). */
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StructureTree } from '../../../shared/api/structure';
import type { SubscriptionSelection } from '../../../shared/domain/subscription';
import { saveSubscriptions } from '../../sync/repositories/subscriptions';
import { isQuotaExceeded, useWriteContext } from '../../sync/use-write-context';

export function useSubscriptionEditor() {
  const { t } = useTranslation();
  const context = useWriteContext();
  const [isOpen, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const open = useCallback(() => {
    setError(null);
    setOpen(true);
  }, []);
  const close = useCallback(() => setOpen(false), []);

  const save = useCallback(
    async (desired: SubscriptionSelection, tree: StructureTree) => {
      if (!context) return;
      setBusy(true);
      setError(null);
      try {
        const siteOfArea = new Map(tree.sites.flatMap((site) => site.areas.map((area): [string, string] => [area.nodeid, site.nodeid])));
        await saveSubscriptions(context, desired, siteOfArea);
        setOpen(false);
      } catch (cause) {
        setError(isQuotaExceeded(cause) ? t('sync.errors.quota') : t('subscriptions.saveFailed'));
      } finally {
        setBusy(false);
      }
    },
    [context, t],
  );

  return { isOpen, busy, error, open, close, save };
}
