/**
 * The free trial's remaining days (spec part 2 §4 "Trial", §2.11 subscription banner). Used by the client after
 * login to store `daysLeft` with the session and to show the trial banner; pure so the server can reuse it.
 */
import { FREE_PLAN_ID, parseDuration, type Duration } from './billing';

/** The fields of a plan (part 2 §3 "Plan") this rule reads; the session's plan schema satisfies it. */
export interface TrialPlanInput {
  name: string;
  quotas: ReadonlyArray<{ type: string; quota: string }>;
  startingfrom: number;
  status: { isvalid: boolean };
}

export interface TrialState {
  /** Whole days until the trial ends, 0 on its last day; -1 once it has ended; null when no free plan is held. */
  daysLeft: number | null;
  /** The user runs on the free plan and it has not ended: the trial banner is shown. */
  notYetSubscribed: boolean;
  /** A plan's quota status is invalid: the app sends the user to the order wizard. */
  redirectToOrderSubscription: boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Adds a duration to an instant. Months and years keep the day of month, clamped to the month's last day. */
export function addDuration(start: number, duration: Duration): number {
  if (duration.unit === 'd') return start + duration.amount * DAY_MS;
  const date = new Date(start);
  const months = duration.unit === 'y' ? duration.amount * 12 : duration.amount;
  const day = date.getUTCDate();
  const target = new Date(date.getTime());
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.getTime();
}

/**
 * The free plan's term: the TERM quota (billing.ts), otherwise the first quota that reads as a duration
 * ('30d'); a USERS quota is a plain number and never matches.
 */
function trialTerm(plan: TrialPlanInput): Duration | undefined {
  const term = plan.quotas.find((q) => q.type === 'TERM');
  if (term) return parseDuration(term.quota);
  for (const quota of plan.quotas) {
    const duration = parseDuration(quota.quota);
    if (duration) return duration;
  }
  return undefined;
}

/**
 * Days left = the end (start + term) minus now, rounded up to whole days, so the last 24 hours read as 1 and the
 * exact end instant as 0; after the end, or with an unreadable term, -1 (the spec's "otherwise days left is -1").
 */
export function computeTrialState(plans: readonly TrialPlanInput[], now: number): TrialState {
  const redirectToOrderSubscription = plans.some((plan) => !plan.status.isvalid);
  const free = plans.find((plan) => plan.name.toLowerCase() === FREE_PLAN_ID);
  if (!free) return { daysLeft: null, notYetSubscribed: false, redirectToOrderSubscription };

  const term = trialTerm(free);
  if (!term) return { daysLeft: -1, notYetSubscribed: false, redirectToOrderSubscription };

  const end = addDuration(free.startingfrom, term);
  if (now > end) return { daysLeft: -1, notYetSubscribed: false, redirectToOrderSubscription };
  return { daysLeft: Math.ceil((end - now) / DAY_MS), notYetSubscribed: true, redirectToOrderSubscription };
}
