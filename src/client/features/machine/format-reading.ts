/** A counter reading for display: de-DE number format for German, en-US otherwise (part 1 §9), with the unit. */
export function formatReading(value: number, language: string, unit: string | null): string {
  const number = new Intl.NumberFormat(language === 'de' ? 'de-DE' : 'en-US', { maximumFractionDigits: 3 }).format(value);
  return unit ? `${number} ${unit}` : number;
}

/** Elapsed hours for the "faster than the clock" warning, in hours like the counter it is compared with. */
export function formatHours(hours: number, language: string): string {
  const number = new Intl.NumberFormat(language === 'de' ? 'de-DE' : 'en-US', { maximumFractionDigits: 1 }).format(hours);
  return `${number} h`;
}
