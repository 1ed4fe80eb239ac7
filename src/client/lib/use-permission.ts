/** Mirrors the server's permission check (spec part 2 §6) to show or hide controls. The server still enforces. */
import { mayRun, type AnyMutation } from '../../shared/mutations/mutation';
import type { FeatureKey, PermissionFlag } from '../../shared/permissions';
import { sessionCan, sessionSubject, useSessionStore } from '../stores/session-store';

export function usePermission(feature: FeatureKey, flag: PermissionFlag): boolean {
  return useSessionStore((state) => sessionCan(state.session, feature, flag));
}

export function useIsAdmin(): boolean {
  return useSessionStore((state) => state.session?.userinfo.admin ?? false);
}

/** Mirrors a declared action's permission (src/shared/mutations) to show or hide its control. */
export function useMayRun(definition: Pick<AnyMutation, 'permission' | 'kind' | 'creates'>): boolean {
  return useSessionStore((state) => {
    const subject = sessionSubject(state.session);
    return subject !== null && mayRun(subject, definition);
  });
}
