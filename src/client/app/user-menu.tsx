/** The user's menu in the app bar: name and e-mail, profile link (once /profile exists), logout. */
import { Avatar, Box, Button, Menu, Portal, Text } from '@chakra-ui/react';
import { ChevronDown, LogOut, UserRound } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useMenuFocusReturn } from '../components/use-menu-focus-return';
import { logout, unsyncedChanges } from '../features/auth/session-actions';
import { syncNow } from '../sync/app-sync';
import { useSessionStore } from '../stores/session-store';
import { syncStore } from '../stores/sync-store';
import { isRouteReady } from './route-table';

// why lazy: the dialog is rare (logout with unsynced changes or offline); keeping it out of the shell chunk keeps that small.
const LogoutWarningDialog = lazy(() => import('./logout-warning-dialog').then((module) => ({ default: module.LogoutWarningDialog })));

/** No way to the server now: the browser says it is offline, or the last sync found the server unreachable. */
function isOffline(): boolean {
  return (typeof navigator !== 'undefined' && !navigator.onLine) || !syncStore.getState().online;
}

export function UserMenu() {
  const { t } = useTranslation();
  const userinfo = useSessionStore((state) => state.session?.userinfo);
  const [busy, setBusy] = useState(false);
  /** Unsynced changes and the connection when the warning opened; null = dialog closed. */
  const [warning, setWarning] = useState<{ pending: number; refused: number; offline: boolean } | null>(null);
  const [syncing, setSyncing] = useState(false);
  const [stillPending, setStillPending] = useState<number | null>(null);
  const focusReturn = useMenuFocusReturn();
  if (!userinfo) return null;
  const name = `${userinfo.givenname} ${userinfo.surname}`.trim();

  const doLogout = async () => {
    setWarning(null);
    setBusy(true);
    try {
      await logout(); // the private-route guard then shows /login
    } finally {
      setBusy(false);
    }
  };

  const onLogout = () => {
    const unsynced = unsyncedChanges();
    const offline = isOffline();
    if (unsynced.pending + unsynced.refused > 0 || offline) {
      setStillPending(null);
      setWarning({ ...unsynced, offline });
      return;
    }
    void doLogout();
  };

  const onSyncFirst = async () => {
    setSyncing(true);
    try {
      await syncNow();
    } finally {
      setSyncing(false);
    }
    const left = unsyncedChanges();
    if (left.pending + left.refused === 0 && !isOffline()) await doLogout();
    else {
      // A sync that could not reach the server: say so, instead of only "not everything sent".
      setStillPending(left.pending > 0 ? left.pending : null);
      setWarning({ ...left, offline: isOffline() });
    }
  };

  return (
    <>
      <Menu.Root lazyMount unmountOnExit positioning={{ placement: 'bottom-end' }} onExitComplete={focusReturn.onExitComplete}>
        <Menu.Trigger asChild ref={focusReturn.triggerRef}>
          <Button variant="ghost" color="white" _hover={{ bg: 'whiteAlpha.200' }} _expanded={{ bg: 'whiteAlpha.200' }} px="2" gap="2" aria-label={t('appBar.userMenu', { name })} loading={busy}>
            <Avatar.Root size="sm" colorPalette="brand" variant="solid" bg="white" color="brand.700">
              <Avatar.Fallback name={name} />
            </Avatar.Root>
            <Box as="span" display={{ base: 'none', lg: 'inline' }} maxW="48" truncate>
              {name}
            </Box>
            <ChevronDown size={18} aria-hidden />
          </Button>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content ref={focusReturn.contentRef} minW="64">
              <Box px="3" py="2">
                <Text fontWeight="semibold">{name}</Text>
                <Text textStyle="sm" color="fg.muted" truncate>
                  {userinfo.email}
                </Text>
              </Box>
              <Menu.Separator />
              {isRouteReady('/profile') && (
                <Menu.Item value="profile" asChild minH="11" textStyle="md">
                  <RouterLink to="/profile">
                    <UserRound size={18} aria-hidden />
                    {t('appBar.profile')}
                  </RouterLink>
                </Menu.Item>
              )}
              <Menu.Item value="logout" minH="11" textStyle="md" onSelect={onLogout}>
                <LogOut size={18} aria-hidden />
                {t('appBar.logout')}
              </Menu.Item>
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
      {warning !== null && (
      <Suspense fallback={null}>
        <LogoutWarningDialog pending={warning.pending} refused={warning.refused} offline={warning.offline} stillPending={stillPending} syncing={syncing} onCancel={() => setWarning(null)} onLogout={() => void doLogout()} onSyncFirst={() => void onSyncFirst()} />
      </Suspense>
    )}
    </>
  );
}
