import { can, type PermissionSubject } from '../permissions';

/**
 * Who learns what about a colleague. Every signed-in user of a tenant sees every colleague's display data — name,
 * picture, profile, whether the account is active — because screens name people (authors, assignees, chat).
 * A user's record beyond that, their e-mail address first, is told to the user themself and to whoever may read
 * user records (feature `user`, read: the user administration; admins hold it). GET /api/users/:id gives the whole
 * record by this rule, the pull's users rows the address (docs/sync.md § Pull by permission, docs/security.md).
 */

/** Whether `viewer` may read other users' records beyond display data (their e-mail addresses). */
export function readsOtherUsersDetails(viewer: PermissionSubject): boolean {
  return can(viewer, 'user', 'read');
}

/** Whether `viewer` may read the record of the user `usernodeid` beyond display data: their own, or with `user` read. */
export function mayReadUserDetails(viewer: PermissionSubject & { usernodeid: string }, usernodeid: string): boolean {
  return usernodeid === viewer.usernodeid || readsOtherUsersDetails(viewer);
}
