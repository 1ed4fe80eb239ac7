/**
 * "Forms receive their record through navigation state" (spec part 2 §2.1). The structure forms take the record's
 * id from the state (`{nodeid}`) or from `?nodeid=` in the address, so a reload or a shared link still opens it;
 * the record itself is read from the mirror, never trusted from the state.
 */
export function recordIdFrom(state: unknown, params: URLSearchParams): string | null {
  const fromState = state && typeof state === 'object' ? (state as { nodeid?: unknown }).nodeid : undefined;
  if (typeof fromState === 'string' && fromState) return fromState;
  return params.get('nodeid') || null;
}

/** A string field of the navigation state (e.g. the area form's `sitenodeid`), or null. */
export function stateText(state: unknown, field: string): string | null {
  const value = state && typeof state === 'object' ? (state as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' && value ? value : null;
}
