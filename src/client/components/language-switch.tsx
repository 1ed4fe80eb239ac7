/** DE | EN toggle. The choice is a device setting (localStorage), kept across logins. */
import { Button, Group } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { changeLanguage, LANGUAGES } from '../lib/i18n';

export function LanguageSwitch({ tone = 'light' }: { tone?: 'light' | 'onBrand' }) {
  const { t, i18n } = useTranslation();
  const active = i18n.resolvedLanguage;
  return (
    <Group attached role="group" aria-label={t('appBar.language')}>
      {LANGUAGES.map((language) => {
        const selected = active === language;
        return (
          <Button
            key={language}
            size="lg"
            minW="11"
            px="3"
            variant={selected ? 'solid' : 'outline'}
            colorPalette={tone === 'onBrand' ? 'gray' : 'brand'}
            {...(tone === 'onBrand'
              ? { bg: selected ? 'white' : 'transparent', color: selected ? 'brand.700' : 'white', borderColor: 'whiteAlpha.600', _hover: { bg: selected ? 'white' : 'whiteAlpha.200' } }
              : {})}
            aria-pressed={selected}
            aria-label={t('appBar.switchTo', { language: t(`language.${language}`) })}
            lang={language}
            onClick={() => void changeLanguage(language)}
          >
            {language.toUpperCase()}
          </Button>
        );
      })}
    </Group>
  );
}
