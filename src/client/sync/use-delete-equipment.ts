/** Deleting a machine (spec part 2 §2.2, part 1 §2.1): offline-first, then to /dashboard; a failed local write is reported. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { isQuotaExceeded } from '../db/local-db';
import { deleteEquipment } from './repositories/equipment';
import { useWriteContext } from './use-write-context';

/** Used by the equipment form's delete button and the machine screen's options menu. */
export function useDeleteEquipment(onError: (message: string) => void) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const context = useWriteContext();
  const [deleting, setDeleting] = useState(false);

  const remove = async (nodeid: string): Promise<void> => {
    if (!context) return;
    setDeleting(true);
    try {
      await deleteEquipment(context, nodeid);
      void navigate('/dashboard');
    } catch (error) {
      onError(isQuotaExceeded(error) ? t('sync.errors.quota') : t('equipment.errors.saveFailed'));
      setDeleting(false);
    }
  };
  return { remove, deleting };
}
