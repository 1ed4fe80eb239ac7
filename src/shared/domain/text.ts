/** Display truncation of §9 ("notification header title 50", "card and badge text 20", …). */

/** `text` cut to at most `max` characters, the last one an ellipsis when something was cut. */
export function truncateText(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  return `${chars.slice(0, Math.max(0, max - 1)).join('').trimEnd()}…`;
}
