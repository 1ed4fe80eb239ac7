/** Progress bar under the app bar while the device loads everything for offline use (pull from cursor 0). */
import { Box, Progress, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useSyncStatus } from '../stores/sync-store';

export function InitialSyncProgress() {
  const { t } = useTranslation();
  const progress = useSyncStatus((s) => s.initialSync);
  if (!progress.active) return null;
  const total = Object.values(progress.counts).reduce((sum, n) => sum + n, 0);
  return (
    <Box role="status" aria-live="polite" px={{ base: '3', md: '4' }} py="2" bg="brand.50" borderBottomWidth="1px" data-testid="initial-sync">
      <Text textStyle="sm" fontWeight="medium" mb="1">
        {t('sync.initial.title')} {total > 0 && t('sync.initial.counts', { count: total })}
      </Text>
      <Progress.Root value={null} size="sm" colorPalette="brand" aria-label={t('sync.initial.label')}>
        <Progress.Track>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
    </Box>
  );
}
