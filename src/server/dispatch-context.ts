import { AsyncLocalStorage } from 'node:async_hooks';
import type { Socket } from 'node:net';

/**
 * Set while `POST /api/sync/batch` runs its entries in-process: the connection of the request that carries them.
 * An entry's own request has no connection of its own (`inject`), so whatever must act on the network (the test
 * fault plugin's lost answer) acts on this one — a lost answer of one entry is the lost answer of its batch.
 */
export const dispatchContext = new AsyncLocalStorage<{ socket: Socket | undefined }>();
