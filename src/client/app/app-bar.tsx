/** Top bar of the private screens: menu button (narrow screens), product, page title, state, language, user. */
import { Box, Flex, Heading, HStack, IconButton, Separator, Text } from '@chakra-ui/react';
import { Menu as MenuIcon } from 'lucide-react';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { AppLogo } from '../components/app-logo';
import { LanguageSwitch } from '../components/language-switch';
import { OnlineIndicator } from '../components/online-indicator';
import { SyncStatusSlot } from '../components/sync-status-slot';
import { ScanButton } from '../features/scan/scan-button';
import { HOME_PATH } from './guards';
import { usePageTitle } from './use-page-title';
import { UserMenu } from './user-menu';

/** The navigation drawer's content (app-layout.tsx), named by the menu button while the drawer is open. */
export const NAV_DRAWER_ID = 'app-nav-drawer';

export function AppBar({ onOpenNav, navOpen }: { onOpenNav: () => void; navOpen: boolean }) {
  const { t } = useTranslation();
  const title = usePageTitle();
  return (
    <Flex as="header" position="sticky" top="0" zIndex="sticky" h="16" align="center" gap={{ base: '2', md: '4' }} px={{ base: '2', md: '4' }} bg="brand.solid" color="white" boxShadow="sm">
      <IconButton
        display={{ base: 'inline-flex', md: 'none' }}
        variant="ghost"
        color="white"
        _hover={{ bg: 'whiteAlpha.200' }}
        aria-label={t('nav.open')}
        aria-expanded={navOpen}
        // The drawer is mounted only while open (app-layout.tsx).
        aria-controls={navOpen ? NAV_DRAWER_ID : undefined}
        onClick={onOpenNav}
      >
        <MenuIcon />
      </IconButton>
      <HStack asChild gap="3" minH="11" minW="11" justify="center" flexShrink={0} borderRadius="l2" focusVisibleRing="outside">
        <RouterLink to={HOME_PATH} aria-label={t('app.name')}>
          <Box borderRadius="l3" boxShadow="0 0 0 1px rgba(255, 255, 255, 0.35)" lineHeight="0">
            <AppLogo size={36} />
          </Box>
          {/* Below lg the logo alone names the app: portrait needs the room for the page title and the sync text. */}
          <Text as="span" fontWeight="bold" fontSize="lg" letterSpacing="tight" display={{ base: 'none', lg: 'inline' }}>
            {t('app.name')}
          </Text>
        </RouterLink>
      </HStack>
      {title && (
        <>
          <Separator orientation="vertical" h="8" borderColor="whiteAlpha.400" display={{ base: 'none', lg: 'block' }} />
          <Heading as="h1" size="lg" fontWeight="semibold" truncate minW="0">
            {title}
          </Heading>
        </>
      )}
      <Box flex="1" />
      <HStack gap={{ base: '2', md: '3' }} flexShrink={0}>
        <ScanButton />
        <SyncStatusSlot />
        <OnlineIndicator />
        <Box display={{ base: 'none', sm: 'block' }}>
          <LanguageSwitch tone="onBrand" />
        </Box>
        <UserMenu />
      </HStack>
    </Flex>
  );
}
