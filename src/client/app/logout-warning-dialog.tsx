/**
 * Logout with unsynced changes or without a connection (docs/sync.md § Storage): says how many changes wait and
 * what becomes of them — unsent ones stay on the device and are sent after this user's next login here; refused
 * ones stay in the sync panel until the user sends them again or discards them (they are never sent by
 * themselves) — offers "Jetzt synchronisieren" first when there is something to send and the server can be
 * reached. Offline it says what a technician would not expect: logging in again needs the network, so until then
 * the device cannot be used at all, not even offline.
 */
import { Button, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { AppDialog } from '../components/app-dialog';

export interface LogoutWarningDialogProps {
  /** Changes not sent yet (the outbox). */
  pending: number;
  /** Changes the server refused (dead letters). */
  refused: number;
  /** The server cannot be reached now: no sync offered, and the warning that logging in again needs it. */
  offline: boolean;
  /** After a sync attempt: how many are still not sent (null = not tried yet, or all sent). */
  stillPending: number | null;
  syncing: boolean;
  onCancel(): void;
  onLogout(): void;
  onSyncFirst(): void;
}

export function LogoutWarningDialog({ pending, refused, offline, stillPending, syncing, onCancel, onLogout, onSyncFirst }: LogoutWarningDialogProps) {
  const { t } = useTranslation();
  const unsynced = pending + refused > 0;
  return (
    <AppDialog
      onClose={onCancel}
      alert
      title={unsynced ? t('sync.logout.title') : t('sync.logout.offlineTitle')}
      footerLayout="wrap"
      footer={
        <>
          <Button variant="ghost" onClick={onCancel}>
            {t('sync.logout.cancel')}
          </Button>
          <Button variant="outline" onClick={onLogout} disabled={syncing}>
            {t('sync.logout.logoutAnyway')}
          </Button>
          {!offline && pending > 0 && (
            <Button colorPalette="brand" onClick={onSyncFirst} loading={syncing}>
              {t('sync.logout.syncFirst')}
            </Button>
          )}
        </>
      }
    >
      {pending > 0 && <Text data-testid="logout-pending">{offline ? t('sync.logout.textOffline', { count: pending }) : t('sync.logout.text', { count: pending })}</Text>}
      {refused > 0 && (
        <Text mt={pending > 0 ? '3' : undefined} data-testid="logout-refused">
          {t('sync.logout.refused', { count: refused })}
        </Text>
      )}
      {stillPending !== null && (
        <Text mt="3" color="orange.fg" fontWeight="medium">
          {t('sync.logout.stillPending', { count: stillPending })}
        </Text>
      )}
      {offline && (
        <Text mt={unsynced ? '3' : undefined} color="red.fg" fontWeight="medium" data-testid="logout-offline">
          {t('sync.logout.offline')}
        </Text>
      )}
    </AppDialog>
  );
}
