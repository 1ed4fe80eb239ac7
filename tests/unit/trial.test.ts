import { describe, expect, it } from 'vitest';
import { addDuration, computeTrialState, type TrialPlanInput } from '../../src/shared/domain/trial';

const DAY = 24 * 60 * 60 * 1000;
const START = Date.UTC(2026, 0, 10, 9, 0, 0);

function plan(overrides: Partial<TrialPlanInput> = {}): TrialPlanInput {
  return { name: 'free', quotas: [{ type: 'USERS', quota: '5' }, { type: 'TERM', quota: '30d' }], startingfrom: START, status: { isvalid: true }, ...overrides };
}

describe('computeTrialState', () => {
  it('has no trial without a free plan', () => {
    expect(computeTrialState([plan({ name: 'Business 30' })], START)).toEqual({ daysLeft: null, notYetSubscribed: false, redirectToOrderSubscription: false });
    expect(computeTrialState([], START).daysLeft).toBeNull();
  });

  it('counts 30 days on the first day and rounds partial days up', () => {
    expect(computeTrialState([plan()], START)).toEqual({ daysLeft: 30, notYetSubscribed: true, redirectToOrderSubscription: false });
    expect(computeTrialState([plan()], START + 1).daysLeft).toBe(30);
    expect(computeTrialState([plan()], START + DAY).daysLeft).toBe(29);
    expect(computeTrialState([plan()], START + 29.5 * DAY).daysLeft).toBe(1);
  });

  it('reads 0 at the end instant and -1 afterwards', () => {
    expect(computeTrialState([plan()], START + 30 * DAY)).toMatchObject({ daysLeft: 0, notYetSubscribed: true });
    expect(computeTrialState([plan()], START + 30 * DAY + 1)).toMatchObject({ daysLeft: -1, notYetSubscribed: false });
  });

  it('matches the free plan by name regardless of case', () => {
    expect(computeTrialState([plan({ name: 'Free' })], START).daysLeft).toBe(30);
  });

  it('falls back to the first duration-shaped quota, and to -1 without any', () => {
    expect(computeTrialState([plan({ quotas: [{ type: 'USERS', quota: '5' }, { type: 'X', quota: '14D' }] })], START).daysLeft).toBe(14);
    expect(computeTrialState([plan({ quotas: [{ type: 'USERS', quota: '5' }] })], START)).toMatchObject({ daysLeft: -1, notYetSubscribed: false });
  });

  it.each([
    ['1m', Date.UTC(2026, 1, 10, 9)],
    ['1y', Date.UTC(2027, 0, 10, 9)],
  ])('adds a %s term by calendar', (quota, end) => {
    expect(computeTrialState([plan({ quotas: [{ type: 'TERM', quota }] })], end - DAY).daysLeft).toBe(1);
  });

  it('flags an invalid quota status for the order wizard', () => {
    expect(computeTrialState([plan({ status: { isvalid: false } })], START).redirectToOrderSubscription).toBe(true);
    expect(computeTrialState([plan({ name: 'Business', status: { isvalid: false } })], START).redirectToOrderSubscription).toBe(true);
  });
});

describe('addDuration', () => {
  it('clamps the day of month', () => {
    expect(new Date(addDuration(Date.UTC(2026, 0, 31), { amount: 1, unit: 'm' })).toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(new Date(addDuration(Date.UTC(2024, 1, 29), { amount: 1, unit: 'y' })).toISOString()).toBe('2025-02-28T00:00:00.000Z');
  });
});
