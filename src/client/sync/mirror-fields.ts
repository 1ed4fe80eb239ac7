import type { MirrorRow } from '../db/local-db';

/**
 * Mirror-only field: set by a delete while it waits for the server. Screens leave such rows out; the pull's
 * tombstone removes the row for good, and a refused delete (dead letter) restores the field's previous value.
 */
export const PENDING_DELETE = 'pendingdelete';

/**
 * Mirror-only field: the record's create was refused (dead letter) while later writes to it were still queued.
 * Once none is left the row goes (the server never had it), unless an acknowledged create or a pull brought the
 * server's row meanwhile (both drop the field).
 */
export const CREATE_REFUSED = 'createrefused';

/** Rows the screens show: not waiting for their delete. */
export const isLive = (row: MirrorRow): boolean => row[PENDING_DELETE] !== true;
