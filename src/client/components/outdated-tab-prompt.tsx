/**
 * Shown when another tab opened the local database with a newer schema (the app was updated there): this tab
 * has closed its database and cannot save any more, so the user is asked to reload instead of failing silently.
 */
import { Alert, Button } from '@chakra-ui/react';
import { RefreshCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useSyncStatus } from '../stores/sync-store';

export function OutdatedTabPrompt() {
  const { t } = useTranslation();
  const outdated = useSyncStatus((s) => s.localDbOutdated);
  if (!outdated) return null;
  return (
    <Alert.Root status="error" role="alert" borderRadius="0" px={{ base: '3', md: '4' }} py="3" alignItems="center" flexWrap="wrap" gap="3">
      <Alert.Indicator />
      <Alert.Description flex="1" minW="60">
        {t('offlineFaults.outdatedTab.message')}
      </Alert.Description>
      <Button size="md" colorPalette="red" onClick={() => window.location.reload()}>
        <RefreshCw size={16} aria-hidden />
        {t('offlineFaults.outdatedTab.reload')}
      </Button>
    </Alert.Root>
  );
}
