/**
 * A cold start with a stored session would otherwise load its chunks one after another: the key store and the
 * session's schema (restore), then the app frame (once the guard lets the user in), then the screen (once the
 * frame renders its outlet). This starts the frame's and the current screen's chunks at once, in parallel with the
 * restore; `React.lazy` later finds them loaded. A guest (no stored session) loads nothing extra.
 */
import { matchPath } from 'react-router-dom';
import { SESSION_STORAGE_KEY } from '../lib/session-vault';
import { isScreenRoute, ROUTE_TABLE } from './route-table';

export function prefetchSignedInRoute(pathname: string = window.location.pathname): void {
  let stored: string | null = null;
  try {
    stored = window.localStorage.getItem(SESSION_STORAGE_KEY);
  } catch {
    return; // storage blocked: the restore starts logged out anyway
  }
  if (stored === null) return;
  const screen = ROUTE_TABLE.filter(isScreenRoute).find((entry) => entry.access === 'private' && matchPath(entry.path, pathname) !== null);
  if (!screen) return;
  const ignore = () => undefined; // a failed prefetch is retried by React.lazy when the route renders
  void import('./app-layout').catch(ignore);
  void screen.load().catch(ignore);
}
