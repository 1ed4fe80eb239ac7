/**
 * The router, built from the route table: only `ready` entries are registered; pending paths fall through to
 * the catch-all 404. Each screen is a lazy chunk. Every route but the login renders inside the design-system frame
 * (Chakra UI, design-system.tsx); private screens inside the app layout within it.
 */
import { lazy, Suspense, useEffect } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { BootScreen } from '../components/boot-screen';
import { RouteError } from '../components/route-error';
import { loadAppTexts } from '../lib/i18n';
import { GuestOnly, LOGIN_PATH, RequireAuth } from './guards';
import { isRedirectRoute, isScreenRoute, NOT_FOUND_PATH, ROUTE_TABLE, type ReadyScreenRoute, type ScreenModule } from './route-table';
import { usePageTitle, type RouteHandle } from './use-page-title';
import { useSessionStore } from '../stores/session-store';

/** A chunk together with the German texts beyond the shell (lib/i18n.ts), loaded in parallel. */
export function withAppTexts<T>(load: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([load(), loadAppTexts()]).then(([module]) => module);
}

/** How a route's screen loads: the login with the shell's texts only, every other screen with all of them. */
export function screenLoader(entry: ReadyScreenRoute): () => Promise<ScreenModule> {
  return entry.path === LOGIN_PATH ? entry.load : withAppTexts(entry.load);
}

// why lazy: Chakra UI's system and components are not needed by the login (design-system.tsx).
const DesignSystemFrame = lazy(() => import('./design-system').then((m) => ({ default: m.DesignSystemFrame })));

// why lazy: the frame (app bar, navigation, sync engine with the data mirror) is for signed-in users only; the login
// must not load it. A cold /dashboard loads it in parallel with the screen.
const AppLayout = lazy(withAppTexts(() => import('./app-layout').then((m) => ({ default: m.AppLayout }))));

function screenRoute(entry: ReadyScreenRoute): RouteObject {
  const Screen = lazy(screenLoader(entry));
  const handle: RouteHandle = { titleKey: entry.titleKey };
  // why the key: two routes of one screen module (/create-machine, /edit-machine) would otherwise share one instance —
  // React reconciles lazy components by what they resolve to — and the edit form kept the add form's state.
  return { path: entry.path, element: <Screen key={entry.path} />, handle };
}

/** A signed-in user keeps the app's frame (navigation, sync state) on the 404; a guest sees it alone. */
function FrameWhenSignedIn() {
  const signedIn = useSessionStore((state) => state.session !== null);
  return signedIn ? <AppLayout /> : <Outlet />;
}

/** Keeps document.title in step with the screen: "Dashboard – Anlagenbuch". */
function RootRoute() {
  const { t } = useTranslation();
  const title = usePageTitle();
  const appName = t('app.name');
  useEffect(() => {
    document.title = title ? `${title} – ${appName}` : appName;
  }, [title, appName]);
  return (
    <Suspense fallback={<BootScreen />}>
      <Outlet />
    </Suspense>
  );
}

export function buildRoutes(): RouteObject[] {
  const screens = ROUTE_TABLE.filter(isScreenRoute);
  const redirects = ROUTE_TABLE.filter(isRedirectRoute).map<RouteObject>((entry) => ({ path: entry.path, element: <Navigate to={entry.redirectTo} replace /> }));
  return [
    {
      element: <RootRoute />,
      // A screen that cannot be shown (its code not on the device offline, gone after an update, a render error).
      errorElement: <RouteError />,
      children: [
        ...redirects,
        // The login without the design system; any later guest screen with it.
        { element: <GuestOnly />, children: screens.filter((e) => e.path === LOGIN_PATH).map(screenRoute) },
        {
          element: <DesignSystemFrame />,
          children: [
            { element: <GuestOnly />, children: screens.filter((e) => e.access === 'guest' && e.path !== LOGIN_PATH).map(screenRoute) },
            { element: <RequireAuth />, children: [{ element: <AppLayout />, children: screens.filter((e) => e.access === 'private').map(screenRoute) }] },
            ...screens.filter((e) => e.access === 'none' && e.path !== NOT_FOUND_PATH).map(screenRoute),
            { element: <FrameWhenSignedIn />, children: screens.filter((e) => e.path === NOT_FOUND_PATH).map(screenRoute) },
          ],
        },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRoutes());
}
