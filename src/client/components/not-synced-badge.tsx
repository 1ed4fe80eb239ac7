/** Marks a record whose write the server has not acknowledged yet (it is still in the outbox). */
import { Badge } from '@chakra-ui/react';
import { CloudOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';

export function NotSyncedBadge() {
  const { t } = useTranslation();
  return (
    <Badge size="sm" variant="outline" colorPalette="orange" title={t('machine.notSyncedHint')} data-testid="not-synced" flexShrink={0}>
      <CloudOff size={12} aria-hidden />
      {t('machine.notSynced')}
    </Badge>
  );
}
