/**
 * Mirror-only field: set by a delete while it waits for the server. Screens leave such rows out; the pull's
 * tombstone removes the row for good, and a refused delete (dead letter) restores the field's previous value.
 */
export const PENDING_DELETE = 'pendingdelete';
