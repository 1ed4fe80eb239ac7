/** A counter reading for display: de-DE number format for German, en-US otherwise (part 1 §9), with the unit. */
export function formatReading(value: number, language: string, unit: string | null): string {
  const number = new Intl.NumberFormat(language === 'de' ? 'de-DE' : 'en-US', { maximumFractionDigits: 3 }).format(value);
  return unit ? `${number} ${unit}` : number;
}

/**
 * Elapsed hours for the "faster than the clock" warning, in hours like the counter it is compared with; under an
 * hour in minutes (at least 1), since a reading taken minutes after the last one read "0 h vergangen".
 */
export function formatHours(hours: number, language: string): string {
  const format = new Intl.NumberFormat(language === 'de' ? 'de-DE' : 'en-US', { maximumFractionDigits: 1 });
  if (hours < 0.95) return `${format.format(Math.max(1, Math.round(hours * 60)))} min`;
  return `${format.format(hours)} h`;
}
