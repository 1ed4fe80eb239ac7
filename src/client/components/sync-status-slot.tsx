/**
 * The app bar's sync state: unsent changes (count), sending, last successful sync (DD.MM.YYYY HH:mm), refused
 * changes and errors. A button: it opens the sync panel with the details.
 */
import { Badge, Box, Button, Text } from '@chakra-ui/react';
import { CloudAlert, CloudCheck, CloudOff, CloudUpload } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../lib/dates';
import { useSyncStatus } from '../stores/sync-store';
// why lazy: the panel reads the outbox through Dexie; loading it on first open keeps Dexie out of the shell chunk.
const SyncPanel = lazy(() => import('./sync-panel').then((module) => ({ default: module.SyncPanel })));

export function SyncStatusSlot() {
  const { t } = useTranslation();
  const [open, setOpenState] = useState(false);
  const [everOpened, setEverOpened] = useState(false);
  const setOpen = (next: boolean) => {
    if (next) setEverOpened(true);
    setOpenState(next);
  };
  const pending = useSyncStatus((s) => s.pendingCount);
  const refused = useSyncStatus((s) => s.deadLetterCount);
  const sending = useSyncStatus((s) => s.sending);
  const pulling = useSyncStatus((s) => s.pulling);
  const online = useSyncStatus((s) => s.online);
  const error = useSyncStatus((s) => s.error);
  const lastSyncAt = useSyncStatus((s) => s.lastSyncAt);
  const lost = useSyncStatus((s) => s.serverLostWrites);

  const problem = refused > 0 || lost > 0 || (error !== null && error.kind !== 'network');
  const Icon = problem ? CloudAlert : !online || error?.kind === 'network' ? CloudOff : pending > 0 || sending ? CloudUpload : CloudCheck;
  const headline = sending ? t('sync.sending') : pending > 0 ? t('sync.pendingShort', { count: pending }) : pulling ? t('sync.syncing') : lastSyncAt ? t('sync.synced') : t('sync.neverSynced');
  const last = lastSyncAt ? t('sync.lastSync', { time: formatDateTime(lastSyncAt) }) : t('sync.neverSynced');
  const summary = [pending > 0 ? t('sync.pending', { count: pending }) : t('sync.synced'), refused > 0 ? t('sync.deadLetters', { count: refused }) : null, last, error ? t(`sync.errors.${error.kind}`) : null]
    .filter(Boolean)
    .join(' · ');

  return (
    <Box data-slot="sync-status">
      <Button
        variant="ghost"
        color="white"
        _hover={{ bg: 'whiteAlpha.200' }}
        px="2"
        gap="3.5"
        h="11"
        minW="11"
        onClick={() => setOpen(true)}
        aria-label={t('sync.slotLabel', { state: summary })}
        title={summary}
        data-pending={pending}
        data-refused={refused}
      >
        <Box position="relative" lineHeight="0">
          <Icon size={22} aria-hidden />
          {pending + refused > 0 && (
            <Badge position="absolute" top="-2" right="-2.5" minW="5" h="5" px="1" borderRadius="full" justifyContent="center" variant="solid" colorPalette={problem ? 'red' : 'orange'} fontSize="xs">
              {pending + refused}
            </Badge>
          )}
        </Box>
        <Box display={{ base: 'none', lg: 'block' }} textAlign="start" lineHeight="short">
          <Text as="span" display="block" fontSize="sm" fontWeight="semibold">
            {problem && refused > 0 ? t('sync.deadLetters', { count: refused }) : headline}
          </Text>
          {lastSyncAt && (
            <Text as="span" display="block" fontSize="xs" opacity={0.85}>
              {formatDateTime(lastSyncAt)}
            </Text>
          )}
        </Box>
      </Button>
      {(open || everOpened) && (
        <Suspense fallback={null}>
          <SyncPanel open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </Box>
  );
}
