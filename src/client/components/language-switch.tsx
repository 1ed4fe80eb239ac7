/** DE | EN toggle. The choice is a device setting (localStorage), kept across logins. */
import { Button, Group } from '@chakra-ui/react';
import { useLanguageChoices } from './use-language-choices';

export function LanguageSwitch({ tone = 'light' }: { tone?: 'light' | 'onBrand' }) {
  const { groupLabel, choices } = useLanguageChoices();
  return (
    <Group attached role="group" aria-label={groupLabel}>
      {choices.map(({ language, selected, label, choose }) => (
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
          aria-label={label}
          lang={language}
          onClick={choose}
        >
          {language.toUpperCase()}
        </Button>
      ))}
    </Group>
  );
}
