/**
 * The machine screen's options menu (spec part 1 §2.1): "Bearbeiten" opens the equipment form (/edit-machine),
 * "Löschen" asks first, deletes offline-first and goes to /dashboard. Each item shows only with its `equipment`
 * permission; without either the menu is not shown.
 */
import { IconButton, Menu, Portal } from '@chakra-ui/react';
import { EllipsisVertical, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { usePermission } from '../../lib/use-permission';
import { useDeleteEquipment } from '../../sync/use-delete-equipment';

export function MachineOptionsMenu({ nodeid, name, onError }: { nodeid: string; name: string; onError(message: string): void }) {
  const { t } = useTranslation();
  const canEdit = usePermission('equipment', 'update');
  const canDelete = usePermission('equipment', 'delete');
  const [confirming, setConfirming] = useState(false);
  const { remove, deleting } = useDeleteEquipment((message) => {
    setConfirming(false);
    onError(message);
  });
  if (!canEdit && !canDelete) return null;

  return (
    <>
      <Menu.Root positioning={{ placement: 'bottom-end' }}>
        <Menu.Trigger asChild>
          <IconButton variant="ghost" size="lg" aria-label={t('machine.options.label')} data-testid="machine-options">
            <EllipsisVertical aria-hidden />
          </IconButton>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content minW="48">
              {canEdit && (
                <Menu.Item value="edit" asChild minH="11" textStyle="md">
                  <RouterLink to={`/edit-machine?nodeid=${nodeid}`}>
                    <Pencil size={18} aria-hidden />
                    {t('machine.options.edit')}
                  </RouterLink>
                </Menu.Item>
              )}
              {canDelete && (
                <Menu.Item value="delete" minH="11" textStyle="md" color="fg.error" _hover={{ bg: 'bg.error', color: 'fg.error' }} onSelect={() => setConfirming(true)}>
                  <Trash2 size={18} aria-hidden />
                  {t('machine.options.delete')}
                </Menu.Item>
              )}
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
      <ConfirmDeleteDialog
        open={confirming}
        title={t('equipment.delete.title')}
        text={t('equipment.delete.text', { name })}
        busy={deleting}
        onConfirm={() => void remove(nodeid)}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
