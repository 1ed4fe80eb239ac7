/**
 * Frame of every private screen: app bar on top; navigation as a side rail from md (960 px: tablets in
 * landscape, desktops) and as a drawer below (tablets in portrait, phones).
 */
import { Box, CloseButton, Drawer, Flex, HStack, Portal, Text } from '@chakra-ui/react';
import { Suspense, useState } from 'react';
import { Outlet } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { AppLogo } from '../components/app-logo';
import { AppToaster } from '../components/app-toaster';
import { LanguageSwitch } from '../components/language-switch';
import { InitialSyncProgress } from '../components/initial-sync-progress';
import { OutdatedTabPrompt } from '../components/outdated-tab-prompt';
import { PageSkeleton } from '../components/page-skeleton';
import { UpdatePrompt } from '../components/update-prompt';
import { useSyncEngineLifecycle } from '../sync/app-sync';
import { AppBar, NAV_DRAWER_ID } from './app-bar';
import { NavList } from './nav-list';

export function AppLayout() {
  const { t } = useTranslation();
  const [navOpen, setNavOpen] = useState(false);
  useSyncEngineLifecycle();

  return (
    <Flex direction="column" minH="100dvh">
      <Box
        asChild
        position="absolute"
        left="2"
        top="-20"
        zIndex="skipLink"
        bg="bg.panel"
        px="4"
        py="3"
        borderRadius="l2"
        boxShadow="md"
        _focus={{ top: '2' }}
      >
        <a href="#main-content">{t('app.skipToContent')}</a>
      </Box>
      <AppBar onOpenNav={() => setNavOpen(true)} navOpen={navOpen} />
      <OutdatedTabPrompt />
      <InitialSyncProgress />
      <UpdatePrompt />
      <AppToaster />
      <Flex flex="1" align="stretch">
        <Box
          as="nav"
          aria-label={t('nav.label')}
          display={{ base: 'none', md: 'block' }}
          w="60"
          flexShrink={0}
          bg="bg.panel"
          borderRightWidth="1px"
          px="3"
          py="4"
          position="sticky"
          top="16"
          alignSelf="flex-start"
          h="calc(100dvh - 4rem)"
          overflowY="auto"
        >
          <NavList />
        </Box>
        <Box as="main" id="main-content" tabIndex={-1} flex="1" minW="0" outline="none">
          <Suspense fallback={<PageSkeleton />}>
            <Outlet />
          </Suspense>
        </Box>
      </Flex>

      {/* The content's id goes through `ids`: an `id` set on the part itself hides the element from the drawer's own
          lookup (no focus trap, no Escape; tests/unit/overlays-mount-lazily.test.ts). */}
      <Drawer.Root
        lazyMount
        unmountOnExit
        ids={{ content: NAV_DRAWER_ID }}
        open={navOpen}
        onOpenChange={(details) => setNavOpen(details.open)}
        placement="start"
      >
        <Portal>
          <Drawer.Backdrop />
          <Drawer.Positioner>
            <Drawer.Content maxW="80">
              <Drawer.Header>
                <HStack gap="3">
                  <AppLogo size={36} />
                  <Drawer.Title asChild>
                    <Text fontWeight="bold">{t('app.name')}</Text>
                  </Drawer.Title>
                </HStack>
              </Drawer.Header>
              <Drawer.Body px="3">
                <nav aria-label={t('nav.label')}>
                  <NavList onNavigate={() => setNavOpen(false)} />
                </nav>
                <Box mt="6" display={{ base: 'block', sm: 'none' }}>
                  <LanguageSwitch />
                </Box>
              </Drawer.Body>
              <Drawer.CloseTrigger asChild>
                <CloseButton size="lg" aria-label={t('nav.close')} />
              </Drawer.CloseTrigger>
            </Drawer.Content>
          </Drawer.Positioner>
        </Portal>
      </Drawer.Root>
    </Flex>
  );
}
