/** "5 Stunden" / "3 Tage" for an elapsed display of §4.2 (hours under 48 h, else days). */
import { useTranslation } from 'react-i18next';
import type { ElapsedDisplay } from '../../shared/domain/notification';

export function useElapsedText(): (elapsed: ElapsedDisplay) => string {
  const { t } = useTranslation();
  return (elapsed) => (elapsed.unit === 'hours' ? t('notificationSlice.elapsed.hours', { count: elapsed.value }) : t('notificationSlice.elapsed.days', { count: elapsed.value }));
}
