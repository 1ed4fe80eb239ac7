/**
 * The app bar's sync state: what the user did that is not sent yet (user actions, not requests), sending, last
 * successful sync (DD.MM.YYYY HH:mm), and only what the user must act on as a problem (refused changes, logged
 * out, storage full). Being offline is not a problem: changes stay on the device. "Synchronisiert" also means the
 * device can start the app offline: while the service worker still stores the app's files it says so instead
 * (lib/offline-readiness.ts). A button: it opens the sync panel with the details. Its accessible name is its
 * visible text (no aria-label that could say something else), and the short text shows in portrait too, beside the
 * icon.
 */
import { Badge, Box, Button, Text } from '@chakra-ui/react';
import { CloudAlert, CloudCheck, CloudDownload, CloudOff, CloudUpload } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../lib/dates';
import { useOfflineReadiness, type OfflineReadiness } from '../lib/offline-readiness';
import { useSyncStatus, type SyncStatus } from '../stores/sync-store';
// why lazy: the panel reads the outbox through Dexie; loading it on first open keeps Dexie out of the shell chunk.
const SyncPanel = lazy(() => import('./sync-panel').then((module) => ({ default: module.SyncPanel })));

type SlotState = Pick<SyncStatus, 'pendingCount' | 'deadLetterCount' | 'stuck' | 'sending' | 'pulling' | 'online' | 'error' | 'lastSyncAt' | 'serverLostWrites'> & {
  /** Whether the app's files are stored for offline starts (undefined: not known, as `unknown`). */
  offline?: OfflineReadiness;
};

type HeadlineKey =
  | 'sync.deadLetters'
  | 'sync.deadLettersAndPending'
  | 'sync.problem.stuck'
  | 'sync.problem.session'
  | 'sync.problem.quota'
  | 'sync.problem.devices'
  | 'sync.sending'
  | 'sync.pending'
  | 'sync.syncing'
  | 'sync.preparingOffline'
  | 'sync.synced'
  | 'sync.neverSynced';

/**
 * Something the user has to do: a change the server refused, one it keeps failing on (set it aside), writes a
 * restored server lost, a new login, free storage.
 */
export function syncProblem(state: SlotState): boolean {
  return state.deadLetterCount > 0 || state.stuck || state.serverLostWrites > 0 || state.error?.kind === 'session' || state.error?.kind === 'quota' || state.error?.kind === 'devices';
}

/**
 * The slot's short text as an i18n key and its counts, in order of what matters most to the user. Refused changes
 * come first, but unsent ones beside them are named too (the badge counts both; the text must not hide either).
 */
export function syncHeadline(state: SlotState): { key: HeadlineKey; count?: number; pending?: number } {
  if (state.deadLetterCount > 0 && state.pendingCount > 0) return { key: 'sync.deadLettersAndPending', count: state.deadLetterCount, pending: state.pendingCount };
  if (state.deadLetterCount > 0) return { key: 'sync.deadLetters', count: state.deadLetterCount };
  if (state.error?.kind === 'session') return { key: 'sync.problem.session' };
  if (state.error?.kind === 'quota') return { key: 'sync.problem.quota' };
  if (state.error?.kind === 'devices') return { key: 'sync.problem.devices' };
  // After a new login or free storage: setting aside needs the session, and a full disk stops every write.
  if (state.stuck) return { key: 'sync.problem.stuck' };
  if (state.sending) return { key: 'sync.sending' };
  if (state.pendingCount > 0) return { key: 'sync.pending', count: state.pendingCount };
  if (state.pulling) return { key: 'sync.syncing' };
  if (state.offline === 'preparing') return { key: 'sync.preparingOffline' };
  return { key: state.lastSyncAt ? 'sync.synced' : 'sync.neverSynced' };
}

export function SyncStatusSlot() {
  const { t } = useTranslation();
  const [open, setOpenState] = useState(false);
  const [everOpened, setEverOpened] = useState(false);
  const setOpen = (next: boolean) => {
    if (next) setEverOpened(true);
    setOpenState(next);
  };
  const state: SlotState = {
    pendingCount: useSyncStatus((s) => s.pendingCount),
    deadLetterCount: useSyncStatus((s) => s.deadLetterCount),
    stuck: useSyncStatus((s) => s.stuck),
    sending: useSyncStatus((s) => s.sending),
    pulling: useSyncStatus((s) => s.pulling),
    online: useSyncStatus((s) => s.online),
    error: useSyncStatus((s) => s.error),
    lastSyncAt: useSyncStatus((s) => s.lastSyncAt),
    serverLostWrites: useSyncStatus((s) => s.serverLostWrites),
    offline: useOfflineReadiness(),
  };
  const { pendingCount: pending, deadLetterCount: refused, online, error, lastSyncAt } = state;

  const problem = syncProblem(state);
  const headline = syncHeadline(state);
  const Icon = problem ? CloudAlert : !online || error?.kind === 'network' ? CloudOff : pending > 0 || state.sending ? CloudUpload : headline.key === 'sync.preparingOffline' ? CloudDownload : CloudCheck;

  return (
    <Box data-slot="sync-status">
      <Button
        variant="ghost"
        color="white"
        _hover={{ bg: 'whiteAlpha.200' }}
        px="2"
        gap={{ base: '3', lg: '3.5' }}
        h="11"
        minW="11"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        data-pending={pending}
        data-refused={refused}
        data-problem={problem}
        data-offline-ready={state.offline}
      >
        <Box position="relative" lineHeight="0">
          <Icon size={22} aria-hidden />
          {pending + refused > 0 && (
            // why aria-hidden: the count is in the text beside it; read twice it would be noise.
            <Badge aria-hidden position="absolute" top="-2" right="-2.5" minW="5" h="5" px="1" borderRadius="full" justifyContent="center" variant="solid" colorPalette={problem ? 'red' : 'orange'} fontSize="xs">
              {pending + refused}
            </Badge>
          )}
        </Box>
        <Box textAlign="start" lineHeight="short" maxW={{ base: '8.5rem', lg: 'none' }} whiteSpace={{ base: 'normal', lg: 'nowrap' }}>
          <Text as="span" display="block" fontSize={{ base: 'xs', lg: 'sm' }} fontWeight="semibold" data-testid="sync-headline">
            {t(headline.key, { ...(headline.count === undefined ? {} : { count: headline.count }), ...(headline.pending === undefined ? {} : { pending: headline.pending }) })}
          </Text>
          {lastSyncAt && (
            <Text as="span" display={{ base: 'none', lg: 'block' }} fontSize="xs" opacity={0.85}>
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
