/**
 * The context every repository function takes: the device database and the signed-in user. One object per user,
 * so a screen's effect or callback that depends on it does not run again on every render.
 */
import { useMemo } from 'react';
import { getLocalDb } from '../db/local-db';
import { useSessionStore } from '../stores/session-store';
import type { WriteContext } from './outbox';

// why here: a screen that writes shows "device full" for this error, and screens do not import the database.
export { isQuotaExceeded } from '../db/local-db';

export function useWriteContext(): WriteContext | null {
  const usernodeid = useSessionStore((state) => state.session?.usernodeid ?? null);
  return useMemo(() => (usernodeid ? { db: getLocalDb(), usernodeid } : null), [usernodeid]);
}
