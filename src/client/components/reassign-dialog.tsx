/**
 * The sync panel's "Andere Maschine wählen": a report the server refused because its machine was deleted while the
 * report waited on the device is given another machine and sent again, with the photos and changes written on it.
 * Nothing the technician entered is lost; the machine they wrote it for is not offered again.
 */
import { Button, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppDialog } from './app-dialog';
import { EquipmentPicker } from './equipment-picker';
import { currentLanguage } from '../lib/i18n';
import { reassignRefusedChange } from '../sync/app-sync';
import type { SyncListItem } from '../sync/use-sync-lists';

export interface ReassignDialogProps {
  item: SyncListItem & { reassign: NonNullable<SyncListItem['reassign']> };
  /** What the report is called: its title, else the item in words as the panel shows it. */
  title: string;
  onClose(): void;
}

export function ReassignDialog({ item, title, onClose }: ReassignDialogProps) {
  const { t } = useTranslation();
  const [machine, setMachine] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function reassign() {
    if (!machine) {
      setError(t('sync.panel.reassignNeedsChoice'));
      return;
    }
    setBusy(true);
    try {
      await reassignRefusedChange(item.id, machine);
      onClose();
    } catch {
      setError(t('sync.panel.reassignFailed'));
      setBusy(false);
    }
  }

  return (
    <AppDialog
      onClose={onClose}
      title={t('sync.panel.reassignTitle')}
      testId="reassign-dialog"
      size={{ base: 'full', md: 'lg' }}
      footerLayout="wrap"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {t('sync.panel.cancel')}
          </Button>
          <Button colorPalette="brand" onClick={() => void reassign()} loading={busy} data-testid="reassign-confirm">
            {t('sync.panel.reassignConfirm')}
          </Button>
        </>
      }
    >
      <Stack gap="4">
        <Text>{t('sync.panel.reassignText', { title })}</Text>
        {item.reassign.followers > 0 && <Text color="fg.muted">{t('sync.panel.reassignFollowers', { count: item.reassign.followers })}</Text>}
        <EquipmentPicker
          value={machine}
          onChange={(nodeid) => {
            setMachine(nodeid);
            setError(null);
          }}
          error={error}
          language={currentLanguage()}
          {...(item.reassign.machine ? { exclude: item.reassign.machine } : {})}
        />
      </Stack>
    </AppDialog>
  );
}
