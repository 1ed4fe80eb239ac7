/**
 * The design-system frame: Chakra UI's system (theme.ts) around every route but the login, loaded as a chunk of
 * its own. The login renders without it (features/auth/login-screen.tsx), so a new device's first page needs
 * neither Chakra's runtime nor the theme (docs/decisions.md, "The login without the design system"). A cold start
 * of any other route asks for this chunk at once, with the screen (prefetch.ts).
 *
 * The system's global CSS (reset, global styles, token variables) is a stylesheet made from the theme by the build,
 * loaded with this chunk, instead of built and inserted by Chakra's provider on every start
 * (scripts/vite-chakra-global-css.ts). It stays once loaded; the login's own styles are made to sit on top of it.
 */
import { ChakraProvider } from '@chakra-ui/react';
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import 'virtual:chakra-global.css';
import { PageSkeleton } from '../components/page-skeleton';
import { system } from './theme';

export function DesignSystemFrame() {
  return (
    <ChakraProvider value={system}>
      <Suspense fallback={<PageSkeleton />}>
        <Outlet />
      </Suspense>
    </ChakraProvider>
  );
}
