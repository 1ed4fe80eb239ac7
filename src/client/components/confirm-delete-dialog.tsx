/** "Deleting equipment, area or pool is confirmed in a dialog" (spec part 2 §4); plants too. */
import { Button, Dialog, Portal, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

export interface ConfirmDeleteDialogProps {
  open: boolean;
  title: string;
  text: string;
  onConfirm(): void;
  onCancel(): void;
  busy?: boolean;
}

export function ConfirmDeleteDialog({ open, title, text, onConfirm, onCancel, busy = false }: ConfirmDeleteDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog.Root open={open} onOpenChange={(details) => !details.open && onCancel()} role="alertdialog">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="confirm-delete-dialog">
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text>{text}</Text>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onCancel}>
                {t('sites.confirm.cancel')}
              </Button>
              <Button colorPalette="red" onClick={onConfirm} loading={busy} data-testid="confirm-delete">
                {t('sites.confirm.delete')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
