import { describe, expect, it } from 'vitest';
import { clampDeviceTime, EARLIEST_DEVICE_TIME_MS } from '../../src/shared/domain/device-time';

const DAY = 86_400_000;
const created = Date.UTC(2026, 10, 20, 8, 0);
const now = Date.UTC(2026, 10, 22, 8, 0);

describe('clampDeviceTime', () => {
  it('keeps a device time between the record creation and now', () => {
    expect(clampDeviceTime(created + DAY, created, now)).toBe(created + DAY);
    expect(clampDeviceTime(created, created, now)).toBe(created);
    expect(clampDeviceTime(now, created, now)).toBe(now);
  });

  it('moves a device clock that runs a day ahead back to now', () => {
    expect(clampDeviceTime(now + DAY, created, now)).toBe(now);
  });

  it('moves a device time before the record existed up to its creation', () => {
    expect(clampDeviceTime(created - DAY, created, now)).toBe(created);
  });

  it.each([undefined, null, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])('takes now for a missing or unreadable device time (%s)', (value) => {
    expect(clampDeviceTime(value, created, now)).toBe(now);
  });

  it('lets now win when the creation time lies after now (clock skew between servers)', () => {
    expect(clampDeviceTime(now, now + 1000, now)).toBe(now);
    expect(clampDeviceTime(now - DAY, now + 1000, now)).toBe(now);
  });

  it('takes now for a time from a clock that was never set (a tablet booted without network starts at 1970)', () => {
    expect(clampDeviceTime(0, 0, now)).toBe(now);
    expect(clampDeviceTime(Date.UTC(1999, 11, 31, 23, 59), 0, now)).toBe(now);
    expect(clampDeviceTime(EARLIEST_DEVICE_TIME_MS, 0, now)).toBe(EARLIEST_DEVICE_TIME_MS);
    // A device whose own now is that early (its clock is the one off) keeps its now until the server answers.
    expect(clampDeviceTime(5, 0, 10)).toBe(10);
  });
});
