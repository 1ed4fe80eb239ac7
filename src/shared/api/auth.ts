import { z } from 'zod';
import { FEATURE_KEYS } from '../permissions';
import { EMAIL_MAX_LENGTH, isValidEmail, PASSWORD_MIN_LENGTH } from '../validation';

/** The one e-mail rule of forms and routes (the login form checks the same `isValidEmail`). */
export const emailSchema = z.string().trim().min(1).max(EMAIL_MAX_LENGTH).refine(isValidEmail, 'Invalid e-mail address');

/**
 * The device's credentials for binding a refresh-token family to it (docs/api.md § Authentication): its client
 * id (one per browser profile, kept in IndexedDB) and a random secret made once with it. Optional, so scripts
 * and API users without a device can still log in; their family is bound on its first refresh that sends them.
 */
export const DEVICE_SECRET_MIN_LENGTH = 32;
export const deviceCredentialsSchema = z.object({
  deviceid: z.string().uuid().optional(),
  devicesecret: z.string().min(DEVICE_SECRET_MIN_LENGTH).max(256).optional(),
});
export type DeviceCredentials = { deviceid: string; devicesecret: string };

export const loginRequestSchema = z.object({
  email: emailSchema,
  password: z.string().min(PASSWORD_MIN_LENGTH),
  ...deviceCredentialsSchema.shape,
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

// why readonly: the same type as FlagTuple of permissions.ts, so stored profiles pass through unchanged.
const flagTuple = z.tuple([z.boolean(), z.boolean(), z.boolean(), z.boolean()]).readonly();
export const profileSchema = z.object({
  id: z.string(),
  nodeid: z.string().uuid(),
  name: z.record(z.string(), z.string()),
  features: z.partialRecord(z.enum(FEATURE_KEYS), flagTuple),
});
export type Profile = z.infer<typeof profileSchema>;

export const planSchema = z.object({
  nodeid: z.string().uuid(),
  name: z.string(),
  quotas: z.array(z.object({ type: z.string(), quota: z.string() })),
  startingfrom: z.number(),
  noticeperiod: z.string(),
  status: z.object({ isvalid: z.boolean() }),
});
export type Plan = z.infer<typeof planSchema>;

export const billingInfoSchema = z.object({
  subscriptionid: z.string(),
  billingname: z.string(),
  billingstreet: z.string(),
  billingstreetnumber: z.string(),
  billingzipcode: z.string(),
  billingcity: z.string(),
  billingcountry: z.string(),
  billingbillingemail: z.string(),
});

/** Session payload of spec part 2 §3, returned by POST /api/auth/login. */
export const sessionSchema = z.object({
  accesstoken: z.string(),
  refreshtoken: z.string(),
  legalentitynodeid: z.string().uuid(),
  usernodeid: z.string().uuid(),
  userid: z.string(),
  clientid: z.string(),
  clientinfo: z.object({ name: z.string(), clienttype: z.enum(['company', 'machinebuilder']) }),
  appid: z.string(),
  superuser: z.boolean(),
  userType: z.string(),
  autologoutweb: z.boolean(),
  twoFa: z.boolean(),
  twoFaGenerated: z.boolean(),
  userinfo: z.object({
    admin: z.boolean(),
    profileid: z.string(),
    givenname: z.string(),
    surname: z.string(),
    email: z.string(),
  }),
  profiles: z.array(profileSchema),
  plans: z.array(planSchema),
  baseinfo: z.object({
    organisation: z.string(),
    lang: z.string(),
    /** The server's PUBLIC_URL: service stickers encode it (part 2 §2.2 "a default base URL plus the node id"). */
    publicurl: z.string().optional(),
  }),
  billinginfo: billingInfoSchema.nullable(),
  clients: z.array(z.object({ clientid: z.string(), name: z.string() })).optional(),
});
export type Session = z.infer<typeof sessionSchema>;

export const refreshRequestSchema = z.object({ token: z.string().min(1), ...deviceCredentialsSchema.shape });
export const refreshResponseSchema = z.object({ accesstoken: z.string(), refreshtoken: z.string() });
export type RefreshResponse = z.infer<typeof refreshResponseSchema>;

export const logoutRequestSchema = z.object({ token: z.string().min(1).optional() });

