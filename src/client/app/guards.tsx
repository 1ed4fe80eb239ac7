/**
 * Route guards (spec part 2 §2.1: guards distinguish only guest and private).
 * - Private: a guest goes to /login; the requested URL (path + query + hash) travels in the navigation state and
 *   the guest guard sends the user back there after login.
 * - Guest: a logged-in user goes on to that URL, or /dashboard.
 */
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import type { LoginOutletContext } from '../features/auth/login-screen';
import { useSessionStore } from '../stores/session-store';
import { prefetchForLogin, prefetchSignedIn } from './prefetch';

export const HOME_PATH = '/dashboard';
export const LOGIN_PATH = '/login';

export interface LoginLocationState {
  from?: string;
}

/** Accepts only same-origin app paths as a return target (no `//host`, no loop back to /login). */
export function safeReturnPath(state: unknown): string | undefined {
  const from = typeof state === 'object' && state !== null ? (state as LoginLocationState).from : undefined;
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return undefined;
  if (from === LOGIN_PATH || from.startsWith(`${LOGIN_PATH}?`) || from === '/') return undefined;
  return from;
}

export function RequireAuth() {
  const session = useSessionStore((state) => state.session);
  const endReason = useSessionStore((state) => state.endReason);
  const location = useLocation();
  if (!session) {
    // After an explicit logout the next user should start on the dashboard, not on the previous user's page.
    const state: LoginLocationState | undefined = endReason === 'logout' ? undefined : { from: `${location.pathname}${location.search}${location.hash}` };
    return <Navigate to={LOGIN_PATH} replace state={state} />;
  }
  return <Outlet />;
}

export function GuestOnly() {
  const session = useSessionStore((state) => state.session);
  const location = useLocation();
  const next = safeReturnPath(location.state) ?? HOME_PATH;
  if (session) return <Navigate to={next} replace />;
  // While the login request runs (the server's password hash takes a while), the frame, the next screen and the
  // sync runtime load, so the first pull goes out right after the answer instead of after three chunk round trips.
  // The design system (Chakra's system is built when its chunk runs, the longest task of the start), the frame and
  // the screen load as soon as the user is on the form, so they are ready before the tap and not in the way of the
  // first sync.
  const context: LoginOutletContext = { onLoginSubmitted: () => prefetchSignedIn(next), onFormStarted: () => prefetchForLogin(next) };
  return <Outlet context={context} />;
}
