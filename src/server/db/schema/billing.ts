import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ORDER_STATUSES, SUBSCRIPTION_STATUSES, type QuotaType } from '../../../shared/domain/billing';
import { tenantColumns, timestamps } from './columns';
import { checkIn, tenantConstraints } from './constraints';
import { users } from './core';

/** A plan quota as the session carries it: `{type: 'USERS', quota: '5'}`, `{type: 'TERM', quota: '30d'}`. */
export interface PlanQuota {
  type: QuotaType;
  quota: string;
}

/** The plan catalogue (free trial, 5/30/150 users). Global reference data. */
export const plans = pgTable('plans', {
  nodeid: uuid('nodeid').primaryKey(),
  /** Stable key: 'free' marks the trial (the trial banner looks for it). */
  planid: text('planid').notNull(),
  name: text('name').notNull(),
  /** Price per package and month, net (19 % VAT is added on top). */
  pricepermonth: numeric('pricepermonth', { precision: 12, scale: 2, mode: 'number' }).notNull(),
  currency: text('currency').notNull().default('EUR'),
  maxusers: integer('maxusers').notNull(),
  /** Minimum term ('12m'); billing is annual for paid plans. */
  term: text('term').notNull(),
  quotas: jsonb('quotas').$type<PlanQuota[]>().notNull(),
  /** Paid plans are offered in the order wizard in this order; the second is the default. */
  position: integer('position').notNull(),
  orderable: boolean('orderable').notNull().default(true),
  ...timestamps,
}, (t) => [uniqueIndex('plans_planid_uq').on(t.planid)]);

/**
 * The tenant's plan subscription (tab 'IHR ABO'). Quotas and term are copied from the plan when subscribing,
 * so a later change of the catalogue does not alter a running contract.
 */
export const subscriptions = pgTable('subscriptions', {
  ...tenantColumns(),
  plannodeid: uuid('plannodeid').notNull().references(() => plans.nodeid, { onDelete: 'restrict' }),
  /** Shown as 'Abo-ID'. */
  subscriptionid: text('subscriptionid').notNull(),
  term: text('term').notNull(),
  quotas: jsonb('quotas').$type<PlanQuota[]>().notNull(),
  packages: integer('packages').notNull().default(1),
  startingfrom: timestamp('startingfrom', { withTimezone: true }).notNull(),
  /** '1m' = one month before renewal. */
  noticeperiod: text('noticeperiod').notNull(),
  status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull(),
  autorenew: boolean('autorenew').notNull().default(true),
}, (t) => [
  ...tenantConstraints('subscriptions', t),
  uniqueIndex('subscriptions_subscriptionid_uq').on(t.subscriptionid),
  checkIn('subscriptions', 'status', t.status, SUBSCRIPTION_STATUSES),
  check('subscriptions_packages_ck', sql`${t.packages} >= 0`),
]);

/** Billing address block of the subscription summary; one per tenant. */
export const billingInfos = pgTable('billing_infos', {
  ...tenantColumns(),
  billingname: text('billingname').notNull(),
  billingstreet: text('billingstreet').notNull(),
  billingstreetnumber: text('billingstreetnumber').notNull(),
  billingaddressaddon: text('billingaddressaddon'),
  billingzipcode: text('billingzipcode').notNull(),
  billingcity: text('billingcity').notNull(),
  /** ISO 3166-1 alpha-2. */
  billingcountry: text('billingcountry').notNull(),
  /** Invoice recipient address ('Rechnungsversand per E-Mail an'). */
  billingbillingemail: text('billingbillingemail'),
  invoicebyemail: boolean('invoicebyemail').notNull().default(true),
}, (t) => [...tenantConstraints('billing_infos', t), uniqueIndex('billing_infos_le_uq').on(t.legalentitynodeid)]);

/** The order wizard's payload (part 2 §3 "Order submission payload"), kept as submitted. */
export interface OrderPayload {
  companyName: string;
  address?: string;
  streetHouseNumber: string;
  country: { label: string; value: string };
  zipCode: string;
  city: string;
  invoiceEmail?: string;
  billEmail?: string;
  firstName: string;
  lastName: string;
  department?: string;
  telephoneNumber?: string;
  email: string;
  userEmail?: string;
  clientid?: string;
  planTitle: string;
  cost: number;
  userNumber: number;
  sumPerMonth: number;
}

/** A submitted subscription order (POST /users/ordersubscriptions). */
export const orders = pgTable('orders', {
  ...tenantColumns(),
  /** The wizard's random 5-digit order number (10000–99999). */
  ordernumber: integer('ordernumber').notNull(),
  plannodeid: uuid('plannodeid').notNull().references(() => plans.nodeid, { onDelete: 'restrict' }),
  packages: integer('packages').notNull(),
  /** Net monthly sum at ordering time. */
  sumpermonth: numeric('sumpermonth', { precision: 12, scale: 2, mode: 'number' }).notNull(),
  payload: jsonb('payload').$type<OrderPayload>().notNull(),
  status: text('status', { enum: ORDER_STATUSES }).notNull().default('submitted'),
  /** Signed contract documents are due 30 days after ordering. */
  documentsdueat: timestamp('documentsdueat', { withTimezone: true }).notNull(),
  orderedbynodeid: uuid('orderedbynodeid').references(() => users.nodeid, { onDelete: 'set null' }),
}, (t) => [
  ...tenantConstraints('orders', t),
  uniqueIndex('orders_ordernumber_uq').on(t.legalentitynodeid, t.ordernumber),
  index('orders_plan_idx').on(t.plannodeid),
  checkIn('orders', 'status', t.status, ORDER_STATUSES),
  check('orders_ordernumber_ck', sql`${t.ordernumber} between 10000 and 99999`),
  check('orders_packages_ck', sql`${t.packages} >= 0`),
]);
