/**
 * Texts a user writes in their language are stored per language (`{de: '…', en: '…'}`): writing one language
 * keeps the others. Shared by the device's mirror and the server's rows, so both store the same object.
 */
export type LocalizedText = Record<string, string>;

const asLocalized = (value: unknown): LocalizedText => (value && typeof value === 'object' && !Array.isArray(value) ? (value as LocalizedText) : {});

/** `text` with `value` written under `lang`, the other languages kept. */
export function withLanguage(text: unknown, lang: string, value: string): LocalizedText {
  return { ...asLocalized(text), [lang]: value };
}

/** `text` without `lang`; null once no language is left. */
export function withoutLanguage(text: unknown, lang: string): LocalizedText | null {
  const rest = Object.fromEntries(Object.entries(asLocalized(text)).filter(([key]) => key !== lang));
  return Object.keys(rest).length > 0 ? rest : null;
}
