/**
 * Logout with unsynced changes (docs/sync.md § Storage): says how many, offers "Jetzt synchronisieren" first,
 * and makes clear that logging out anyway keeps them on the device (they are sent after the next login).
 */
import { Button, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { AppDialog } from '../components/app-dialog';

export interface LogoutWarningDialogProps {
  count: number;
  /** After a sync attempt: how many are still not on the server (null = not tried yet). */
  stillPending: number | null;
  syncing: boolean;
  onCancel(): void;
  onLogout(): void;
  onSyncFirst(): void;
}

export function LogoutWarningDialog({ count, stillPending, syncing, onCancel, onLogout, onSyncFirst }: LogoutWarningDialogProps) {
  const { t } = useTranslation();
  return (
    <AppDialog
      onClose={onCancel}
      alert
      title={t('sync.logout.title')}
      footerLayout="wrap"
      footer={
        <>
          <Button variant="ghost" onClick={onCancel}>
            {t('sync.logout.cancel')}
          </Button>
          <Button variant="outline" onClick={onLogout} disabled={syncing}>
            {t('sync.logout.logoutAnyway')}
          </Button>
          <Button colorPalette="brand" onClick={onSyncFirst} loading={syncing}>
            {t('sync.logout.syncFirst')}
          </Button>
        </>
      }
    >
      <Text>{t('sync.logout.text', { count })}</Text>
      {stillPending !== null && (
        <Text mt="3" color="orange.fg" fontWeight="medium">
          {t('sync.logout.stillPending', { count: stillPending })}
        </Text>
      )}
    </AppDialog>
  );
}
