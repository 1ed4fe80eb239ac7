/**
 * "Deleting equipment, area or pool is confirmed in a dialog" (spec part 2 §4); plants, machines and a refused
 * change the sync panel discards too: cancel, and the red button that removes it.
 */
import { Button, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { AppDialog } from './app-dialog';

export interface ConfirmDeleteDialogProps {
  open: boolean;
  title: string;
  text: string;
  onConfirm(): void;
  onCancel(): void;
  busy?: boolean;
  /** The buttons' words where "Abbrechen"/"Löschen" would not fit (default: the structure forms'). */
  cancelLabel?: string;
  confirmLabel?: string;
  /** Test id of the red button the e2e page models click. */
  confirmTestId?: string;
}

export function ConfirmDeleteDialog({ open, title, text, onConfirm, onCancel, busy = false, cancelLabel, confirmLabel, confirmTestId = 'confirm-delete' }: ConfirmDeleteDialogProps) {
  const { t } = useTranslation();
  return (
    <AppDialog
      open={open}
      onClose={onCancel}
      alert
      testId="confirm-delete-dialog"
      title={title}
      footer={
        <>
          <Button variant="outline" onClick={onCancel}>
            {cancelLabel ?? t('sites.confirm.cancel')}
          </Button>
          <Button colorPalette="red" onClick={onConfirm} loading={busy} data-testid={confirmTestId}>
            {confirmLabel ?? t('sites.confirm.delete')}
          </Button>
        </>
      }
    >
      <Text>{text}</Text>
    </AppDialog>
  );
}
