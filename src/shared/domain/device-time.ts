/**
 * A time stamp the device recorded for something that happened on the shop floor (status changed, reading
 * taken, report executed, photo taken), as the server stores it: kept as data, never used for ordering or
 * cursors (docs/sync.md § Invariants, 5), and clamped to [record created, server now], so a tablet whose clock
 * is off by a day can neither date an event before its record existed nor into the future.
 *
 * A missing or unreadable device time (undefined, NaN, ±Infinity) means "now". If `createdMs` lies after
 * `nowMs` (clock skew between server instances) the upper bound wins.
 */
export function clampDeviceTime(deviceMs: number | null | undefined, createdMs: number, nowMs: number): number {
  if (deviceMs === null || deviceMs === undefined || !Number.isFinite(deviceMs)) return nowMs;
  const lower = Math.min(createdMs, nowMs);
  return Math.min(Math.max(deviceMs, lower), nowMs);
}

/** 01.01.2000 UTC: no report or solution made with this product is older; an earlier time is a clock never set. */
export const EARLIEST_DEVICE_TIME_MS = Date.UTC(2000, 0, 1);

/**
 * When a record made on the device (a report, a solution) was made, as the server stores it: the device's time, not
 * in the future; missing, unreadable or before EARLIEST_DEVICE_TIME_MS — a clock that was never set, a tablet booted
 * without network starts at 1970 — it is now. (Times of events on a record are clamped to its creation, so they
 * cannot fall before the floor either.) A counter reading's time follows the same rule: readings sent without an id stay idempotent because their id
 * is derived from the time as sent (keylessReadingNodeId), not from this one.
 */
export function deviceCreationTime(deviceMs: number | null | undefined, nowMs: number): number {
  if (deviceMs === null || deviceMs === undefined || !Number.isFinite(deviceMs) || deviceMs < EARLIEST_DEVICE_TIME_MS) return nowMs;
  return Math.min(deviceMs, nowMs);
}
