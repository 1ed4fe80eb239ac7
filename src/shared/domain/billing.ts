/** Plans, subscriptions and orders (spec part 2 §2.9, §2.11, §3). */

/** The trial plan's id: the session's plans containing it show the trial banner. */
export const FREE_PLAN_ID = 'free';

export const SUBSCRIPTION_STATUSES = ['trial', 'active', 'cancelled', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const ORDER_STATUSES = ['submitted', 'confirmed', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * Quota kinds of a plan. The spec shows USERS (a plain number of users); TERM is the plan's running time as a
 * duration ('30d' for the trial), from which the trial's days left are computed.
 */
export const QUOTA_TYPES = ['USERS', 'TERM'] as const;
export type QuotaType = (typeof QUOTA_TYPES)[number];

/** A quota or term: a number followed by y, m or d (upper or lower case), e.g. '30d', '12m', '1y'. */
const DURATION_PATTERN = /^(\d+)([ymdYMD])$/;

export interface Duration {
  amount: number;
  unit: 'y' | 'm' | 'd';
}

export function parseDuration(value: string): Duration | undefined {
  const match = DURATION_PATTERN.exec(value.trim());
  if (!match) return undefined;
  return { amount: Number(match[1]), unit: match[2]!.toLowerCase() as Duration['unit'] };
}
