/** Display truncation of §9 ("notification header title 50", "card and badge text 20", …). */

/** `text` cut to at most `max` characters, the last one an ellipsis when something was cut. */
export function truncateText(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  return `${chars.slice(0, Math.max(0, max - 1)).join('').trimEnd()}…`;
}

const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * A localised text ({de: 'Halle 1', en: 'Hall 1'}) in `lang`, else German, else any language's; null when it has
 * none (an empty or blank text counts as none). A plain string is itself: a route's answer merged into a device's mirror
 * may hold the text already picked. Only own keys are read, because `lang` comes from a request or a device:
 * `__proto__` or `toString` must find nothing, not Object.prototype.
 */
export function localized(value: unknown, lang: string): string | null {
  if (typeof value === 'string') return isText(value) ? value : null;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const texts = value as Record<string, unknown>;
  const inLanguage = (key: string) => (Object.hasOwn(texts, key) && isText(texts[key]) ? texts[key] : undefined);
  return inLanguage(lang) ?? inLanguage('de') ?? Object.values(texts).find(isText) ?? null;
}

/**
 * The text stored under exactly `lang` (no fallback), undefined when there is none. Own keys only, like
 * `localized`: `lang` comes from a request or a device.
 */
export function textIn(value: unknown, lang: string): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  // eslint-disable-next-line no-restricted-syntax -- guarded by Object.hasOwn: the one place such a lookup is safe
  return Object.hasOwn(value, lang) ? (value as Record<string, unknown>)[lang] : undefined;
}

/** A localised text with `value` written under `lang`, the other languages kept (a computed key: own property). */
export function withLanguage(current: unknown, lang: string, value: string): Record<string, string> {
  const texts = current && typeof current === 'object' && !Array.isArray(current) ? (current as Record<string, string>) : {};
  return { ...texts, [lang]: value };
}

/**
 * Whether two names are the same name to a user: case and surrounding spaces aside (accents count: "Presse" is not
 * "Pressé"). What a new catalogue entry or counter type is checked against, so no second entry of the same name
 * appears in a picker where the two cannot be told apart.
 */
export function sameName(a: string, b: string): boolean {
  return a.trim().localeCompare(b.trim(), 'de', { sensitivity: 'accent' }) === 0;
}
