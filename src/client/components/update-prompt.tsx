/**
 * "Neue Version verfügbar" when a new service worker waits (register-sw.ts). Reloading is never applied while
 * the outbox is being sent: the button waits until the current send has finished, then reloads.
 */
import { Box, Button, HStack, Text } from '@chakra-ui/react';
import { RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { applyUpdate, onUpdateWaiting } from '../lib/register-sw';
import { syncStore, useSyncStatus } from '../stores/sync-store';

export function UpdatePrompt() {
  const { t } = useTranslation();
  const [waiting, setWaiting] = useState(false);
  const [requested, setRequested] = useState(false);
  const sending = useSyncStatus((s) => s.sending);

  useEffect(() => onUpdateWaiting(() => setWaiting(true)), []);

  useEffect(() => {
    if (!requested) return undefined;
    // why: a reload in the middle of a send would not lose data (the entry stays until acknowledged), but it
    // would cut an upload short and make the user wait for it again; wait for the send to finish instead.
    if (!syncStore.getState().sending) {
      applyUpdate();
      return undefined;
    }
    return syncStore.subscribe((state) => {
      if (!state.sending) applyUpdate();
    });
  }, [requested]);

  if (!waiting) return null;
  return (
    <Box role="status" position="fixed" bottom="4" insetX="0" mx="auto" w="fit-content" maxW="calc(100% - 2rem)" zIndex="toast" bg="gray.900" color="white" borderRadius="l3" boxShadow="lg" px="4" py="3">
      <HStack gap="4" wrap="wrap">
        <Text fontWeight="medium">{t('sync.update.available')}</Text>
        <Button size="md" colorPalette="brand" variant="solid" bg="white" color="brand.700" onClick={() => setRequested(true)} loading={requested} loadingText={sending ? t('sync.update.waitForSync') : undefined}>
          <RefreshCw size={16} aria-hidden />
          {t('sync.update.reload')}
        </Button>
      </HStack>
    </Box>
  );
}
