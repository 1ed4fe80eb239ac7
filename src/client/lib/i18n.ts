/**
 * i18next setup. German is the default and the reference: every key exists in de.json, and en.json must have
 * the same keys (tests/unit/i18n.test.ts). Keys are typed from de.json, so a typo is a compile error.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type de from '../i18n/de.json';
import deShell from 'virtual:texts/de-shell';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from '../../shared/domain/language';

export { DEFAULT_LANGUAGE, LANGUAGES, type Language };
const LANGUAGE_STORAGE_KEY = 'anlagenbuch.language';

export type PageTitleKey = keyof typeof de.pages;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof de };
  }
}

function storedLanguage(): Language {
  try {
    const value = globalThis.localStorage?.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(value) ? value : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

export const i18n = i18next.createInstance();

// why lazy: German is the default and the fallback, so its shell namespaces are bundled (the rest: loadAppTexts);
// English (~13 KB gzip) loads only for a device set to English, before the first render (main.tsx waits for
// whenLanguageLoaded), or when the user switches.
const LOAD_RESOURCES: Record<Language, () => Promise<object>> = {
  de: () => Promise.resolve(deShell),
  en: () => import('../i18n/en.json').then((module) => module.default),
};
let appTexts: Promise<void> | undefined;

/**
 * Adds the German texts beyond the shell namespaces (src/client/i18n/shell-namespaces.ts) — German is every
 * language's fallback. The router loads it with every screen but the login and with the app frame, so no component
 * outside the shell renders before its texts are there.
 */
export function loadAppTexts(): Promise<void> {
  appTexts ??= import('virtual:texts/de-app').then(
    (module) => {
      i18n.addResourceBundle(DEFAULT_LANGUAGE, 'translation', module.default, true, false);
    },
    (error: unknown) => {
      appTexts = undefined; // tried again with the next screen
      throw error;
    },
  );
  return appTexts;
}
let languageLoaded: Promise<void> = Promise.resolve();

async function ensureResources(language: Language): Promise<void> {
  if (i18n.hasResourceBundle(language, 'translation')) return;
  i18n.addResourceBundle(language, 'translation', await LOAD_RESOURCES[language]());
}

/** Resolves when the language chosen at init has its texts (at once for German). */
export function whenLanguageLoaded(): Promise<void> {
  return languageLoaded;
}

/** What a `{{value, number(…)}}` may set of Intl.NumberFormat; every other option i18next passes is the t() call's own. */
const NUMBER_FORMAT_OPTIONS = [
  'style', 'currency', 'currencyDisplay', 'unit', 'unitDisplay', 'notation', 'compactDisplay', 'signDisplay', 'useGrouping',
  'minimumIntegerDigits', 'minimumFractionDigits', 'maximumFractionDigits', 'minimumSignificantDigits', 'maximumSignificantDigits',
] as const;
const numberFormats = new Map<string, { format: Intl.NumberFormat; texts: Map<unknown, string> }>();
/** Formatted values kept per format: counts repeat (a list's rows), and each `format` call costs ~0.1 ms at 4× CPU. */
const NUMBER_TEXTS_KEPT = 2048;

/**
 * The `number` format of the texts (`{{count, number}}`): one Intl.NumberFormat per language and format options,
 * and each value formatted once. i18next's own cache keys a formatter by every option of the t() call, the count
 * among them, so every new count built a new formatter (and every call stringified its options). The first
 * formatter of a page is the expensive one (~55 ms at 4× CPU in the W1 profile: the browser loads its number data);
 * the login warms it (app/prefetch.ts).
 */
export function formatNumberText(value: unknown, language: string | undefined, options: Record<string, unknown> = {}): string {
  const chosen: Record<string, unknown> = {};
  for (const option of NUMBER_FORMAT_OPTIONS) if (options[option] !== undefined) chosen[option] = options[option];
  const key = `${language ?? DEFAULT_LANGUAGE}${JSON.stringify(chosen)}`;
  let entry = numberFormats.get(key);
  if (!entry) {
    entry = { format: new Intl.NumberFormat(language ?? DEFAULT_LANGUAGE, chosen as Intl.NumberFormatOptions), texts: new Map() };
    numberFormats.set(key, entry);
  }
  let text = entry.texts.get(value);
  if (text === undefined) {
    text = entry.format.format(value as number);
    if (entry.texts.size >= NUMBER_TEXTS_KEPT) entry.texts.clear();
    entry.texts.set(value, text);
  }
  return text;
}

export function initI18n(language: Language = storedLanguage()): typeof i18n {
  if (i18n.isInitialized) return i18n;
  void i18n.use(initReactI18next).init({
    resources: { de: { translation: deShell } },
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    // why: resources are bundled, so init can finish synchronously and the first render is already translated.
    initAsync: false,
    interpolation: { escapeValue: false }, // React escapes
  });
  i18n.services.formatter?.add('number', formatNumberText);
  syncDocumentLanguage(language);
  if (language !== DEFAULT_LANGUAGE) {
    languageLoaded = ensureResources(language)
      .then(() => i18n.changeLanguage(language))
      .then(
        () => undefined,
        // Offline without the chunk cached: the UI stays German (the fallback) rather than not starting.
        () => undefined,
      );
  }
  return i18n;
}

export function currentLanguage(): Language {
  return isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : DEFAULT_LANGUAGE;
}

/** Switches the UI language and remembers it on this device (it is a device setting, not session data). */
export async function changeLanguage(language: Language): Promise<void> {
  await ensureResources(language);
  await i18n.changeLanguage(language);
  try {
    globalThis.localStorage?.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // storage full or blocked: the choice lasts for this visit only
  }
  syncDocumentLanguage(language);
}

function syncDocumentLanguage(language: Language): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}
