/** The DE | EN choices of a language switch: which is active, its accessible name, and how to pick it. */
import { useTranslation } from 'react-i18next';
import { changeLanguage, LANGUAGES, type Language } from '../lib/i18n';

export interface LanguageChoice {
  language: Language;
  selected: boolean;
  /** "Sprache: Englisch" — the button's accessible name. */
  label: string;
  choose(): void;
}

export function useLanguageChoices(): { groupLabel: string; choices: LanguageChoice[] } {
  const { t, i18n } = useTranslation();
  const active = i18n.resolvedLanguage;
  return {
    groupLabel: t('appBar.language'),
    choices: LANGUAGES.map((language) => ({
      language,
      selected: active === language,
      label: t('appBar.switchTo', { language: t(`language.${language}`) }),
      choose: () => void changeLanguage(language),
    })),
  };
}
