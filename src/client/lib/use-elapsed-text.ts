/** "gerade eben" / "5 Minuten" / "5 Stunden" / "3 Tage" for an elapsed display of §4.2 (hours under 48 h, else days). */
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ElapsedDisplay } from '../../shared/domain/notification';

/** The duration in words; under a minute "weniger als 1 Minute" (a duration, for "Bearbeitungszeit: …"). */
export function elapsedText(t: TFunction, elapsed: ElapsedDisplay): string {
  if (elapsed.unit === 'now') return t('notificationSlice.elapsed.now');
  return t(`notificationSlice.elapsed.${elapsed.unit}`, { count: elapsed.value });
}

/**
 * "offen seit 5 Minuten"; a report made moments ago is "gerade eben gemeldet", not "offen seit 0 Stunden". Whole
 * sentences per unit, because German takes the dative after "seit" ("seit 2 Tagen", but "Dauer: 2 Tage").
 */
export function openForText(t: TFunction, elapsed: ElapsedDisplay): string {
  if (elapsed.unit === 'now') return t('machine.openFor.now');
  return t(`machine.openFor.${elapsed.unit}`, { count: elapsed.value });
}

export function useElapsedText(): (elapsed: ElapsedDisplay) => string {
  const { t } = useTranslation();
  return (elapsed) => elapsedText(t, elapsed);
}
