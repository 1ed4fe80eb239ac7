/**
 * The languages of the app: its interface (src/client/i18n/{de,en}.json) and the localised texts it stores
 * (`{de: 'Halle 1', en: 'Hall 1'}`). German is the default (spec: "all saves use language de"). A closed set,
 * because a request's `lang` becomes a key of stored texts and a key looked up in them.
 */
export const LANGUAGES = ['de', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'de';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}
