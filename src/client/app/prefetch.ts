/**
 * A cold start would otherwise load its chunks one after another: the entry has to download and run (React DOM,
 * the router, i18next) before the router asks for the design-system frame (Chakra UI) and then the screen; with a
 * stored session also the key store, then the session's schema (restore), then the app frame (once the guard lets
 * the user in), then the screen (once the frame renders its outlet). This starts the current route's chunks at
 * once — the screen a guest or a signed-in user will see, the design-system frame (every screen but the login), the
 * app frame and the session's schema for a stored session — and `React.lazy` later finds them loaded.
 * `start-prefetch.ts` runs it as the entry's first module, before the rest of the entry is evaluated.
 */
import { matchPath } from 'react-router-dom';
import { SESSION_STORAGE_KEY } from '../lib/session-vault';
import { preloadSessionParser } from '../stores/session-store';
import { preloadSyncRuntime } from '../sync/app-sync';
import { LOGIN_PATH } from './guards';
import { isScreenRoute, NOT_FOUND_PATH, ROUTE_TABLE, type ReadyScreenRoute, type RouteAccess } from './route-table';

/** The screen the router will render at `pathname` for a guest or a signed-in user (not the 404 catch-all). */
export function screenForPath(pathname: string, signedIn: boolean): ReadyScreenRoute | undefined {
  const shownTo: readonly RouteAccess[] = signedIn ? ['private', 'none'] : ['guest', 'none'];
  return ROUTE_TABLE.filter(isScreenRoute).find((entry) => entry.path !== NOT_FOUND_PATH && shownTo.includes(entry.access) && matchPath(entry.path, pathname) !== null);
}

export function prefetchCurrentRoute(pathname: string = window.location.pathname): void {
  let stored: string | null = null;
  try {
    stored = window.localStorage.getItem(SESSION_STORAGE_KEY);
  } catch {
    // storage blocked: the restore starts logged out anyway
  }
  const signedIn = stored !== null;
  const ignore = () => undefined; // a failed prefetch is retried by React.lazy when the route renders
  const screen = screenForPath(pathname, signedIn);
  if (signedIn) {
    preloadSessionParser();
    if (screen?.access === 'private') void import('./app-layout').catch(ignore);
  }
  if (screen) void screen.load().catch(ignore);
  // Every screen but the login renders inside the design-system frame (router.tsx); a guest on a private path is
  // sent to the login, which does not need it.
  if (signedIn || (screen && screen.path !== LOGIN_PATH)) prefetchDesignSystem();
  // Every screen but the login renders with the German texts beyond the shell (router.tsx, withAppTexts).
  if (screen && screen.path !== LOGIN_PATH) void import('virtual:texts/de-app').catch(ignore);
}

/**
 * The user started on the login form: the design system, the frame and the screen at `target` load while they type.
 * Building Chakra's system when its chunk runs is the longest task of the start, and each import adds a
 * <link rel="modulepreload"> per chunk it needs (the frame's ~90 ms at 4× CPU, mostly appendChild, in a profile of
 * the login): done at the tap, both were long tasks in the way of the first sync (W1, docs/benchmarks.md). So is
 * the browser's first number format (warmNumberAndPluralRules), which the dashboard's first render needed.
 */
export function prefetchForLogin(target: string): void {
  inTurns([prefetchDesignSystem, ...signedInScreen(target), warmNumberAndPluralRules]);
}

/**
 * Formats one number and picks one plural form in the page's language, so the browser has loaded its number and
 * plural data before the dashboard's first render needs them (every count there is a plural text with a number):
 * the first Intl.NumberFormat of a page cost ~55 ms of that render at 4× CPU (W1 profile), 115–180 ms on a
 * fresh page at 4× on a slower machine. Not through lib/i18n.ts: importing it here moved i18next into chunks of
 * its own.
 */
function warmNumberAndPluralRules(): void {
  const language = document.documentElement.lang || undefined;
  new Intl.NumberFormat(language).format(0);
  new Intl.PluralRules(language).select(2);
}

/**
 * The login request is under way: what the signed-in user sees first (the frame and the screen at `target`, unless
 * the form already loaded them) and the sync runtime with the opened local database load while it runs. Without
 * it they loaded one after another after the answer — frame, then screen, then the runtime in the frame's effect —
 * and the initial sync's first request went out ~2 s after the login answer on a 4× throttled tablet (W1,
 * docs/sync.md § Applying a pulled page).
 */
export function prefetchSignedIn(target: string): void {
  inTurns([...signedInScreen(target), prefetchDesignSystem, preloadSyncRuntime]);
}

/** The imports of the first screen after a login, one step each (a step for a module already loaded costs nothing). */
function signedInScreen(target: string): (() => void)[] {
  const ignore = () => undefined; // a failed prefetch is retried by React.lazy / the engine when they need it
  const screen = screenForPath(new URL(target, window.location.origin).pathname, true);
  return [() => void import('./app-layout').catch(ignore), () => void screen?.load().catch(ignore), () => void import('virtual:texts/de-app').catch(ignore)];
}

/** Runs the steps one per macrotask, in order, so the main thread can paint and handle input between them. */
function inTurns(steps: readonly (() => void)[]): void {
  const [first, ...rest] = steps;
  if (!first) return;
  first();
  if (rest.length > 0) setTimeout(() => inTurns(rest), 0);
}

/**
 * The design-system frame (Chakra UI and the theme, design-system.tsx): every screen but the login renders in it.
 * Its chunk builds Chakra's system when it runs, one long task (~60 ms unthrottled, ~240 ms at 4× CPU), so the
 * login asks for it when the user starts on the form (prefetchForLogin), not with the tap that starts the first sync.
 */
export function prefetchDesignSystem(): void {
  void import('./design-system').catch(() => undefined); // retried by React.lazy when the frame renders
}
