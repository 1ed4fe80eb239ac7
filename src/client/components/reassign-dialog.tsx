/**
 * The sync panel's "Andere Maschine wählen": a report the server refused because its machine was deleted while the
 * report waited on the device is given another machine and sent again, with the photos and changes written on it.
 * Nothing the technician entered is lost; the machine they wrote it for is not offered again.
 */
import { Alert, Button, HStack, Stack, Text } from '@chakra-ui/react';
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
  const [needsChoice, setNeedsChoice] = useState(false);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);

  async function reassign() {
    if (!machine) {
      setNeedsChoice(true);
      return;
    }
    setBusy(true);
    setFailed(false);
    try {
      await reassignRefusedChange(item.id, machine);
      onClose();
    } catch {
      // why no detail: the panel's lists show the state that made it fail (a change still queued, the letter
      // handled in another tab) as soon as it changes.
      setFailed(true);
      setBusy(false);
    }
  }

  return (
    <AppDialog
      onClose={onClose}
      title={t('sync.panel.reassignTitle')}
      testId="reassign-dialog"
      size={{ base: 'full', md: 'lg' }}
      footerLayout="stack"
      footer={
        <>
          {failed && (
            <Alert.Root status="error" data-testid="reassign-failed">
              <Alert.Indicator />
              <Alert.Description>{t('sync.panel.reassignFailed')}</Alert.Description>
            </Alert.Root>
          )}
          <HStack gap="2" justify="flex-end" wrap="wrap">
            <Button variant="outline" onClick={onClose}>
              {t('sync.panel.cancel')}
            </Button>
            <Button colorPalette="brand" onClick={() => void reassign()} loading={busy} data-testid="reassign-confirm">
              {t('sync.panel.reassignConfirm')}
            </Button>
          </HStack>
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
            setNeedsChoice(false);
          }}
          error={needsChoice ? t('sync.panel.reassignNeedsChoice') : null}
          language={currentLanguage()}
          {...(item.reassign.machine ? { exclude: item.reassign.machine } : {})}
        />
      </Stack>
    </AppDialog>
  );
}
