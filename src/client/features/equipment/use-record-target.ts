/** Forms receive their record through navigation state (spec part 2 §2.1); `?nodeid=` serves reloads and links. */
import { useLocation, useSearchParams, type NavigateFunction } from 'react-router-dom';

export function useRecordTarget(editPath: string): { mode: 'add' | 'edit'; nodeid: string | null } {
  const location = useLocation();
  const [params] = useSearchParams();
  const state = (location.state ?? {}) as Record<string, unknown>;
  const nested = Object.values(state).find((value): value is { nodeid: string } => typeof (value as { nodeid?: unknown } | null)?.nodeid === 'string');
  const fromState = typeof state.nodeid === 'string' ? state.nodeid : (nested?.nodeid ?? null);
  const mode = location.pathname === editPath ? 'edit' : 'add';
  return { mode, nodeid: mode === 'edit' ? (fromState ?? params.get('nodeid')) : null };
}

/** After saving a small catalogue form: back where the user came from, else the machines. */
export function backOr(navigate: NavigateFunction, fallback = '/machines'): void {
  if (window.history.length > 1) void navigate(-1);
  else void navigate(fallback);
}
