/** The context every repository function takes: the device database and the signed-in user. */
import { useMemo } from 'react';
import { getLocalDb } from '../db/local-db';
import { useSessionStore } from '../stores/session-store';
import type { WriteContext } from './outbox';

export function useWriteContext(): WriteContext | null {
  const usernodeid = useSessionStore((state) => state.session?.usernodeid ?? null);
  return useMemo(() => (usernodeid ? { db: getLocalDb(), usernodeid } : null), [usernodeid]);
}
