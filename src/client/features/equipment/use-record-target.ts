/** Forms receive their record through navigation state (spec part 2 §2.1); `?nodeid=` serves reloads and links. */
import { useLocation, useSearchParams } from 'react-router-dom';

export function useRecordTarget(editPath: string): { mode: 'add' | 'edit'; nodeid: string | null } {
  const location = useLocation();
  const [params] = useSearchParams();
  const state = (location.state ?? {}) as Record<string, unknown>;
  const nested = Object.values(state).find((value): value is { nodeid: string } => typeof (value as { nodeid?: unknown } | null)?.nodeid === 'string');
  const fromState = typeof state.nodeid === 'string' ? state.nodeid : (nested?.nodeid ?? null);
  const mode = location.pathname === editPath ? 'edit' : 'add';
  return { mode, nodeid: mode === 'edit' ? (fromState ?? params.get('nodeid')) : null };
}

/**
 * Where the small catalogue forms go after saving or cancelling: the machines. Not "back": a form opened from a
 * link or a scan has no in-app page to go back to, and history.back() would leave the app.
 */
export const CATALOGUE_FORM_EXIT = '/machines';
