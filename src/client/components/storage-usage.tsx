/**
 * The storage part of the sync panel: what the app takes on this device (the browser's estimate; the quota only
 * where it is real — Chromium reports usage + 10 GiB), the files kept for offline reading and the machines made
 * available offline, the eviction rule in one sentence, and whether the browser granted persistent storage (with a
 * button to ask again: some browsers grant it only after a user's click).
 */
import { Box, Button, Heading, Stack, Text } from '@chakra-ui/react';
import { HardDrive } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fileCacheBudget, isQuotaMeaningful } from '../lib/file-cache';
import { formatBytes } from '../lib/format-bytes';
import { useSyncStatus } from '../stores/sync-store';
import { askPersistentStorage, useFileCacheUsage, useStorageEstimate } from '../sync/offline-files';

export function StorageUsage() {
  const { t, i18n } = useTranslation();
  const usage = useFileCacheUsage();
  const estimate = useStorageEstimate(usage?.bytes);
  const persisted = useSyncStatus((s) => s.storagePersisted);
  const [asking, setAsking] = useState(false);
  const canPersist = typeof navigator !== 'undefined' && typeof navigator.storage?.persist === 'function';
  const size = (bytes: number) => formatBytes(bytes, i18n.language);

  return (
    <Box as="section" aria-labelledby="storage-usage-title" borderWidth="1px" borderRadius="l2" px="3" py="3" bg="bg.panel" data-testid="storage-usage">
      <Stack gap="1.5">
        <Heading as="h2" size="md" id="storage-usage-title" display="flex" alignItems="center" gap="2">
          <HardDrive size={18} aria-hidden />
          {t('offlineFiles.storage.title')}
        </Heading>
        {estimate === undefined ? null : estimate?.usage === undefined ? (
          <Text color="fg.muted">{t('offlineFiles.storage.unknown')}</Text>
        ) : (
          <Text data-testid="storage-used">
            {isQuotaMeaningful(estimate) ? t('offlineFiles.storage.usedOf', { used: size(estimate.usage), quota: size(estimate.quota!) }) : t('offlineFiles.storage.used', { used: size(estimate.usage) })}
          </Text>
        )}
        {usage && (
          <Text data-testid="storage-files">
            {t('offlineFiles.storage.files', { count: usage.files, size: size(usage.bytes) })}
            {usage.machines > 0 && ` · ${t('offlineFiles.storage.machines', { count: usage.machines, size: size(usage.pinnedBytes) })}`}
          </Text>
        )}
        {estimate !== undefined && (
          <Text textStyle="sm" color="fg.muted">
            {t('offlineFiles.storage.budget', { size: size(fileCacheBudget(estimate)) })}
          </Text>
        )}
        {persisted === true && (
          <Text textStyle="sm" color="fg.muted" data-testid="storage-persisted">
            {t('offlineFiles.storage.persisted')}
          </Text>
        )}
        {persisted === false && (
          <Text textStyle="sm" color="fg.muted" data-testid="storage-persisted">
            {t('offlineFiles.storage.notPersisted')}
          </Text>
        )}
        {persisted !== true && canPersist && (
          <Button
            size="lg"
            variant="outline"
            alignSelf="start"
            loading={asking}
            onClick={() => {
              setAsking(true);
              void askPersistentStorage().finally(() => setAsking(false));
            }}
          >
            {t('offlineFiles.storage.askPersist')}
          </Button>
        )}
      </Stack>
    </Box>
  );
}
