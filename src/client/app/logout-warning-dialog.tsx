/**
 * Logout with unsynced changes or without a connection (docs/sync.md § Storage): says how many changes wait, offers
 * "Jetzt synchronisieren" first when the server can be reached, and makes clear that logging out anyway keeps them
 * on the device (they are sent after the next login). Offline it says what a technician would not expect: logging
 * in again needs the network, so until then the device cannot be used at all, not even offline.
 */
import { Button, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { AppDialog } from '../components/app-dialog';

export interface LogoutWarningDialogProps {
  count: number;
  /** The server cannot be reached now: no sync offered, and the warning that logging in again needs it. */
  offline: boolean;
  /** After a sync attempt: how many are still not on the server (null = not tried yet). */
  stillPending: number | null;
  syncing: boolean;
  onCancel(): void;
  onLogout(): void;
  onSyncFirst(): void;
}

export function LogoutWarningDialog({ count, offline, stillPending, syncing, onCancel, onLogout, onSyncFirst }: LogoutWarningDialogProps) {
  const { t } = useTranslation();
  return (
    <AppDialog
      onClose={onCancel}
      alert
      title={count > 0 ? t('sync.logout.title') : t('sync.logout.offlineTitle')}
      footerLayout="wrap"
      footer={
        <>
          <Button variant="ghost" onClick={onCancel}>
            {t('sync.logout.cancel')}
          </Button>
          <Button variant="outline" onClick={onLogout} disabled={syncing}>
            {t('sync.logout.logoutAnyway')}
          </Button>
          {!offline && (
            <Button colorPalette="brand" onClick={onSyncFirst} loading={syncing}>
              {t('sync.logout.syncFirst')}
            </Button>
          )}
        </>
      }
    >
      {count > 0 && <Text>{offline ? t('sync.logout.textOffline', { count }) : t('sync.logout.text', { count })}</Text>}
      {stillPending !== null && (
        <Text mt="3" color="orange.fg" fontWeight="medium">
          {t('sync.logout.stillPending', { count: stillPending })}
        </Text>
      )}
      {offline && (
        <Text mt={count > 0 ? '3' : undefined} color="red.fg" fontWeight="medium" data-testid="logout-offline">
          {t('sync.logout.offline')}
        </Text>
      )}
    </AppDialog>
  );
}
