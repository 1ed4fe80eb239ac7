import { describe, expect, it } from 'vitest';
import { clampDeviceTime, deviceCreationTime, EARLIEST_DEVICE_TIME_MS } from '../../src/shared/domain/device-time';

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

});

describe('deviceCreationTime', () => {
  it('keeps a past device time and moves one ahead back to now', () => {
    expect(deviceCreationTime(created, now)).toBe(created);
    expect(deviceCreationTime(now + DAY, now)).toBe(now);
  });

  it('takes now for a time from a clock that was never set (a tablet booted without network starts at 1970)', () => {
    expect(deviceCreationTime(0, now)).toBe(now);
    expect(deviceCreationTime(Date.UTC(1999, 11, 31, 23, 59), now)).toBe(now);
    expect(deviceCreationTime(EARLIEST_DEVICE_TIME_MS, now)).toBe(EARLIEST_DEVICE_TIME_MS);
    // A device whose own now is that early (its clock is the one off) keeps its now until the server answers.
    expect(deviceCreationTime(5, 10)).toBe(10);
  });

  it.each([undefined, null, Number.NaN, Number.POSITIVE_INFINITY])('takes now for a missing or unreadable time (%s)', (value) => {
    expect(deviceCreationTime(value, now)).toBe(now);
  });
});

// A reading's time is not floored: readings sent without an id are matched by it (counter-service).
describe('clampDeviceTime keeps an early time as data', () => {
  it('a reading dated 1970 stays 1970', () => {
    expect(clampDeviceTime(DAY, 0, now)).toBe(DAY);
  });
});


describe('deviceCreationTime for a counter reading (as the server stores it and the mirror shows it)', () => {
  it('takes a time before 2000 as a clock never set: now, like a report', () => {
    expect(deviceCreationTime(0, now)).toBe(now);
    expect(deviceCreationTime(EARLIEST_DEVICE_TIME_MS - 1, now)).toBe(now);
    expect(deviceCreationTime(EARLIEST_DEVICE_TIME_MS, now)).toBe(EARLIEST_DEVICE_TIME_MS);
  });
  it('keeps a past time, caps a time ahead at now, and a missing one is now', () => {
    expect(deviceCreationTime(now - DAY, now)).toBe(now - DAY);
    expect(deviceCreationTime(now + DAY, now)).toBe(now);
    expect(deviceCreationTime(undefined, now)).toBe(now);
  });
});
