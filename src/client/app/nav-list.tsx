/** The main-area links, used by the side rail (wide screens) and the drawer (portrait/phone). */
import { Box, Stack } from '@chakra-ui/react';
import { NavLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useIsAdmin } from '../lib/use-permission';
import { visibleNavItems } from './navigation';

export function NavList({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const items = visibleNavItems(useIsAdmin());
  return (
    <Stack as="ul" gap="1" listStyleType="none" m="0" p="0">
      {items.map(({ path, labelKey, icon: Icon }) => (
        <Box as="li" key={path}>
          <Box
            asChild
            display="flex"
            alignItems="center"
            gap="3"
            minH="12"
            px="3"
            borderRadius="l2"
            fontWeight="medium"
            textStyle="md"
            color="fg.muted"
            borderLeftWidth="4px"
            borderLeftColor="transparent"
            _hover={{ bg: 'bg.muted', color: 'fg' }}
            css={{
              '&[aria-current=page]': { bg: 'brand.subtle', color: 'brand.fg', borderLeftColor: 'brand.solid', fontWeight: 'semibold' },
            }}
            focusVisibleRing="inside"
          >
            <NavLink to={path} onClick={onNavigate}>
              <Icon size={22} aria-hidden />
              {t(`nav.${labelKey}`)}
            </NavLink>
          </Box>
        </Box>
      ))}
    </Stack>
  );
}
