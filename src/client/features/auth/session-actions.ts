/** Login and logout (spec part 2 §4 "Login result", "Logout"). */
import { z } from 'zod';
import { sessionSchema } from '../../../shared/api/auth';
import { chatRoomSchema } from '../../../shared/api/structure';
import { normalizeEmail } from '../../../shared/validation';
import { api } from '../../lib/api';
import { isApiError } from '../../lib/api-client';
import { getDeviceCredentials, sessionStore } from '../../stores/session-store';
import { toStoredSession } from '../../stores/stored-session';
import { syncStore } from '../../stores/sync-store';

/** Keys under `login.errors` for a failed login call. */
export type LoginFailure = 'invalidCredentials' | 'accessDenied' | 'tooManyAttempts' | 'offline' | 'server';

export function loginFailure(error: unknown): LoginFailure {
  if (!isApiError(error)) return 'server';
  if (error.isNetworkError) return 'offline';
  switch (error.statusCode) {
    case 400: // the server rejected the input shape; the form already checked it, so treat as wrong credentials
    case 401:
      return 'invalidCredentials';
    case 403:
      return 'accessDenied';
    case 429:
      return 'tooManyAttempts';
    default:
      return 'server';
  }
}

/**
 * Logs in and stores the session. The guest guard then moves on to the page the user came for.
 * Super users (client list) and machine builders get their own flows in issue #7; until then they enter the
 * normal dashboard with the session they received.
 */
export async function login(email: string, password: string, whileWaiting?: () => void): Promise<void> {
  // why optional: without IndexedDB (a locked-down browser) the login still works, bound to no device.
  const device = await getDeviceCredentials().catch(() => undefined);
  const answer = api.post('auth/login', { json: { email: normalizeEmail(email), password, ...device }, schema: sessionSchema, auth: false });
  // In the next task, when the request is on the wire: the answer takes a while (the server's password hash), and
  // what is loaded meanwhile must not queue in front of the request itself (a browser opens 6 connections a host).
  if (whileWaiting) setTimeout(whileWaiting, 0);
  const session = await answer;
  await sessionStore.getState().start(toStoredSession(session));
  void loadChatRoom(session.usernodeid);
}

/** The user's general chat room (the one not tied to a notification) becomes `chatroomnodeid`. Best effort. */
async function loadChatRoom(usernodeid: string): Promise<void> {
  try {
    const rooms = await api.get('chatrooms', { searchParams: { usernodeid, lang: 'de' }, schema: z.array(chatRoomSchema) });
    const room = rooms.find((r) => r.notificationnodeid === null) ?? rooms[0];
    if (room) await sessionStore.getState().update({ chatroomnodeid: room.nodeid });
  } catch {
    // the chat is not needed to work; it is loaded again after the next login
  }
}

/**
 * Changes of the logged-in user that are not on the server: unsent outbox entries (`pending`, sent after the user's
 * next login on this device) and refused ones (`refused`, dead letters: never sent by themselves, they wait in the
 * sync panel until the user sends them again or discards them). Logout warns with both and offers "Jetzt
 * synchronisieren" first for unsent ones; it never deletes either.
 */
export function unsyncedChanges(): { pending: number; refused: number } {
  const { pendingCount, deadLetterCount } = syncStore.getState();
  return { pending: pendingCount, refused: deadLetterCount };
}

/**
 * Ends the session: tells the server to revoke the refresh token (best effort: offline, the token simply
 * expires), then clears memory, the encrypted blob and its key. Never touches the offline database: mirror, outbox,
 * dead letters and file bytes stay (docs/sync.md § Invariants, 1) and the outbox is sent after the next login.
 */
export async function logout(): Promise<void> {
  const session = sessionStore.getState().session;
  if (session) {
    try {
      // With an expired access token the client refreshes once first; the server finds the token family by the
      // (possibly just rotated) refresh token sent here and revokes all of it.
      await api.post('auth/logout', { json: { token: session.refreshtoken }, timeout: 5_000 });
    } catch {
      // best effort
    }
  }
  await sessionStore.getState().end('logout');
}
