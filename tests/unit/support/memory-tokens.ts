import type { TokenSource } from '../../../src/client/lib/api-client';

/** An in-memory token holder, as a device keeps its session's pair; `ended` records that the client gave up on the session. */
export interface MemoryTokens {
  access: string | null;
  refresh: string | null;
  ended: number;
  source: TokenSource;
}

export function memoryTokens(access: string | null = 'access-1', refresh: string | null = 'refresh-1'): MemoryTokens {
  const holder: MemoryTokens = {
    access,
    refresh,
    ended: 0,
    source: {
      getAccessToken: () => holder.access,
      getRefreshToken: () => holder.refresh,
      setTokens: (pair) => {
        holder.access = pair.accesstoken;
        holder.refresh = pair.refreshtoken;
      },
      endSession: () => {
        holder.ended += 1;
        holder.access = null;
        holder.refresh = null;
      },
    },
  };
  return holder;
}
