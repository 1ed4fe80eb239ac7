/**
 * Progress bar under the app bar while the device loads everything for offline use (pull from cursor 0). It
 * re-renders once per pulled page (the counts), never per row, and its indeterminate bar moves by `transform`
 * only (theme keyframes `sync-slide`), so it costs the main thread nothing while the rows are written.
 */
import { Box, Text } from '@chakra-ui/react';
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
      <Box role="progressbar" aria-label={t('sync.initial.label')} position="relative" h="1.5" overflow="hidden" borderRadius="full" bg="brand.100" data-testid="initial-sync-bar">
        <Box position="absolute" insetY="0" left="0" w="40%" borderRadius="full" bg="brand.solid" willChange="transform" animation="sync-slide 1.2s ease-in-out infinite" />
      </Box>
    </Box>
  );
}
