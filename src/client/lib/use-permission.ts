/** Mirrors the server's permission check (spec part 2 §6) to show or hide controls. The server still enforces. */
import type { FeatureKey, PermissionFlag } from '../../shared/permissions';
import { sessionCan, useSessionStore } from '../stores/session-store';

export function usePermission(feature: FeatureKey, flag: PermissionFlag): boolean {
  return useSessionStore((state) => sessionCan(state.session, feature, flag));
}

export function useIsAdmin(): boolean {
  return useSessionStore((state) => state.session?.userinfo.admin ?? false);
}
