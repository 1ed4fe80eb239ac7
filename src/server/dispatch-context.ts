import { AsyncLocalStorage } from 'node:async_hooks';
import type { Socket } from 'node:net';
import type { AuthContext } from './auth/auth-context';

/**
 * Who sent the batch, as its own request established it: its `Authorization` header, the caller (whose user,
 * tenant and session each entry loads again), the device.
 */
export interface BatchCaller {
  authorization: string;
  auth: AuthContext;
  /** The batch's X-Client-Id, registered to `auth`'s user before the first entry ran. */
  clientid: string;
}

/**
 * Set while `POST /api/sync/batch` runs its entries in-process: the connection of the request that carries them.
 * An entry's own request has no connection of its own (`inject`), so whatever must act on the network (the test
 * fault plugin's lost answer) acts on this one — a lost answer of one entry is the lost answer of its batch.
 *
 * `caller`: the batch's caller and device. An entry that carries the same `Authorization` takes them over instead
 * of verifying the token and registering the device again, facts its batch established a moment before
 * (docs/sync.md § Batch). The caller itself (user, profile, session) is loaded again for each entry
 * (plugins/auth.ts): those can change while a batch runs — a logout, a deactivation — and apply from the next
 * entry on.
 */
export const dispatchContext = new AsyncLocalStorage<{ socket: Socket | undefined; caller?: BatchCaller }>();

/** The batch's caller when this request is one of its entries, sent with the batch's own `Authorization`. */
export function batchCallerOf(authorization: string | undefined): BatchCaller | undefined {
  const caller = dispatchContext.getStore()?.caller;
  return caller !== undefined && authorization !== undefined && caller.authorization === authorization ? caller : undefined;
}
